import { type BaseEvent, EventType } from "@ag-ui/core";
import { afterEach, describe, expect, it } from "vitest";
import { asRun, replayThroughClient, summarize } from "../../test/support/agui-client.js";
import { RecordingTranslator } from "../../test/support/recording-translator.js";
import { step, toolStep } from "../../test/support/steps.js";
import { TranslatorError } from "../errors/translator-error.js";
import { sequentialIds } from "../ids/id-generator.js";
import { StepTranslator } from "./step-translator.js";
import type { StepTranslatorOptions } from "./translator-options.js";

const created: RecordingTranslator[] = [];

function translator(options: StepTranslatorOptions = {}): StepTranslator {
  const subject = new RecordingTranslator({ ids: sequentialIds(), ...options });
  created.push(subject);
  return subject;
}

// Whatever a test checks, every sequence it made a translator emit must pass the client's
// verifier and apply cleanly with its reducer.
afterEach(async () => {
  for (const subject of created.splice(0)) {
    const view = await replayThroughClient(subject.recordedStream());
    expect(view.warnings).toEqual([]);
  }
});

const types = (events: readonly BaseEvent[]) => events.map((event) => event.type);

describe("text", () => {
  it("streams one bookended message per step, carrying deltas only", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ text: "Hel", textDelta: "Hel" })),
      ...subject.translate(step({ text: "Hello", textDelta: "lo" })),
      ...subject.translate(step({ text: "Hello world", textDelta: " world", status: "done" })),
    ];
    expect(events).toEqual([
      { type: EventType.TEXT_MESSAGE_START, messageId: "id-1", role: "assistant" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "id-1", delta: "Hel" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "id-1", delta: "lo" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "id-1", delta: " world" },
      { type: EventType.TEXT_MESSAGE_END, messageId: "id-1" },
    ]);
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([{ role: "assistant", content: "Hello world" }]);
    expect(view.warnings).toEqual([]);
  });

  it("never emits an empty delta, and a re-delivered or stale step adds nothing", () => {
    const subject = translator();
    subject.translate(step({ text: "Hello", textDelta: "Hello" }));
    expect(subject.translate(step({ text: "Hello", textDelta: "Hello" }))).toEqual([]);
    expect(subject.translate(step({ text: "Hel", textDelta: "" }))).toEqual([]);
    expect(subject.translate(step({ text: "Hello", textDelta: "" }))).toEqual([]);
  });

  it("never translates the echo of an automated trigger's message (system to model) as assistant text", () => {
    const subject = new StepTranslator();
    expect(subject.translate(step({ source: "system", target: "model", text: "Scheduled reminder", status: "done" }))).toEqual([]);
    expect(subject.translate(step({ source: "system", target: "user", text: "Context compaction", status: "done" })).length).toBeGreaterThan(0);
  });

  it("never translates the harness's echo of the user's prompt", () => {
    const subject = translator();
    expect(subject.translate(step({ source: "user", text: "hello", status: "done" }))).toEqual([]);
  });

  it("does not translate an error step and leaves an open message undisturbed", async () => {
    const subject = translator();
    const events = subject.translate(step({ text: "partial" }));
    const error = step({ stepIndex: 1, kind: "error", status: "error", source: "system", error: { message: "Resource exhausted", httpCode: 429 } });
    expect(subject.translate(error)).toEqual([]);
    events.push(...subject.translate(step({ text: "partial answer", textDelta: " answer", status: "done" })));
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([{ role: "assistant", content: "partial answer" }]);
  });

  it("closes the open message before text of another step starts", async () => {
    const subject = translator();
    const events = [...subject.translate(step({ stepIndex: 1, text: "First." })), ...subject.translate(step({ stepIndex: 2, text: "Second." }))];
    expect(types(events)).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
    ]);
    events.push(...subject.closeRun());
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "First." },
      { role: "assistant", content: "Second." },
    ]);
  });

  it("never reopens a message closed at a run boundary: later text starts a new message", async () => {
    const subject = translator();
    const first = [...subject.translate(step({ text: "Before" })), ...subject.closeRun()];
    const second = [...subject.translate(step({ text: "Before the break", textDelta: " the break", status: "done" })), ...subject.closeRun()];
    expect(second[0]).toEqual({ type: EventType.TEXT_MESSAGE_START, messageId: "id-2", role: "assistant" });
    expect(second[1]).toEqual({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "id-2", delta: " the break" });
    const view = await replayThroughClient([...asRun(first, "run-1"), ...asRun(second, "run-2")]);
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "Before" },
      { role: "assistant", content: " the break" },
    ]);
  });

  it("keys steps by trajectory and index, so equal indices of two trajectories never collide", () => {
    const subject = translator();
    subject.translate(step({ stepIndex: 3, text: "main", status: "done" }));
    const sub = subject.translate(step({ trajectoryId: "sub", stepIndex: 3, text: "sub", status: "done" }));
    expect(sub.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)).toHaveLength(1);
  });
});

describe("thinking", () => {
  it("is a balanced REASONING span with one id, which the client shows", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ thinking: "Let me ", thinkingDelta: "Let me " })),
      ...subject.translate(step({ thinking: "Let me think.", thinkingDelta: "think." })),
      ...subject.translate(step({ thinking: "Let me think.", thinkingDelta: "", text: "Answer.", textDelta: "Answer.", status: "done" })),
    ];
    expect(events).toEqual([
      { type: EventType.REASONING_START, messageId: "id-1" },
      { type: EventType.REASONING_MESSAGE_START, messageId: "id-1", role: "reasoning" },
      { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "id-1", delta: "Let me " },
      { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "id-1", delta: "think." },
      { type: EventType.REASONING_MESSAGE_END, messageId: "id-1" },
      { type: EventType.REASONING_END, messageId: "id-1" },
      { type: EventType.TEXT_MESSAGE_START, messageId: "id-2", role: "assistant" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "id-2", delta: "Answer." },
      { type: EventType.TEXT_MESSAGE_END, messageId: "id-2" },
    ]);
    expect(events.some((event) => event.type.startsWith("THINKING"))).toBe(false);
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "reasoning", content: "Let me think." },
      { role: "assistant", content: "Answer." },
    ]);
  });

  it("closes the open text before thinking, and text after it gets a fresh message id", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ text: "One." })),
      ...subject.translate(step({ text: "One.", textDelta: "", thinking: "Hmm.", thinkingDelta: "Hmm." })),
      ...subject.translate(step({ text: "One. Two.", textDelta: " Two.", thinking: "Hmm.", thinkingDelta: "", status: "done" })),
    ];
    const starts = events.filter((event) => event.type === EventType.TEXT_MESSAGE_START).map((event) => event["messageId"]);
    expect(new Set(starts).size).toBe(2);
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "One." },
      { role: "reasoning", content: "Hmm." },
      { role: "assistant", content: " Two." },
    ]);
  });
});

describe("built-in and MCP tool calls", () => {
  it("starts the call inside the open assistant message and adds the result keys at DONE", async () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ stepIndex: 1, text: "Let me look.", status: "done" })),
      ...subject.translate(toolStep({ stepIndex: 2, status: "waiting" })),
      ...subject.translate(toolStep({ stepIndex: 2, status: "done", call: { result: { results: [{ name: "a.txt" }] } } })),
    ];
    const start = events.find((event) => event.type === EventType.TOOL_CALL_START);
    expect(start).toEqual({ type: EventType.TOOL_CALL_START, toolCallId: "id-2", toolCallName: "list_directory", parentMessageId: "id-1" });
    const args = events.filter((event) => event.type === EventType.TOOL_CALL_ARGS).map((event) => event["delta"] as string);
    expect(args.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(args.join(""))).toEqual({ directoryPath: "/tmp" });
    expect(events.at(-1)).toEqual({ type: EventType.TOOL_CALL_RESULT, messageId: "id-3", toolCallId: "id-2", content: '[{"name":"a.txt"}]', role: "tool" });
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "Let me look.", toolCalls: [{ name: "list_directory", arguments: { directoryPath: "/tmp" } }] },
      { role: "tool", content: '[{"name":"a.txt"}]', toolCallId: "id-2" },
    ]);
  });

  it("creates the assistant message when no text came before the call", async () => {
    const subject = translator();
    const events = subject.translate(toolStep({ status: "done", call: { kind: "mcp", name: "git_status", actionField: "mcpTool", serverName: "git", arguments: {} } }));
    expect(events[0]).toEqual({
      type: EventType.TOOL_CALL_START,
      toolCallId: "id-1",
      toolCallName: "git_status",
      parentMessageId: "id-2",
      rawEvent: { mcpTool: { serverName: "git", toolName: "git_status" } },
    });
    expect(events.filter((event) => event.type === EventType.TOOL_CALL_ARGS).map((event) => event["delta"])).toEqual(["{}"]);
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", toolCalls: [{ name: "git_status", arguments: {} }] },
      { role: "tool", content: "`git_status` completed without returning any output.", toolCallId: "id-1" },
    ]);
  });

  it("names the MCP server on the call and reports the step's text as an MCP tool's result", async () => {
    const subject = translator();
    const call = { kind: "mcp" as const, name: "add_numbers", actionField: "mcpTool", serverName: "calc", arguments: { a: 2, b: 40 } };
    const events = [...subject.translate(toolStep({ status: "active", call })), ...subject.translate(toolStep({ status: "done", text: "2 + 40 = 42", call }))];
    expect(events.find((event) => event.type === EventType.TOOL_CALL_START)?.["rawEvent"]).toEqual({ mcpTool: { serverName: "calc", toolName: "add_numbers" } });
    expect(events.at(-1)).toMatchObject({ type: EventType.TOOL_CALL_RESULT, content: "2 + 40 = 42" });
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", toolCalls: [{ name: "add_numbers", arguments: { a: 2, b: 40 } }] },
      { role: "tool", content: "2 + 40 = 42", toolCallId: "id-1" },
    ]);
  });

  it("keeps a result out of the arguments when the call is first seen already DONE", () => {
    const subject = translator();
    // The harness normalizer separates inputs from results; the translator also guards on its own
    // when a producer reports grown arguments without a result.
    const events = subject.translate(toolStep({ status: "done", call: { arguments: { directoryPath: "/tmp" }, result: { results: [] } } }));
    const args = events.filter((event) => event.type === EventType.TOOL_CALL_ARGS).map((event) => event["delta"] as string);
    expect(JSON.parse(args.join(""))).toEqual({ directoryPath: "/tmp" });
    const grown = translator();
    grown.translate(toolStep({ status: "active", call: { name: "find_file", arguments: { query: "x" } } }));
    const done = grown.translate(toolStep({ status: "done", call: { name: "find_file", arguments: { query: "x", output: "/tmp/x" } } }));
    expect(done).toEqual([{ type: EventType.TOOL_CALL_RESULT, messageId: "id-3", toolCallId: "id-1", content: "/tmp/x", role: "tool" }]);
  });

  it.each([
    ["an exit code", { exitCode: 2, combinedOutput: "boom" }, "There was an error executing `run_command`: exit code 2\nboom"],
    ["an error field", { error: "denied" }, "There was an error executing `run_command`: denied"],
    ["stderr with exit code 0 (not a failure)", { exitCode: 0, stderr: "warning: deprecated" }, '{"exitCode":0,"stderr":"warning: deprecated"}'],
    ["no output at all", { combinedOutput: "" }, "`run_command` completed without returning any output."],
  ])("states %s in words", (_label, result, content) => {
    const subject = translator();
    subject.translate(toolStep({ call: { name: "run_command", arguments: { commandLine: "make" } } }));
    const events = subject.translate(toolStep({ status: "done", call: { name: "run_command", arguments: { commandLine: "make" }, result } }));
    expect(events).toEqual([{ type: EventType.TOOL_CALL_RESULT, messageId: "id-3", toolCallId: "id-1", content, role: "tool" }]);
  });

  it("settles a started call that ends in an ERROR step with the failure, and ignores a call first seen failing", () => {
    const subject = translator();
    subject.translate(toolStep({ status: "waiting" }));
    const failed = subject.translate(toolStep({ status: "error", kind: "error", error: { message: "Permission denied" } }));
    expect(failed).toEqual([
      { type: EventType.TOOL_CALL_RESULT, messageId: "id-3", toolCallId: "id-1", content: "There was an error executing `list_directory`: Permission denied", role: "tool" },
    ]);
    expect(subject.translate(toolStep({ stepIndex: 9, status: "error", kind: "error", error: { message: "x" } }))).toEqual([]);
  });

  it("closes open reasoning before a call and keeps the announcing text open", () => {
    const subject = translator();
    const events = [
      ...subject.translate(step({ stepIndex: 1, text: "Checking." })),
      ...subject.translate(step({ stepIndex: 2, thinking: "Which dir?" })),
      ...subject.translate(toolStep({ stepIndex: 3 })),
    ];
    expect(types(events)).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.REASONING_START,
      EventType.REASONING_MESSAGE_START,
      EventType.REASONING_MESSAGE_CONTENT,
      EventType.REASONING_MESSAGE_END,
      EventType.REASONING_END,
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
    ]);
  });

  it("never emits a call twice, even when the harness re-delivers it in a later run", async () => {
    const subject = translator();
    const first = [...subject.translate(toolStep({ status: "waiting" })), ...subject.closeRun()];
    const second = [
      ...subject.translate(toolStep({ status: "waiting" })),
      ...subject.translate(toolStep({ status: "done", call: { result: { results: [] } } })),
      ...subject.translate(toolStep({ status: "done", call: { result: { results: [] } } })),
      ...subject.closeRun(),
    ];
    expect(types(second)).toEqual([EventType.TOOL_CALL_RESULT]);
    const view = await replayThroughClient([...asRun(first, "run-1"), ...asRun(second, "run-2")]);
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", toolCalls: [{ name: "list_directory", arguments: { directoryPath: "/tmp" } }] },
      { role: "tool", content: "`list_directory` completed without returning any output.", toolCallId: "id-1" },
    ]);
  });

  it("hides built-in calls on request but still shows MCP calls", () => {
    const subject = translator({ builtinToolCalls: "hide" });
    expect(subject.translate(toolStep({ status: "done" }))).toEqual([]);
    const mcp = subject.translate(toolStep({ stepIndex: 1, call: { kind: "mcp", name: "search", actionField: "mcpTool", arguments: {} } }));
    expect(types(mcp)).toContain(EventType.TOOL_CALL_START);
  });
});

describe("host-side tool calls", () => {
  it("starts inside the current assistant message and delivers the result in a later run", async () => {
    const subject = translator();
    const first = [
      ...subject.translate(step({ text: "I'll ask the browser." })),
      ...subject.toolCall({ toolCallId: "call-7", toolCallName: "change_background", arguments: { color: "blue" } }),
      ...subject.closeRun(),
    ];
    expect(first.find((event) => event.type === EventType.TOOL_CALL_START)).toEqual({
      type: EventType.TOOL_CALL_START,
      toolCallId: "call-7",
      toolCallName: "change_background",
      parentMessageId: "id-1",
    });
    const second = subject.toolCallResult({ toolCallId: "call-7", output: { ok: true } });
    expect(second).toEqual([{ type: EventType.TOOL_CALL_RESULT, messageId: "id-2", toolCallId: "call-7", content: '{"ok":true}', role: "tool" }]);
    expect(subject.toolCallResult({ toolCallId: "call-7", output: "again" })).toEqual([]);
    const view = await replayThroughClient([...asRun(first, "run-1"), ...asRun(second, "run-2")]);
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "I'll ask the browser.", toolCalls: [{ name: "change_background", arguments: { color: "blue" } }] },
      { role: "tool", content: '{"ok":true}', toolCallId: "call-7" },
    ]);
  });

  it("does not emit a call twice, nor the harness's mirror step of it", () => {
    const subject = translator();
    subject.toolCall({ toolCallId: "call-1", toolCallName: "get_weather", arguments: { city: "SF" } });
    expect(subject.toolCall({ toolCallId: "call-1", toolCallName: "get_weather", arguments: { city: "SF" } })).toEqual([]);
    const mirror = toolStep({ status: "done", call: { kind: "custom", name: "get_weather", actionField: "customTool", callId: "call-1", arguments: { city: "SF" }, result: { result: "sunny" } } });
    expect(subject.translate(mirror)).toEqual([]);
  });

  it("shares the main agent's assistant message between host calls and harness calls", () => {
    const subject = translator();
    const host = subject.toolCall({ toolCallId: "call-1", toolCallName: "confirm", arguments: {}, trajectoryId: "not-seen-yet" });
    const harness = subject.translate(toolStep({ stepIndex: 4 }));
    expect(host[0]).toMatchObject({ type: EventType.TOOL_CALL_START, parentMessageId: "id-1" });
    expect(harness[0]).toMatchObject({ type: EventType.TOOL_CALL_START, parentMessageId: "id-1" });
  });

  it("attributes a host call to the subagent whose trajectory made it", () => {
    const subject = translator();
    subject.translate(step({ trajectoryId: "sub", text: "Let me ask." }));
    const events = subject.toolCall({ toolCallId: "call-9", toolCallName: "ask_user", arguments: { question: "Go?" }, trajectoryId: "sub" });
    expect(events[0]).toEqual({ type: EventType.TOOL_CALL_START, toolCallId: "call-9", toolCallName: "ask_user", parentMessageId: "id-2", subagentRunId: "id-1" });
  });

  it("states a host tool failure in words", () => {
    const subject = translator();
    subject.toolCall({ toolCallId: "call-1", toolCallName: "failing_tool", arguments: {} });
    expect(subject.toolCallResult({ toolCallId: "call-1", errorMessage: "Intentional failure" })[0]).toMatchObject({
      content: "There was an error executing `failing_tool`: Intentional failure",
    });
  });

  it("closes a refused call once, by id or by its tool's one open call, whatever the harness reports of it afterwards", () => {
    const subject = translator();
    subject.toolCall({ toolCallId: "call-1", toolCallName: "write_note", arguments: {} });
    expect(subject.refuseCall({ toolCallId: "call-1", toolName: "write_note", reason: "not today" })).toMatchObject([
      { type: EventType.TOOL_CALL_RESULT, toolCallId: "call-1", content: "Not run: not today" },
    ]);
    expect(subject.refuseCall({ toolCallId: "call-1", toolName: "write_note", reason: "again" })).toEqual([]);
    // A built-in's card carries the step's identity, not the hook's call id: its one open call of that tool is the one.
    subject.translate(toolStep({ status: "active" }));
    expect(subject.refuseCall({ toolCallId: "hook-call-9", toolName: "list_directory", reason: "" })).toMatchObject([
      { type: EventType.TOOL_CALL_RESULT, content: "Not run: the call was refused." },
    ]);
    // The harness's later report of the refused call, an error step or a DONE one, adds nothing.
    expect(subject.translate(toolStep({ status: "error", kind: "error", error: { message: "Permission denied" } }))).toEqual([]);
    // No card for that tool was shown: nothing to close.
    expect(subject.refuseCall({ toolCallId: "call-2", toolName: "view_file", reason: "no" })).toEqual([]);
  });

  it("at a turn's end, closes the harness calls it never reported an end for, and leaves host calls to the host", () => {
    const subject = translator();
    subject.translate(toolStep({ stepIndex: 1, status: "active" }));
    subject.translate(toolStep({ stepIndex: 2, status: "active", call: { name: "view_file", actionField: "viewFile" } }));
    subject.translate(toolStep({ stepIndex: 2, status: "done", call: { name: "view_file", actionField: "viewFile" } }));
    subject.toolCall({ toolCallId: "host-1", toolCallName: "slow_lookup", arguments: {} });
    const closing = subject.settleUnreportedCalls();
    expect(closing).toMatchObject([{ type: EventType.TOOL_CALL_RESULT, content: "No result: the harness ended the turn without reporting how `list_directory` ended." }]);
    expect(subject.settleUnreportedCalls()).toEqual([]);
    // The host's call can still be settled by the host.
    expect(types(subject.toolCallResult({ toolCallId: "host-1", output: "late" }))).toEqual([EventType.TOOL_CALL_RESULT]);
  });

  it("does not guess which of several open calls of a tool was refused", () => {
    const subject = translator();
    subject.translate(toolStep({ stepIndex: 1, status: "active" }));
    subject.translate(toolStep({ stepIndex: 2, status: "active" }));
    expect(subject.refuseCall({ toolCallId: "hook-call-1", toolName: "list_directory", reason: "no" })).toEqual([]);
    // Each is then settled by the harness's own report.
    expect(types(subject.translate(toolStep({ stepIndex: 1, status: "error", kind: "error", error: { message: "Permission denied" } })))).toEqual([EventType.TOOL_CALL_RESULT]);
    expect(types(subject.translate(toolStep({ stepIndex: 2, status: "done" })))).toEqual([EventType.TOOL_CALL_RESULT]);
  });

  it("refuses a result for a call it never started", () => {
    const subject = translator();
    let caught: unknown;
    try {
      subject.toolCallResult({ toolCallId: "nope", output: 1 });
    } catch (error) {
      caught = error;
    }
    expect(TranslatorError.isInstance(caught) && caught.code).toBe("UNKNOWN_TOOL_CALL");
  });
});

describe("subagents", () => {
  const invoke = (status: "active" | "done" | "error") =>
    toolStep({ stepIndex: 1, status, text: "Invoking subagent", call: { kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} } });

  it("brackets the subagent with SUBAGENT_* and attributes its interleaved events to it", async () => {
    const subject = translator();
    const events: BaseEvent[] = [
      ...subject.translate(invoke("active")),
      ...subject.translate(step({ trajectoryId: "sub", stepIndex: 1, text: "Sub thinking out loud" })),
      ...subject.translate(step({ stepIndex: 2, thinking: "Waiting on the subagent." })),
      ...subject.translate(toolStep({ trajectoryId: "sub", stepIndex: 2, status: "done", call: { result: { results: [] } } })),
      ...subject.translate(step({ trajectoryId: "sub", stepIndex: 3, text: "The answer is 42.", status: "done" })),
      ...subject.translate(invoke("done")),
    ];
    events.push(...subject.closeRun());
    const started = events.find((event) => event.type === EventType.SUBAGENT_STARTED);
    expect(started).toEqual({ type: EventType.SUBAGENT_STARTED, subagentRunId: "id-3", name: "subagent", metadata: { antigravity: { depth: 1 } }, parentToolCallId: "id-2", parentMessageId: "id-1" });
    const subEvents = events.filter((event) => event["subagentRunId"] === "id-3" && !event.type.startsWith("SUBAGENT"));
    expect(subEvents.length).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === EventType.SUBAGENT_FINISHED)).toEqual([
      { type: EventType.SUBAGENT_FINISHED, subagentRunId: "id-3", result: "The answer is 42." },
    ]);
    const view = await replayThroughClient(asRun(events));
    expect(view.warnings).toEqual([]);
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "Invoking subagent", toolCalls: [{ name: "invoke_subagent", arguments: {} }] },
      { role: "tool", content: "The answer is 42.", toolCallId: "id-2" },
      // The subagent's call belongs to the subagent's own message, never to the parent's.
      {
        role: "assistant",
        content: "Sub thinking out loud",
        toolCalls: [{ name: "list_directory", arguments: { directoryPath: "/tmp" } }],
        subagentRunId: "id-3",
      },
      { role: "tool", content: "`list_directory` completed without returning any output.", toolCallId: "id-6", subagentRunId: "id-3" },
      { role: "reasoning", content: "Waiting on the subagent." },
      { role: "assistant", content: "The answer is 42.", subagentRunId: "id-3" },
    ]);
  });

  it("links no trajectory when several calls wait for one, says so, and shows no answer under the wrong call", async () => {
    const unmatched: unknown[] = [];
    const subject = translator({ onUnmatchedSubagent: (report) => void unmatched.push(report) });
    const invokeAt = (stepIndex: number, status: "active" | "done") =>
      toolStep({ stepIndex, status, text: "Invoking subagent", call: { kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} } });
    const events = [
      ...subject.translate(invokeAt(1, "active")),
      ...subject.translate(invokeAt(2, "active")),
      // The second call's subagent speaks first; nothing says so.
      ...subject.translate(step({ trajectoryId: "sub-b", stepIndex: 1, text: "Beta", status: "done" })),
      ...subject.translate(step({ trajectoryId: "sub-a", stepIndex: 1, text: "Alpha", status: "done" })),
      ...subject.finishSubagent({ trajectoryId: "sub-b" }),
      ...subject.finishSubagent({ trajectoryId: "sub-a" }),
      ...subject.translate(invokeAt(1, "done")),
      ...subject.translate(invokeAt(2, "done")),
      ...subject.closeRun(),
    ];
    expect(unmatched).toHaveLength(2);
    expect(unmatched[0]).toMatchObject({ trajectoryId: "sub-b", candidateToolCallIds: [expect.any(String), expect.any(String)] });
    const results = events.filter((event) => event.type === EventType.TOOL_CALL_RESULT).map((event) => String(event["content"]));
    expect(results).toHaveLength(2);
    for (const result of results) expect(result).toContain("did not say which trajectory");
    // Each trajectory has its own subagent run, linked to no call.
    const trajectoryRuns = events.filter((event) => event.type === EventType.SUBAGENT_STARTED && event["parentToolCallId"] === undefined);
    expect(trajectoryRuns).toHaveLength(2);
  });

  it("suspends a running subagent at a run boundary and announces it again in the next run", async () => {
    const subject = translator();
    const first = [...subject.translate(invoke("active")), ...subject.translate(step({ trajectoryId: "sub", text: "working" })), ...subject.closeRun()];
    expect(first.at(-1)).toEqual({ type: EventType.SUBAGENT_FINISHED, subagentRunId: "id-3", outcome: { type: "suspended" } });
    const second = [...subject.translate(step({ trajectoryId: "sub", text: "working on", status: "done" })), ...subject.translate(invoke("done")), ...subject.closeRun()];
    expect(second[0]).toMatchObject({ type: EventType.SUBAGENT_STARTED, subagentRunId: "id-3" });
    await replayThroughClient([...asRun(first, "run-1"), ...asRun(second, "run-2")]);
  });

  it("reports a failed subagent with SUBAGENT_ERROR, once", async () => {
    const subject = translator();
    const events = [...subject.translate(invoke("active")), ...subject.translate(step({ trajectoryId: "sub", text: "trying" }))];
    const failure = subject.finishSubagent({ trajectoryId: "sub", error: "Subagent failure" });
    expect(failure.at(-1)).toEqual({ type: EventType.SUBAGENT_ERROR, subagentRunId: "id-3", message: "Subagent failure" });
    expect(subject.finishSubagent({ trajectoryId: "sub" })).toEqual([]);
    events.push(...failure, ...subject.translate(invoke("done")), ...subject.closeRun());
    expect(events.filter((event) => event.type.startsWith("SUBAGENT"))).toHaveLength(2);
    await replayThroughClient(asRun(events));
  });

  it("announces a subagent trajectory seen before any call spawned it", async () => {
    const subject = translator();
    const events = [...subject.translate(step({ trajectoryId: "sub", text: "early", status: "done" })), ...subject.translate(invoke("active")), ...subject.translate(invoke("done"))];
    expect(events[0]).toEqual({ type: EventType.SUBAGENT_STARTED, subagentRunId: "id-1", name: "subagent", metadata: { antigravity: { depth: 1 } } });
    expect(events.filter((event) => event.type === EventType.SUBAGENT_STARTED)).toHaveLength(1);
    events.push(...subject.closeRun());
    await replayThroughClient(asRun(events));
  });

  it("makes a subagent's structured output its answer, never the client's state", async () => {
    const subject = translator();
    const output = { verdict: "ok" };
    const events = [
      ...subject.translate(invoke("active")),
      ...subject.translate(step({ trajectoryId: "sub", stepIndex: 7, kind: "finish", status: "done", finish: { outputString: JSON.stringify(output), output } })),
      ...subject.translate(step({ trajectoryId: "sub", stepIndex: 8, text: "Done.", status: "done" })),
      ...subject.translate(invoke("done")),
    ];
    expect(events.some((event) => event.type === EventType.STATE_SNAPSHOT)).toBe(false);
    expect(events.find((event) => event.type === EventType.SUBAGENT_FINISHED)).toMatchObject({ result: output });
    expect(events.find((event) => event.type === EventType.TOOL_CALL_RESULT)).toMatchObject({ content: '{"verdict":"ok"}' });
    await replayThroughClient(asRun([...events, ...subject.closeRun()]));
  });

  it("still brackets a subagent whose built-in call card is hidden", async () => {
    const subject = translator({ builtinToolCalls: "hide" });
    const events = [...subject.translate(invoke("active")), ...subject.translate(invoke("done")), ...subject.closeRun()];
    expect(events.filter((event) => event.type.startsWith("SUBAGENT"))).toEqual([
      { type: EventType.SUBAGENT_STARTED, subagentRunId: "id-3", name: "subagent", metadata: { antigravity: { depth: 1 } } },
      { type: EventType.SUBAGENT_FINISHED, subagentRunId: "id-3" },
    ]);
    expect(events.some((event) => event.type === EventType.TOOL_CALL_START)).toBe(false);
    await replayThroughClient(asRun(events));
  });

  it("uses STEP_STARTED / STEP_FINISHED and no attribution in step mode", async () => {
    const subject = translator({ subagentEvents: "step" });
    const events = [
      ...subject.translate(invoke("active")),
      ...subject.translate(step({ trajectoryId: "sub", text: "sub text", status: "done" })),
      ...subject.translate(invoke("done")),
      ...subject.closeRun(),
    ];
    expect(types(events).filter((type) => type.startsWith("STEP") || type.startsWith("SUBAGENT"))).toEqual([EventType.STEP_STARTED, EventType.STEP_FINISHED]);
    expect(types(events).indexOf(EventType.STEP_STARTED)).toBeLessThan(types(events).indexOf(EventType.TOOL_CALL_START));
    expect(types(events).at(-1)).toBe(EventType.STEP_FINISHED);
    expect(events.some((event) => "subagentRunId" in event)).toBe(false);
    await replayThroughClient(asRun(events));
  });
});

describe("structured output", () => {
  const finish = (output: unknown, stepIndex = 5) =>
    step({ stepIndex, kind: "finish", status: "done", finish: { outputString: JSON.stringify(output), output } });

  it("is a STATE_SNAPSHOT first, then STATE_DELTA patches within the run", async () => {
    const subject = translator();
    const snapshot = subject.translate(finish({ total: 1, items: ["a"] }));
    expect(snapshot).toEqual([{ type: EventType.STATE_SNAPSHOT, snapshot: { total: 1, items: ["a"] } }]);
    expect(subject.translate(finish({ total: 1, items: ["a"] }))).toEqual([]);
    const delta = subject.translate(finish({ total: 2, items: ["a", "b"] }, 6));
    expect(delta[0]?.type).toBe(EventType.STATE_DELTA);
    const view = await replayThroughClient(asRun([...snapshot, ...delta]));
    expect(view.state).toEqual({ total: 2, items: ["a", "b"] });
    expect(view.warnings).toEqual([]);
    subject.closeRun();
    expect(subject.updateState({ total: 3 })[0]?.type).toBe(EventType.STATE_SNAPSHOT);
  });

  it("wraps a value that is not an object, and passes on output that does not parse", () => {
    expect(translator().translate(finish([1, 2]))).toEqual([{ type: EventType.STATE_SNAPSHOT, snapshot: { structured_output: [1, 2] } }]);
    const unparsable = step({ kind: "finish", status: "done", finish: { outputString: "not json" } });
    expect(translator().translate(unparsable)).toEqual([{ type: EventType.STATE_SNAPSHOT, snapshot: { structured_output: "not json" } }]);
  });

  it("merges under a key, keeping the rest of the client's state, when structuredOutputKey is set", async () => {
    const events = translator({ structuredOutputKey: "planner/v1" }).translate(finish({ total: 1 }));
    expect(events).toEqual([{ type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/planner~1v1", value: { total: 1 } }] }]);
    const view = await replayThroughClient(asRun(events), { theme: "dark" });
    expect(view.state).toEqual({ theme: "dark", "planner/v1": { total: 1 } });
    expect(() => translator({ structuredOutputKey: "" })).toThrow(/structuredOutputKey/);
    expect(() => translator({ structuredOutputKey: "__proto__" })).toThrow(/structuredOutputKey/);
  });

  it("sends state changes from every source against one base: a write after merged output keeps it", async () => {
    const merging = translator({ structuredOutputKey: "plan" });
    const events = [...merging.updateState({ theme: "dark" }), ...merging.translate(finish({ total: 1 })), ...merging.updateState({ theme: "light", plan: { total: 1 } })];
    expect(events.map((event) => event.type)).toEqual([EventType.STATE_SNAPSHOT, EventType.STATE_DELTA, EventType.STATE_DELTA]);
    expect(events[2]).toEqual({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/theme", value: "light" }] });
    const view = await replayThroughClient(asRun(events), {});
    expect(view.state).toEqual({ theme: "light", plan: { total: 1 } });
  });

  it("says a state with a key the client's patch guard refuses as a snapshot, never a delta (hostile state from a server tool)", async () => {
    const guarded = translator();
    const hostile = JSON.parse('{"theme": "dark", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const events = [...guarded.updateState({ theme: "dark" }), ...guarded.updateState(hostile), ...guarded.updateState({ theme: "dark", constructor: { prototype: { polluted: true } } })];
    expect(events.map((event) => event.type)).toEqual([EventType.STATE_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.STATE_SNAPSHOT]);
    const view = await replayThroughClient(asRun(events), {});
    expect(view.state).toEqual({ theme: "dark", constructor: { prototype: { polluted: true } } });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("is a CUSTOM event on request", () => {
    expect(translator({ structuredOutput: "custom" }).translate(finish({ a: 1 }))).toEqual([
      { type: EventType.CUSTOM, name: "antigravity.structured_output", value: { a: 1 } },
    ]);
  });
});

describe("usage", () => {
  it("reports each run's share of the harness's cumulative totals", () => {
    const subject = translator({ usage: { provider: "google", model: "gemini-test" } });
    subject.recordUsage({ promptTokenCount: "100", candidatesTokenCount: "20", thoughtsTokenCount: "5", cachedContentTokenCount: "40", totalTokenCount: "125" });
    expect(subject.settleRunUsage()).toEqual([
      { provider: "google", model: "gemini-test", inputTokens: 100, outputTokens: 25, totalTokens: 125, reasoningTokens: 5, cachedInputTokens: 40 },
    ]);
    subject.recordUsage({ promptTokenCount: "150", candidatesTokenCount: "30", thoughtsTokenCount: "5", cachedContentTokenCount: "40", totalTokenCount: "185" });
    expect(subject.settleRunUsage()).toEqual([
      { provider: "google", model: "gemini-test", inputTokens: 50, outputTokens: 10, totalTokens: 60, reasoningTokens: 0, cachedInputTokens: 0 },
    ]);
    expect(subject.settleRunUsage()).toEqual([]);
  });

  it("starts from a baseline, and survives reset()", () => {
    const subject = translator({ usage: { baseline: { promptTokenCount: 300, totalTokenCount: 400 } } });
    subject.reset();
    subject.recordUsage({ promptTokenCount: 310, totalTokenCount: 420 });
    expect(subject.settleRunUsage()).toEqual([{ inputTokens: 10, totalTokens: 20 }]);
  });
});

describe("run boundaries and turns", () => {
  it("closeRun() closes reasoning, then text, so RUN_FINISHED is valid", async () => {
    const subject = translator();
    const events = [...subject.translate(step({ stepIndex: 1, text: "Open text" })), ...subject.translate(step({ trajectoryId: "main", stepIndex: 2, thinking: "open thought" }))];
    const closing = subject.closeRun();
    expect(types(closing)).toEqual([EventType.REASONING_MESSAGE_END, EventType.REASONING_END]);
    await replayThroughClient(asRun([...events, ...closing]));
    expect(subject.closeRun()).toEqual([]);
  });

  it("startRun() forgets a run that was never closed (a client disconnect), so the next run is valid", async () => {
    const subject = translator();
    subject.translate(step({ text: "lost" }));
    subject.translate(step({ stepIndex: 1, thinking: "lost too" }));
    subject.startRun();
    const events = [...subject.translate(step({ text: "lost and found", status: "done" })), ...subject.closeRun()];
    expect(events[0]).toMatchObject({ type: EventType.TEXT_MESSAGE_START });
    await replayThroughClient(asRun(events));
  });

  it("reset() in the middle of a run never lets the next turn continue the retired turn's message", async () => {
    const subject = translator();
    const events = subject.translate(step({ text: "old turn" }));
    subject.reset();
    events.push(...subject.translate(step({ text: "new turn" })), ...subject.closeRun());
    expect(types(events)).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
    ]);
    const view = await replayThroughClient(asRun(events));
    expect(summarize(view.messages)).toEqual([
      { role: "assistant", content: "old turn" },
      { role: "assistant", content: "new turn" },
    ]);
  });

  it("reset() retires the turn, so the next turn may reuse step indices", () => {
    const subject = translator();
    subject.translate(step({ text: "first turn", status: "done" }));
    expect(subject.translate(step({ text: "first turn", status: "done" }))).toEqual([]);
    subject.reset();
    expect(types(subject.translate(step({ text: "second turn", status: "done" })))).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
    ]);
  });
});

describe("options", () => {
  it.each([
    [{ subagentEvents: "steps" }],
    [{ structuredOutput: "snapshot" }],
    [{ builtinToolCalls: "none" }],
    [{ maxArgumentDeltaLength: 1 }],
  ])("rejects %j with CONFIG_INVALID", (options) => {
    let caught: unknown;
    try {
      new StepTranslator(options as StepTranslatorOptions);
    } catch (error) {
      caught = error;
    }
    expect(TranslatorError.isInstance(caught) && caught.code).toBe("CONFIG_INVALID");
  });
});
