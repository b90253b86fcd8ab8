import { type ActivityMessage, type BaseEvent, EventType, type Message } from "@ag-ui/core";
import { afterEach, describe, expect, it } from "vitest";
import { asRun, replayThroughClient, summarize } from "../../test/support/agui-client.js";
import { RecordingTranslator } from "../../test/support/recording-translator.js";
import { step, toolStep } from "../../test/support/steps.js";
import { sequentialIds } from "../ids/id-generator.js";
import type { StepTranslator } from "../translator/step-translator.js";
import type { StepTranslatorOptions } from "../translator/translator-options.js";
import { ACTIVITY_TYPES } from "./activity-types.js";

const created: RecordingTranslator[] = [];

function translator(options: StepTranslatorOptions = {}): StepTranslator {
  const subject = new RecordingTranslator({ ids: sequentialIds(), ...options });
  created.push(subject);
  return subject;
}

// Every sequence a test made must pass the client's verifier and apply cleanly with its reducer.
afterEach(async () => {
  for (const subject of created.splice(0)) {
    const view = await replayThroughClient(subject.recordedStream());
    expect(view.warnings).toEqual([]);
  }
});

const activities = (messages: readonly Message[]): ActivityMessage[] => messages.filter((message): message is ActivityMessage => message.role === "activity");

/** The step of a call whose action the client does not know (`manage_task`), as the harness shows it. */
const taskStep = (stepIndex: number, status: "active" | "done", text: string) => step({ stepIndex, status, text, textDelta: text, target: "environment", kind: "text" });

describe("the task list", () => {
  it("is one activity per run: a snapshot, then deltas as manage_task calls change it", async () => {
    const subject = translator();
    const events: BaseEvent[] = [];
    const call = (stepIndex: number, args: Record<string, unknown>) => {
      events.push(...subject.toolHook({ phase: "pre", toolName: "manage_task", callId: `call-${stepIndex}`, trajectoryId: "main", stepIndex, arguments: args }));
      events.push(...subject.toolHook({ phase: "post", toolName: "manage_task", callId: `call-${stepIndex}`, trajectoryId: "main", stepIndex, result: "ok", error: "" }));
    };
    call(1, { task: "write tests", status: "in progress" });
    call(2, { title: "ship it" });
    call(3, { task: "write tests", status: "done" });
    const activityEvents = events.filter((event) => event.type === EventType.ACTIVITY_SNAPSHOT || event.type === EventType.ACTIVITY_DELTA);
    expect(activityEvents.map((event) => event.type)).toEqual([EventType.ACTIVITY_SNAPSHOT, EventType.ACTIVITY_DELTA, EventType.ACTIVITY_DELTA]);
    expect(activityEvents[0]).toMatchObject({ activityType: ACTIVITY_TYPES.tasks, content: { tasks: [{ id: "task-1", title: "write tests", status: "in progress" }] } });
    const view = await replayThroughClient(asRun(events));
    expect(activities(view.messages)).toEqual([
      {
        id: activityEvents[0]?.["messageId" as keyof BaseEvent],
        role: "activity",
        activityType: ACTIVITY_TYPES.tasks,
        content: {
          tasks: [
            { id: "task-1", title: "write tests", status: "done" },
            { id: "task-2", title: "ship it", status: "pending" },
          ],
        },
      },
    ]);

    // The next run sends the whole list again, as a message of its own.
    subject.closeRun();
    subject.startRun();
    const next = subject.toolHook({ phase: "pre", toolName: "manage_task", callId: "call-9", arguments: { id: "task-2", status: "done" } });
    const nextPost = subject.toolHook({ phase: "post", toolName: "manage_task", callId: "call-9", error: "" });
    expect(next).toEqual([]);
    expect(nextPost).toEqual([expect.objectContaining({ type: EventType.ACTIVITY_SNAPSHOT, content: { tasks: [expect.objectContaining({ status: "done" }), expect.objectContaining({ id: "task-2", status: "done" })] } })]);
    expect((nextPost[0] as { messageId: string }).messageId).not.toBe((activityEvents[0] as unknown as { messageId: string }).messageId);
  });

  it("ignores a call that failed, one that names no task, and removes a deleted task", async () => {
    const subject = translator();
    const hook = (callId: string, args: Record<string, unknown>, error = "") => [
      ...subject.toolHook({ phase: "pre", toolName: "manage_task", callId, arguments: args }),
      ...subject.toolHook({ phase: "post", toolName: "manage_task", callId, error }),
    ];
    expect(hook("a", { task: "never ran" }, "Denied by policy")).toEqual([]);
    expect(hook("b", { priority: "high" })).toEqual([]);
    const listed = hook("c", { todos: [{ content: "one" }, { content: "two", state: "active" }] });
    expect(listed).toHaveLength(1);
    const removed = hook("d", { action: "delete", content: "one" });
    expect(removed).toEqual([expect.objectContaining({ type: EventType.ACTIVITY_DELTA })]);
    const view = await replayThroughClient(asRun([...listed, ...removed]));
    expect(activities(view.messages)[0]?.content).toEqual({ tasks: [{ id: "task-2", title: "two", status: "active" }] });
  });

  it("gives a call step the harness names no action for a tool card named by its pre-tool hook, never assistant text", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(taskStep(1, "active", 'Updating task "write tests"')),
      ...subject.toolHook({ phase: "pre", toolName: "manage_task", callId: "call-7", trajectoryId: "main", stepIndex: 1, arguments: { task: "write tests", status: "in progress" } }),
      ...subject.translate(taskStep(1, "done", 'Task "write tests": in progress')),
      ...subject.toolHook({ phase: "post", toolName: "manage_task", callId: "call-7", trajectoryId: "main", stepIndex: 1, result: 'Task "write tests": in progress', error: "" }),
    ];
    expect(events.filter((event) => event.type.startsWith("TEXT_MESSAGE"))).toEqual([]);
    expect(events.find((event) => event.type === EventType.TOOL_CALL_START)).toMatchObject({ toolCallId: "call-7", toolCallName: "manage_task" });
    expect(events.find((event) => event.type === EventType.TOOL_CALL_RESULT)).toMatchObject({ toolCallId: "call-7", content: 'Task "write tests": in progress' });
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages).map((message) => (message as { role: string }).role)).toEqual(["assistant", "tool", "activity"]);
  });

  it("names the call before its step shows when the hook comes first", () => {
    const subject = translator();
    const events = [
      ...subject.toolHook({ phase: "pre", toolName: "schedule", callId: "call-3", trajectoryId: "main", stepIndex: 4, arguments: { prompt: "check the build", delay_ms: 300 } }),
      ...subject.translate(taskStep(4, "active", 'Scheduling "check the build"')),
      ...subject.translate(taskStep(4, "done", 'Scheduled "check the build" in 300 ms')),
      ...subject.toolHook({ phase: "post", toolName: "schedule", callId: "call-3", trajectoryId: "main", stepIndex: 4, result: 'Scheduled "check the build" in 300 ms', error: "" }),
    ];
    expect(events.map((event) => event.type)).toEqual([
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.TOOL_CALL_RESULT,
      EventType.ACTIVITY_SNAPSHOT,
    ]);
    expect(events.at(-1)).toMatchObject({
      activityType: ACTIVITY_TYPES.schedule,
      content: { toolCallId: "call-3", prompt: "check the build", delayMs: 300, result: 'Scheduled "check the build" in 300 ms' },
    });
  });
});

describe("compaction", () => {
  it("is an activity, never assistant text, and gains the hook's summary", async () => {
    const subject = translator();
    const compaction = step({ stepIndex: 2, status: "done", source: "system", target: "user", kind: "compaction", text: "Context compaction", textDelta: "Context compaction" });
    const events = [
      ...subject.translate(step({ stepIndex: 1, text: "Working", textDelta: "Working" })),
      ...subject.translate(compaction),
      ...subject.translate(compaction),
      ...subject.compactionSummary({ trajectoryId: "main", stepIndex: 2, summary: "The user asked for a report." }),
    ];
    expect(events.map((event) => event.type)).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.ACTIVITY_SNAPSHOT,
      EventType.ACTIVITY_DELTA,
    ]);
    const view = await replayThroughClient(asRun(events));
    expect(activities(view.messages)).toEqual([expect.objectContaining({ activityType: ACTIVITY_TYPES.compaction, content: { text: "Context compaction", summary: "The user asked for a report." } })]);
    expect(view.messages.filter((message) => message.role === "assistant").map((message) => message.content)).toEqual(["Working"]);
  });

  it("is an activity whoever the harness addresses the step to (a system step to the model is no input echo here)", () => {
    const subject = translator();
    const events = subject.translate(step({ stepIndex: 4, status: "done", source: "system", target: "model", kind: "compaction", text: "Context compaction", textDelta: "Context compaction" }));
    expect(events).toEqual([expect.objectContaining({ type: EventType.ACTIVITY_SNAPSHOT, activityType: ACTIVITY_TYPES.compaction })]);
  });
});

describe("continuations", () => {
  it("says each continuation as an activity of its own, between the two answers", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ stepIndex: 1, status: "done", text: "Here is the report.", textDelta: "Here is the report." })),
      ...subject.continuation({ continuation: 1, reason: "add a summary", maxContinuations: 2 }),
      ...subject.translate(step({ stepIndex: 2, status: "done", text: "Summary added.", textDelta: "Summary added." })),
    ];
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages).map((message) => (message as { role: string }).role)).toEqual(["assistant", "activity", "assistant"]);
    expect(view.messages.filter((message) => message.role === "assistant").map((message) => message.content)).toEqual(["Here is the report.", "Summary added."]);
    expect(activities(view.messages)[0]).toMatchObject({ activityType: ACTIVITY_TYPES.continuation, content: { continuation: 1, reason: "add a summary", maxContinuations: 2 } });
  });
});

describe("command output", () => {
  const command = (status: "active" | "done", output?: string) =>
    toolStep({
      stepIndex: 3,
      status,
      call: {
        name: "run_command",
        actionField: "runCommand",
        arguments: { commandLine: "make test", workingDir: "/w" },
        ...(output === undefined ? {} : { result: status === "done" ? { exitCode: 0, combinedOutput: output } : { combinedOutput: output } }),
      },
    });

  it("streams while the command runs, appending chunks, and ends with its exit code", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(command("active")),
      ...subject.translate(command("active", "one\n")),
      ...subject.translate(command("active", "one\n")),
      ...subject.translate(command("active", "one\ntwo\n")),
      ...subject.translate(command("done", "one\ntwo\n")),
    ];
    const activity = events.filter((event) => event.type === EventType.ACTIVITY_SNAPSHOT || event.type === EventType.ACTIVITY_DELTA);
    expect(activity.map((event) => event.type)).toEqual([EventType.ACTIVITY_SNAPSHOT, EventType.ACTIVITY_DELTA, EventType.ACTIVITY_DELTA]);
    expect(activity[1]).toMatchObject({ patch: [{ op: "add", path: "/chunks/1", value: "two\n" }] });
    // The output streams before the call's result.
    expect(events.findIndex((event) => event.type === EventType.ACTIVITY_SNAPSHOT)).toBeLessThan(events.findIndex((event) => event.type === EventType.TOOL_CALL_RESULT));
    const view = await replayThroughClient(asRun(events));
    const card = events.find((event) => event.type === EventType.TOOL_CALL_START) as unknown as { toolCallId: string };
    expect(activities(view.messages)[0]).toMatchObject({
      activityType: ACTIVITY_TYPES.commandOutput,
      content: { toolCallId: card.toolCallId, toolName: "run_command", command: "make test", chunks: ["one\n", "two\n"], running: false, exitCode: 0 },
    });
  });

  it("shows nothing extra for a command that reports its output only at the end", () => {
    const subject = translator();
    const events = [...subject.translate(command("active")), ...subject.translate(command("done", "all at once\n"))];
    expect(events.some((event) => event.type.startsWith("ACTIVITY"))).toBe(false);
  });
});

describe("one id for a call and its approval", () => {
  it("gives the card the approval's id when the approval came first, and the card's id when the card came first", () => {
    const subject = translator();
    expect(subject.callIdForStep({ trajectoryId: "main", stepIndex: 5, toolCallId: "call-approve" })).toBe("call-approve");
    const first = subject.translate(toolStep({ stepIndex: 5 }));
    expect(first.find((event) => event.type === EventType.TOOL_CALL_START)).toMatchObject({ toolCallId: "call-approve" });

    const second = subject.translate(toolStep({ stepIndex: 6 }));
    const cardId = (second.find((event) => event.type === EventType.TOOL_CALL_START) as { toolCallId: string }).toolCallId;
    expect(subject.callIdForStep({ trajectoryId: "main", stepIndex: 6, toolCallId: "call-other" })).toBe(cardId);
  });
});

describe("named and nested subagents", () => {
  const invoke = (trajectoryId: string, stepIndex: number, status: "active" | "done", parentTrajectoryId?: string) =>
    toolStep({
      trajectoryId,
      stepIndex,
      status,
      text: "Invoking subagent",
      textDelta: "Invoking subagent",
      ...(parentTrajectoryId === undefined ? {} : { parentTrajectoryId }),
      call: { kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} },
    });
  const said = (trajectoryId: string, parentTrajectoryId: string, text: string) =>
    step({ trajectoryId, parentTrajectoryId, stepIndex: 0, status: "done", text, textDelta: text });

  it("names each subagent from its pre-tool hook, describes a custom one, and nests by parentTrajectoryId with its depth", async () => {
    const subject = translator({ subagents: [{ name: "outer", description: "Does the outer work" }] });
    const events = [
      ...subject.toolHook({ phase: "pre", toolName: "invoke_subagent", callId: "c1", trajectoryId: "main", stepIndex: 1, arguments: { name: "outer" } }),
      ...subject.translate(invoke("main", 1, "active")),
      ...subject.toolHook({ phase: "pre", toolName: "invoke_subagent", callId: "c2", trajectoryId: "sub-outer", stepIndex: 0, arguments: { name: "inner" } }),
      ...subject.translate(invoke("sub-outer", 0, "active", "main")),
      ...subject.translate(said("sub-inner", "sub-outer", "inner done")),
      ...subject.finishSubagent({ trajectoryId: "sub-inner" }),
      ...subject.translate(invoke("sub-outer", 0, "done", "main")),
      ...subject.finishSubagent({ trajectoryId: "sub-outer" }),
      ...subject.translate(invoke("main", 1, "done")),
    ];
    const started = events.filter((event) => event.type === EventType.SUBAGENT_STARTED) as unknown as Array<Record<string, unknown>>;
    expect(started).toEqual([
      expect.objectContaining({ name: "outer", description: "Does the outer work", parentToolCallId: "c1", metadata: { antigravity: { depth: 1 } } }),
      expect.objectContaining({ name: "inner", parentToolCallId: "c2", parentSubagentRunId: started[0]?.["subagentRunId"], metadata: { antigravity: { depth: 2 } } }),
    ]);
    const view = await replayThroughClient(asRun(events));
    expect(view.messages.find((message) => message.role === "assistant" && message.content === "inner done")?.subagentRunId).toBe(started[1]?.["subagentRunId"]);
  });

  it("links each nested subagent to its own parent's call while subagents of different parents run at once", () => {
    const unmatched: unknown[] = [];
    const subject = translator({ onUnmatchedSubagent: (report) => void unmatched.push(report) });
    const events = [
      ...subject.translate(invoke("main", 1, "active")),
      // The main agent's subagent runs, and starts one of its own while the first is still waiting.
      ...subject.translate(invoke("sub-a", 0, "active", "main")),
      ...subject.translate(invoke("main", 2, "active")),
      ...subject.translate(said("sub-a-child", "sub-a", "child of a")),
    ];
    const started = events.filter((event) => event.type === EventType.SUBAGENT_STARTED) as unknown as Array<Record<string, unknown>>;
    const childRun = started.find((event) => event["parentSubagentRunId"] !== undefined);
    expect(childRun).toMatchObject({ parentToolCallId: expect.any(String), metadata: { antigravity: { depth: 2 } } });
    expect(unmatched).toEqual([]);
  });
});

describe("usage by modality", () => {
  it("splits each run's tokens by modality where the harness reports them", () => {
    const subject = translator();
    subject.recordUsage({
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: "80" },
        { modality: "IMAGE", tokenCount: 20 },
      ],
      candidatesTokensDetails: [{ modality: "MODALITY_TEXT", tokenCount: 20 }],
    });
    expect(subject.settleRun()).toEqual({ usage: [{ inputTokens: 100, outputTokens: 20, totalTokens: 120 }], byModality: { input: { TEXT: 80, IMAGE: 20 }, output: { TEXT: 20 } } });
    subject.recordUsage({
      promptTokenCount: 150,
      candidatesTokenCount: 30,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: 130 },
        { modality: "IMAGE", tokenCount: 20 },
        { modality: "__proto__", tokenCount: 5 },
      ],
      candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 30 }],
    });
    expect(subject.settleRun()).toEqual({ usage: [{ inputTokens: 50, outputTokens: 10, totalTokens: 60 }], byModality: { input: { TEXT: 50 }, output: { TEXT: 10 } } });
    expect(subject.settleRun()).toEqual({ usage: [] });
  });
});
