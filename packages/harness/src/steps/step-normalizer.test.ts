import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadFixture, wsMessages } from "../../test/support/protocol-fixtures.js";
import type { OutputEvent, StepUpdate } from "../protocol/messages.js";
import { parseOutputEvent } from "../protocol/parse.js";
import { StepNormalizer } from "./step-normalizer.js";

/** The parsed OutputEvents of a fixture's harness → client messages, by their index in the file. */
function harnessEvents(name: string): Map<number, OutputEvent> {
  return new Map(wsMessages(loadFixture(name), "harness->client").map(([index, message]) => [index, parseOutputEvent(message.json)]));
}

function stepAt(events: Map<number, OutputEvent>, index: number): StepUpdate {
  const step = events.get(index)?.stepUpdate;
  if (step === undefined) throw new Error(`no stepUpdate at message ${index}`);
  return step;
}

describe("StepNormalizer: text and thinking deltas", () => {
  const plain = harnessEvents("plain_text_turn");

  it("plain_text_turn: final answers arrive whole on first sight, with identity and mappings", () => {
    const normalizer = new StepNormalizer();
    const event = plain.get(2)!;
    const step = normalizer.normalize(stepAt(plain, 2), { mainTrajectoryId: "test_traj", event });
    expect(step).toMatchObject({
      id: "test_traj:1",
      cascadeId: "test_traj",
      trajectoryId: "test_traj",
      stepIndex: 1,
      kind: "text",
      status: "done",
      source: "model",
      target: "user",
      isMainTrajectory: true,
      text: "Final answer",
      textDelta: "Final answer",
      thinking: "",
      thinkingDelta: "",
    });
    expect(step.raw).toBe(stepAt(plain, 2));
    expect(step.event).toBe(event);
    // The harness re-broadcasts terminal steps: nothing new the second time.
    expect(normalizer.normalize(stepAt(plain, 2)).textDelta).toBe("");
  });

  it("plain_text_turn turn B: the environment step and the answer are separate steps", () => {
    const normalizer = new StepNormalizer();
    const environment = normalizer.normalize(stepAt(plain, 7));
    const answer = normalizer.normalize(stepAt(plain, 8));
    expect(environment).toMatchObject({ id: "test_traj:1", target: "environment", textDelta: "Requesting permission to make tool call" });
    expect(answer).toMatchObject({ id: "test_traj:2", target: "user", textDelta: "Here is my answer." });
  });

  it("uses the harness delta when only the delta is sent", () => {
    const normalizer = new StepNormalizer();
    expect(normalizer.normalize(stepAt(plain, 10))).toMatchObject({ text: "d", textDelta: "d", status: "active", kind: "text" });
  });

  it("diffs cumulative text against what was seen, whatever the harness delta says", () => {
    const normalizer = new StepNormalizer();
    normalizer.normalize({ stepIndex: 1, state: "STATE_ACTIVE", text: "Hello" });
    // Fixture: text "Hello world", textDelta " world": consistent with what was seen.
    expect(normalizer.normalize(stepAt(plain, 11))).toMatchObject({ text: "Hello world", textDelta: " world" });
    // An inconsistent delta (the harness coalesced updates) loses to the cumulative text.
    expect(normalizer.normalize({ stepIndex: 1, text: "Hello world again", textDelta: "again" })).toMatchObject({
      textDelta: " again",
    });
    // A first sight of a step with both fields: everything is new to this consumer.
    expect(new StepNormalizer().normalize(stepAt(plain, 11)).textDelta).toBe("Hello world");
  });

  it("delivers rewritten text whole instead of a bogus suffix", () => {
    const normalizer = new StepNormalizer();
    normalizer.normalize({ trajectoryId: "t", stepIndex: 1, text: "Hello there" });
    expect(normalizer.normalize({ trajectoryId: "t", stepIndex: 1, text: "Goodbye" })).toMatchObject({ text: "Goodbye", textDelta: "Goodbye" });
  });

  it("does not let an explicitly empty cumulative field erase what was seen", () => {
    const normalizer = new StepNormalizer();
    normalizer.normalize({ stepIndex: 1, text: "abc" });
    expect(normalizer.normalize({ stepIndex: 1, text: "" })).toMatchObject({ text: "abc", textDelta: "" });
    expect(normalizer.normalize({ stepIndex: 1, text: "abcd" }).textDelta).toBe("d");
  });

  it("keeps steps apart by trajectory and index", () => {
    const normalizer = new StepNormalizer();
    normalizer.normalize({ trajectoryId: "a", stepIndex: 1, text: "one" });
    expect(normalizer.normalize({ trajectoryId: "b", stepIndex: 1, text: "one" }).textDelta).toBe("one");
    expect(normalizer.normalize({ trajectoryId: "a", stepIndex: 2, text: "one" }).textDelta).toBe("one");
  });

  it("thinking_turn: thinking-only steps are thinking, text with thinking is text, deltas never repeat", () => {
    const thinking = harnessEvents("thinking_turn");
    expect(new StepNormalizer().normalize(stepAt(thinking, 0))).toMatchObject({
      kind: "thinking",
      thinking: "Internal reasoning about the problem.",
      thinkingDelta: "Internal reasoning about the problem.",
      textDelta: "",
    });
    expect(new StepNormalizer().normalize(stepAt(thinking, 1))).toMatchObject({
      kind: "text",
      textDelta: "Here is my answer.",
      thinkingDelta: "Let me reason through this carefully.",
    });
    const normalizer = new StepNormalizer();
    normalizer.normalize({ stepIndex: 1, state: "STATE_ACTIVE", thinking: "Step 1.", thinkingDelta: "Step 1." });
    expect(normalizer.normalize(stepAt(thinking, 2))).toMatchObject({ thinking: "Step 1. Step 2.", thinkingDelta: " Step 2." });
    expect(normalizer.normalize(stepAt(thinking, 2)).thinkingDelta).toBe("");
  });

  it("property: the deltas of any growing, re-broadcast stream concatenate to the final text", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ chunk: fc.string({ maxLength: 8 }), repeat: fc.boolean(), sendDelta: fc.boolean(), sendText: fc.boolean() }), {
          minLength: 1,
          maxLength: 20,
        }),
        (updates) => {
          const normalizer = new StepNormalizer();
          let cumulative = "";
          let delivered = "";
          for (const update of updates) {
            cumulative += update.chunk;
            const step: StepUpdate = { trajectoryId: "t", stepIndex: 1 };
            // Without the cumulative field the delta is the only information, so it is always sent then.
            if (update.sendText) step.text = cumulative;
            if (update.sendDelta || !update.sendText) step.textDelta = update.chunk;
            delivered += normalizer.normalize(step).textDelta;
            if (update.repeat && update.sendText) delivered += normalizer.normalize(step).textDelta;
          }
          expect(delivered).toBe(cumulative);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reset() forgets what was seen", () => {
    const normalizer = new StepNormalizer();
    normalizer.normalize({ stepIndex: 1, text: "abc" });
    normalizer.reset();
    expect(normalizer.normalize({ stepIndex: 1, text: "abc" }).textDelta).toBe("abc");
  });
});

describe("StepNormalizer: builtin tools (builtin_tools.json)", () => {
  const builtin = harnessEvents("builtin_tools");
  /** [waiting message, done message, builtin name, arguments, result]. */
  const pairs: [number, number, string, Record<string, unknown>, Record<string, unknown> | undefined][] = [
    [0, 2, "list_directory", { directoryPath: "/tmp/test" }, { results: [{ name: "foo.py", fileSize: "100" }, { name: "bar", isDirectory: true }] }],
    [3, 5, "view_file", { filePath: "/tmp/file.py" }, undefined],
    [6, 8, "run_command", { commandLine: "echo hello" }, { combinedOutput: "hello\n" }],
    [9, 11, "find_file", { directoryPath: "/tmp/searchdir", query: "target.txt" }, { output: "/tmp/searchdir/target.txt" }],
    [12, 14, "search_directory", { directoryPath: "/tmp", query: "hello" }, { numResults: 3 }],
    [
      15,
      17,
      "edit_file",
      { filePath: "/tmp/file.py" },
      { diffBlock: [{ startLine: 0, endLine: 1, lines: [{ text: "+ new line", action: "LINE_ACTION_INSERT" }] }] },
    ],
    [18, 20, "generate_image", { prompt: "sunset photo" }, { imageName: "sunset_photo", aspectRatio: "16:9" }],
    [21, 23, "search_web", { query: "google news" }, { summary: "google news search results" }],
  ];

  for (const [waitingIndex, doneIndex, name, expectedArguments, expectedResult] of pairs) {
    it(`${name}: first-sight fields are the arguments, fields added by DONE are the result`, () => {
      const normalizer = new StepNormalizer();
      const waiting = normalizer.normalize(stepAt(builtin, waitingIndex));
      expect(waiting).toMatchObject({ kind: "builtin_tool", status: "waiting", confirmation: {} });
      expect(waiting.tool).toEqual({ kind: "builtin", name, actionField: expect.any(String), arguments: expectedArguments });

      const done = normalizer.normalize(stepAt(builtin, doneIndex));
      expect(done.status).toBe("done");
      expect(done.confirmation).toBeUndefined();
      expect(done.tool?.arguments).toEqual(expectedArguments);
      expect(done.tool?.result).toEqual(expectedResult);
    });
  }

  it("a step first seen at DONE splits by the documented input fields, so no result leaks into the arguments", () => {
    const runCommand = new StepNormalizer().normalize(stepAt(builtin, 8)).tool;
    expect(runCommand).toMatchObject({ arguments: { commandLine: "echo hello" }, result: { combinedOutput: "hello\n" } });
    const listDirectory = new StepNormalizer().normalize(stepAt(builtin, 2)).tool;
    expect(listDirectory?.arguments).toEqual({ directoryPath: "/tmp/test" });
    expect(Object.keys(listDirectory?.result ?? {})).toEqual(["results"]);
    const findFile = new StepNormalizer().normalize(stepAt(builtin, 11)).tool;
    expect(findFile).toMatchObject({ arguments: { directoryPath: "/tmp/searchdir", query: "target.txt" }, result: { output: "/tmp/searchdir/target.txt" } });
    const plain = harnessEvents("plain_text_turn");
    expect(new StepNormalizer().normalize(stepAt(plain, 13)).tool).toMatchObject({
      name: "run_command",
      arguments: { commandLine: "ls" },
      result: { exitCode: 0, combinedOutput: "a\n" },
    });
  });

  it("names every builtin by its wire name", () => {
    const actionFields = pairs.map(([waitingIndex]) => new StepNormalizer().normalize(stepAt(builtin, waitingIndex)).tool?.actionField);
    expect(actionFields).toEqual(["listDirectory", "viewFile", "runCommand", "findFile", "searchDirectory", "editFile", "generateImage", "searchWeb"]);
    const normalizer = new StepNormalizer();
    expect(normalizer.normalize({ stepIndex: 1, createFile: { filePath: "/a", contents: "x" } }).tool?.name).toBe("create_file");
    expect(normalizer.normalize({ stepIndex: 2, readUrlContent: { url: "https://x" } }).tool?.name).toBe("read_url_content");
  });
});

describe("StepNormalizer: MCP, custom tools and subagents", () => {
  it("MCP tools carry server name, tool name and parsed arguments", () => {
    const step = new StepNormalizer().normalize({
      stepIndex: 4,
      state: "STATE_ACTIVE",
      mcpTool: { serverName: "files", toolName: "read", argumentsJson: '{"path":"/a"}' },
    });
    expect(step.kind).toBe("mcp_tool");
    expect(step.tool).toEqual({ kind: "mcp", name: "read", actionField: "mcpTool", serverName: "files", arguments: { path: "/a" } });
    expect(new StepNormalizer().normalize({ mcpTool: { toolName: "x", argumentsJson: "not json" } }).tool?.arguments).toEqual({ value: "not json" });
  });

  it("custom_tool.json: mirror steps carry the call and, once answered, the result", () => {
    const custom = harnessEvents("custom_tool");
    const unanswered = new StepNormalizer().normalize(stepAt(custom, 9));
    expect(unanswered.kind).toBe("custom_tool");
    expect(unanswered.tool).toEqual({ kind: "custom", name: "my_local_tool", actionField: "customTool", arguments: {} });

    const answered = new StepNormalizer().normalize(stepAt(custom, 10));
    expect(answered.tool).toEqual({
      kind: "custom",
      name: "my_custom_tool",
      actionField: "customTool",
      callId: "call_1",
      arguments: { arg1: "val1", file_path: "file:///foo" },
      result: { result: "ok" },
    });

    const preRequest = new StepNormalizer().normalize(stepAt(custom, 11));
    expect(preRequest).toMatchObject({ kind: "confirmation", status: "waiting", confirmation: {} });
    expect(preRequest.tool).toBeUndefined();
  });

  it("custom tool errors and non-object responses become the result", () => {
    const failed = new StepNormalizer().normalize({ customTool: { toolCall: { name: "t" }, toolResponse: { errorMessage: "boom" } } });
    expect(failed.tool?.result).toEqual({ error: "boom" });
    const listed = new StepNormalizer().normalize({ customTool: { toolCall: { name: "t" }, toolResponse: { responseJson: "[1,2]" } } });
    expect(listed.tool?.result).toEqual({ result: [1, 2] });
  });

  it("cold_resume.json history steps normalize without an event", () => {
    const history = harnessEvents("cold_resume").get(2)?.initializeConversationResponse?.history ?? [];
    const normalizer = new StepNormalizer();
    const steps = history.map((step) => normalizer.normalize(step));
    expect(steps.map((step) => step.kind)).toEqual(["text", "custom_tool"]);
    expect(steps[1]?.tool?.result).toEqual({ result: "ok" });
    expect(steps[0]?.event).toBeUndefined();
  });

  it("subagent.json: invokeSubagent is a subagent step; other trajectories are not main", () => {
    const subagent = harnessEvents("subagent");
    const normalizer = new StepNormalizer();
    const invoke = normalizer.normalize(stepAt(subagent, 3), { mainTrajectoryId: "main" });
    expect(invoke).toMatchObject({ kind: "subagent", isMainTrajectory: true, textDelta: "Invoking subagent" });
    expect(invoke.tool).toEqual({ kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} });
    const child = normalizer.normalize({ trajectoryId: "sub-1", stepIndex: 0, text: "child" }, { mainTrajectoryId: "main" });
    expect(child.isMainTrajectory).toBe(false);
  });
});

describe("StepNormalizer: errors, questions, confirmations, structured output", () => {
  it("error_steps.json: the message comes from error.errorMessage with its HTTP code, else errorMessage, else text", () => {
    const errors = harnessEvents("error_steps");
    expect(new StepNormalizer().normalize(stepAt(errors, 0))).toMatchObject({
      kind: "error",
      status: "error",
      source: "system",
      error: { message: "Fatal system failure", httpCode: 400 },
    });
    expect(new StepNormalizer().normalize(stepAt(errors, 3)).error).toEqual({ message: "Resource exhausted", httpCode: 429 });
    expect(new StepNormalizer().normalize(stepAt(errors, 7)).error?.httpCode).toBe(503);
    expect(new StepNormalizer().normalize(stepAt(errors, 8)).error).toEqual({ message: "internal error" });
    expect(new StepNormalizer().normalize({ state: "STATE_ERROR", text: "only text" }).error).toEqual({ message: "only text" });
    const denied = harnessEvents("tool_confirmation");
    expect(new StepNormalizer().normalize(stepAt(denied, 5)).error).toEqual({ message: "Permission denied" });
  });

  it("ask_question.json: questions keep their positions, unknown kinds become placeholders", () => {
    const questions = harnessEvents("ask_question");
    expect(new StepNormalizer().normalize(stepAt(questions, 0))).toMatchObject({
      kind: "question",
      status: "waiting",
      questions: [{ question: "Do you agree?", choices: ["Yes", "No"], isMultiSelect: false }],
    });
    expect(new StepNormalizer().normalize(stepAt(questions, 2)).questions).toHaveLength(2);
    expect(new StepNormalizer().normalize(stepAt(questions, 4)).questions).toEqual([]);
    expect(new StepNormalizer().normalize(stepAt(questions, 7)).questions).toEqual([
      { question: "q?", choices: ["a", "b"], isMultiSelect: true },
      { question: "", choices: [], isMultiSelect: false },
    ]);
  });

  it("tool_confirmation.json: a confirmation on an action is that action's kind, with the request text", () => {
    const confirmation = harnessEvents("tool_confirmation");
    const waiting = new StepNormalizer().normalize(stepAt(confirmation, 0));
    expect(waiting).toMatchObject({ kind: "builtin_tool", status: "waiting", target: "environment", confirmation: {} });
    expect(waiting.tool?.arguments).toEqual({ commandLine: "rm -rf /" });
    const withText = new StepNormalizer().normalize(stepAt(confirmation, 6));
    expect(withText.confirmation).toEqual({ requestText: "run `ls`?" });
  });

  it("kind precedence: error > question > confirmation without action > action > text", () => {
    const normalizer = new StepNormalizer();
    expect(normalizer.normalize({ state: "STATE_ERROR", questionsRequest: {}, runCommand: {} }).kind).toBe("error");
    expect(normalizer.normalize({ stepIndex: 1, questionsRequest: {}, toolConfirmationRequest: {} }).kind).toBe("question");
    expect(normalizer.normalize({ stepIndex: 2, toolConfirmationRequest: {}, text: "t" }).kind).toBe("confirmation");
    expect(normalizer.normalize({ stepIndex: 3, runCommand: {}, text: "t" }).kind).toBe("builtin_tool");
    expect(normalizer.normalize({ stepIndex: 4 }).kind).toBe("unknown");
  });

  it("structured_output.json: finish carries the output string and its parsed JSON", () => {
    const structured = harnessEvents("structured_output");
    const finish = new StepNormalizer().normalize(stepAt(structured, 1));
    expect(finish.kind).toBe("finish");
    expect(finish.finish).toEqual({
      outputString: '{"total_revenue": 386.0, "top_selling_product": "Widget A"}',
      output: { total_revenue: 386, top_selling_product: "Widget A" },
    });
    expect(new StepNormalizer().normalize({ finish: { outputString: "{oops" } }).finish).toEqual({ outputString: "{oops" });
  });

  it("inputs_triggers_compaction.json: compaction steps", () => {
    const compaction = harnessEvents("inputs_triggers_compaction");
    expect(new StepNormalizer().normalize(stepAt(compaction, 7))).toMatchObject({ kind: "compaction", source: "system", text: "Context compaction" });
  });

  it("maps enum numbers, unknown names and absent values", () => {
    const normalizer = new StepNormalizer();
    expect(normalizer.normalize({ state: 2, source: 3, target: 3 })).toMatchObject({ status: "done", source: "model", target: "environment" });
    expect(normalizer.normalize({ state: "STATE_TELEPORTING", source: 99, target: "TARGET_ALIENS" })).toMatchObject({
      status: "unknown",
      source: "unknown",
      target: "unknown",
    });
    expect(normalizer.normalize({})).toMatchObject({ status: "unspecified", source: "unspecified", target: "unspecified", id: ":0" });
  });
});
