// What the harness learned after 0.1.10, end to end: @ag-ui/client's HttpAgent (whose verifier
// checks every event) against the demo server on the emulator's newest release.
import { AntigravityHttpAgent } from "@ag-ui-antigravity/express/client";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import type { ActivityMessage, BaseEvent, HttpAgent, Message } from "@ag-ui/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, userMessage } from "./support/agent-runs.js";
import { startDemoServer, type RunningDemoServer } from "./support/demo-server.js";

let server: RunningDemoServer;

beforeAll(async () => {
  server = await startDemoServer();
});

afterAll(async () => {
  await server?.close();
  await expectNoChildProcesses();
});

type AnyEvent = BaseEvent & Record<string, any>;

/** One run, whatever its end (runAgent rejects on RUN_ERROR once its events went by). */
async function send(agent: HttpAgent, text: string): Promise<AnyEvent[]> {
  agent.addMessage(userMessage(text));
  const events: AnyEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event as AnyEvent) }).catch(() => undefined);
  return events;
}

const ofType = (events: readonly AnyEvent[], type: string): AnyEvent[] => events.filter((event) => event.type === type);
const activities = (messages: readonly Message[], activityType: string): ActivityMessage[] =>
  messages.filter((message): message is ActivityMessage => message.role === "activity" && message.activityType === activityType);
const answers = (messages: readonly Message[]): string[] => messages.flatMap((message) => (message.role === "assistant" && typeof message.content === "string" && message.content !== "" ? [message.content] : []));
const resultOf = (events: readonly AnyEvent[], toolCallName: string): { call: AnyEvent | undefined; result: string | undefined } => {
  const call = ofType(events, "TOOL_CALL_START").find((event) => event["toolCallName"] === toolCallName);
  return { call, result: ofType(events, "TOOL_CALL_RESULT").find((event) => event["toolCallId"] === call?.["toolCallId"])?.["content"] };
};

describe("autonomous_work over HTTP", () => {
  it("keeps one live task list per run: a snapshot, then deltas, and each manage_task call as a card", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Plan the release");
    const taskEvents = events.filter((event) => (event.type === "ACTIVITY_SNAPSHOT" || event.type === "ACTIVITY_DELTA") && event["activityType"] === "antigravity.tasks");
    expect(taskEvents.map((event) => event.type)).toEqual(["ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "ACTIVITY_DELTA"]);
    expect(activities(agent.messages, "antigravity.tasks").map((message) => message.content)).toEqual([
      {
        tasks: [
          { id: "task-1", title: "Write the changelog", status: "done" },
          { id: "task-2", title: "Run the tests", status: "in progress" },
          { id: "task-3", title: "Check on the release", status: "pending" },
        ],
      },
    ]);
    expect(ofType(events, "TOOL_CALL_START").filter((event) => event["toolCallName"] === "manage_task")).toHaveLength(3);
    // The calls' texts are cards, not the assistant's words.
    expect(answers(agent.messages)).toEqual(["I planned the release in three tasks; the list shows where each stands."]);
  });

  it("schedules a turn the harness starts itself: it reaches a page connected with stayOpen, and the thread's transcript", async () => {
    const threadId = `thread-${randomUUID()}`;
    const agent = new AntigravityHttpAgent({ url: `${server.url}/autonomous_work`, threadId });
    const events = await send(agent, "Remind me to check on the release");
    expect(ofType(events, "ACTIVITY_SNAPSHOT").find((event) => event["activityType"] === "antigravity.schedule")?.["content"]).toMatchObject({ prompt: "check on the release", delayMs: 1500 });

    // Followed live, or (had it come due before the page connected) in the connect's snapshot. The
    // demo has no authorize: a page connects by showing the thread's transcript (its newest user message).
    const follower = new AntigravityHttpAgent({ url: `${server.url}/autonomous_work`, threadId, initialMessages: [...agent.messages] });
    let sawReminder = false;
    const following = follower.connectAgent(
      { forwardedProps: { stayOpen: true } },
      {
        onMessagesChanged: ({ messages }) => {
          if (answers(messages).some((answer) => answer.startsWith("Reminder, as you asked"))) sawReminder = true;
        },
        onRunFinishedEvent: () => {
          if (sawReminder) follower.abortRun();
        },
      },
    );
    await following.catch(() => undefined);
    expect(answers(follower.messages).at(-1)).toBe("Reminder, as you asked: check on the release. I checked: the release is on track.");
    // The harness-started turn's own manage_task call reached the page as its task list.
    expect(activities(follower.messages, "antigravity.tasks").at(-1)?.content).toEqual({ tasks: expect.arrayContaining([{ id: expect.any(String), title: "Check on the release", status: "done" }]) });

    const later = new AntigravityHttpAgent({ url: `${server.url}/autonomous_work`, threadId, initialMessages: [...agent.messages] });
    await later.connectAgent();
    expect(answers(later.messages)).toContain("Reminder, as you asked: check on the release. I checked: the release is on track.");
  });

  it("looks a skill up on a tool card", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Follow the release-checklist skill");
    const { call, result } = resultOf(events, "skill_lookup");
    expect(JSON.parse(ofType(events, "TOOL_CALL_ARGS").filter((event) => event["toolCallId"] === call?.["toolCallId"]).map((event) => event["delta"]).join(""))).toEqual({
      operation: "OPERATION_LOOKUP_SKILLS",
      requestedSkillNames: ["release-checklist"],
    });
    expect(result).toContain("release-checklist");
  });

  it("a STOP hook continuation: one run, two answers, the continuation shown between them", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Write a report on the release");
    expect(ofType(events, "RUN_STARTED")).toHaveLength(1);
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");
    expect(answers(agent.messages)).toEqual([
      "Here is the report: the changelog is written, the tests are running, and the release check is scheduled.",
      "Summary: three tasks planned, one reminder set, nothing blocked.",
    ]);
    expect(agent.messages.slice(-3).map((message) => message.role)).toEqual(["assistant", "activity", "assistant"]);
    expect(activities(agent.messages, "antigravity.continuation")[0]?.content).toEqual({ continuation: 1, reason: "add a one-line summary to the report", maxContinuations: 2 });
  });

  it("shows a compaction as an activity with its summary, never as assistant text", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    await send(agent, "Please compact our conversation");
    expect(activities(agent.messages, "antigravity.compaction").map((message) => message.content)).toEqual([
      { text: "Context compaction", summary: "The user is preparing a release: changelog written, tests running, a reminder set." },
    ]);
    expect(answers(agent.messages)).toEqual(["I compacted our conversation and kept a summary of it."]);
  });

  it("names nested subagents, describes them, and places each under its parent", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Research the release notes");
    const started = ofType(events, "SUBAGENT_STARTED");
    expect(started.map((event) => [event["name"], event["description"], event["metadata"]?.antigravity?.depth])).toEqual([
      ["researcher", "Looks things up for the main agent", 1],
      ["checker", "Checks what the researcher found", 2],
    ]);
    expect(started[1]?.["parentSubagentRunId"]).toBe(started[0]?.["subagentRunId"]);
    expect(answers(agent.messages).at(-1)).toBe("My researcher reported back: The checker says: The release notes match the merged changes.");
  });

  it("streams a command's output while it runs, and shows a workflow with its script and output", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const command = await send(agent, "Run the tests");
    const output = command.filter((event) => event["activityType"] === "antigravity.command_output");
    expect(output[0]).toMatchObject({ type: "ACTIVITY_SNAPSHOT", content: { toolName: "run_command", running: true, chunks: [expect.stringContaining("running 3 tests")] } });
    const { call, result } = resultOf(command, "run_command");
    expect(command.indexOf(output[0]!)).toBeLessThan(command.findIndex((event) => event.type === "TOOL_CALL_RESULT" && event["toolCallId"] === call?.["toolCallId"]));
    expect(activities(agent.messages, "antigravity.command_output")[0]?.content).toMatchObject({ running: false, exitCode: 0 });
    expect((activities(agent.messages, "antigravity.command_output")[0]?.content as { chunks: string[] }).chunks.join("")).toBe(JSON.parse(result ?? "{}").combinedOutput);

    const workflow = await send(agent, "Run the build workflow");
    const card = agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((toolCall) => toolCall.function.name === "run_workflow");
    expect(JSON.parse(card!.function.arguments)).toMatchObject({ description: "build the release", script: expect.stringContaining("built release 1.2.0") });
    expect(resultOf(workflow, "run_workflow").result).toBe("compiling\npackaging\nbuilt release 1.2.0\n");
  });

  it("a budget stop keeps the partial answer and ends with BUDGET_EXCEEDED naming the limit; the quota with QUOTA_EXHAUSTED", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Take on the big job");
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "BUDGET_EXCEEDED", message: expect.stringContaining("its budget of tool calls ran out") });
    expect(answers(agent.messages)).toContain("Starting the big job: I will list the workspace again and again.");
    expect(answers(agent.messages)).not.toContain("The big job is done.");

    const quota = clientFor(server.url, "autonomous_work");
    const spent = await send(quota, "Use up the quota");
    expect(spent.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "QUOTA_EXHAUSTED", message: expect.stringContaining("Try again") });
    expect(answers(quota.messages)).toEqual(["Working on it."]);
  });

  it("reports the run's tokens by modality, and /capabilities advertises what the agent and the binding serve", async () => {
    const agent = clientFor(server.url, "autonomous_work");
    const events = await send(agent, "Hello! What can you do?");
    const finished = events.at(-1);
    expect(finished?.["metadata"]?.antigravity?.usageByModality?.output?.TEXT).toBeGreaterThan(0);
    const capabilities = (await (await fetch(`${server.url}/autonomous_work/capabilities`)).json()) as Record<string, any>;
    expect(capabilities["transport"]).toEqual({ streaming: true, resumable: true, httpBinary: true });
    expect(capabilities["multimodal"].input).toMatchObject({ audio: true, video: true });
    expect(capabilities["execution"]).toEqual({ codeExecution: true, sandboxed: false });
    expect(capabilities["custom"].antigravity).toMatchObject({ harnessVersion: "0.1.21", sandbox: { available: false }, activityTypes: expect.arrayContaining(["antigravity.tasks"]) });
  });
});
