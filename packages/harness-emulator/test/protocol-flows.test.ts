// Plays the client side of every flow in fixtures/protocol/*.json against the BUILT emulator binary,
// over a real socket, with a raw driver; checks kinds, field names, enum spellings and order.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFor, payloadKind, waitForStderr, outboundViolations, reapLeaks, spawnEmulator, type EmulatorProcess, type Message, type RawConversation } from "./support/emulator-driver.js";
import { clientMessage, expected, fixtureMessages } from "./support/fixtures.js";
import { decodeRawOutputConfig, encodeRawInputConfig } from "./support/raw-protobuf.js";
import { expectOrderedShapes, shapeDifferences } from "./support/wire-shape.js";

let emulator: EmulatorProcess;
const conversations: RawConversation[] = [];
let workspace: string;

async function open(config: Record<string, unknown>): Promise<{ conversation: RawConversation; init: Message; cascadeId: string }> {
  const conversation = await emulator.connect();
  conversations.push(conversation);
  const init = await conversation.init(config);
  return { conversation, init, cascadeId: init["initializeConversationResponse"]?.cascadeId as string };
}

function isStep(message: Message, state?: string): boolean {
  return message["stepUpdate"] !== undefined && (state === undefined || message["stepUpdate"].state === state);
}

/** The next waiting step not answered yet: waiting steps are re-broadcast, and each must be answered once. */
async function nextWaiting(conversation: RawConversation, answered: Set<string>): Promise<Message> {
  const message = await conversation.next(
    (candidate) => isStep(candidate, "STATE_WAITING_FOR_USER") && !answered.has(`${candidate["stepUpdate"].trajectoryId}:${candidate["stepUpdate"].stepIndex}`),
  );
  answered.add(`${message["stepUpdate"].trajectoryId}:${message["stepUpdate"].stepIndex}`);
  return message;
}

function finalText(messages: Message[]): string {
  const answers = messages.filter(
    (message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].source === "SOURCE_MODEL" && message["stepUpdate"].target === "TARGET_USER" && message["stepUpdate"].text,
  );
  return (answers.at(-1)?.["stepUpdate"].text as string | undefined) ?? "";
}

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), "emulator-workspace-"));
  writeFileSync(join(workspace, "file.py"), "print('hello')\n");
  writeFileSync(join(workspace, "target.txt"), "hello world\n");
  mkdirSync(join(workspace, "sub"));
  // The fixtures are 0.1.10 captures: this file plays that release (the newer ones have tests of their own).
  emulator = await spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "250", ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10" } });
});

afterAll(async () => {
  await Promise.all(conversations.map((conversation) => conversation.close()));
  const result = await emulator.stop();
  expect(result.code).toBe(0);
  const leaks = await reapLeaks();
  expect(leaks).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

describe("handshake.json", () => {
  it("encodes InputConfig like the reference encoders and answers with exactly one OutputConfig frame", async () => {
    const messages = fixtureMessages("handshake.json");
    const golden = messages[0]!.json;
    const encoded = encodeRawInputConfig({
      storageDirectory: "/tmp/storage",
      port: 8080,
      bindAddress: "127.0.0.1",
      clientInfo: { language: "rust", version: "0.7.2", languageVersion: "1.88" },
    });
    expect(encoded.toString("hex")).toBe(golden.payloadHex);
    // The golden OutputConfig decodes with the same reader the driver uses on the emulator's stdout.
    expect(decodeRawOutputConfig(Buffer.from(messages[3]!.json.payloadHex, "hex"))).toMatchObject({ port: 54321, apiKey: "secret-token-123" });
    const stdout = emulator.stdout();
    const length = stdout.readUInt32LE(0);
    expect(stdout.length).toBe(4 + length);
    const output = decodeRawOutputConfig(stdout.subarray(4));
    expect(output.fieldTags).toEqual([0x08, 0x12]);
    expect(output.port).toBe(emulator.port);
    expect(output.apiKey.length).toBeGreaterThanOrEqual(16);
  });

  it("accepts the Python-style InputConfig with an env map and honours bindAddress", async () => {
    const python = await spawnEmulator({
      input: { bindAddress: "127.0.0.1", clientInfo: { language: "python", version: "0.1.10", languageVersion: "3.12.3", os: "linux", osVersion: "6.8" }, env: { MY_CUSTOM_VAR: "hello_env" } },
    });
    try {
      const conversation = await python.connect();
      const init = await conversation.init(configFor("plain"));
      expect(payloadKind(init)).toBe("initializeConversationResponse");
      await conversation.close();
      await waitForStderr(python, "listening on 127.0.0.1:");
    } finally {
      await python.stop();
    }
  });
});

describe("init.json", () => {
  it("answers each InitializeConversationEvent variant with the init response as the very first frame", async () => {
    const variants = [0, 1, 2].map((index) => clientMessage("init.json", index).config as Record<string, unknown>);
    const responses: Message[] = [];
    for (const variant of variants) {
      const { conversation, init } = await open(variant);
      responses.push(init);
      await conversation.close();
    }
    expect(shapeDifferences(fixtureMessages("init.json")[3]!.json, responses[0])).toEqual([]);
    expect(responses[0]!["initializeConversationResponse"].cascadeId).toBe("cid");
    for (const response of responses.slice(1)) {
      expect(shapeDifferences(fixtureMessages("init.json")[4]!.json, response)).toEqual([]);
      expect(response["initializeConversationResponse"].cascadeId).toMatch(/^[0-9a-f]{32}$/);
      expect(response["initializeConversationResponse"].history).toBeUndefined();
    }
  });

  it("refuses a config without a text model the way the harness does", async () => {
    const conversation = await emulator.connect();
    conversations.push(conversation);
    conversation.send({ config: { models: [{ name: "imagen", types: ["MODEL_TYPE_IMAGE"] }] } });
    const closed = await conversation.closed;
    expect(closed.reason).toContain("no text model configuration provided");
    expect(conversation.messages).toEqual([]);
    await waitForStderr(emulator, "no text model configuration provided");
  });
});

describe("plain_text_turn.json", () => {
  it("streams deltas, ends with a DONE answer, FULLY_IDLE, then the PostTurn hook", async () => {
    const { conversation } = await open(configFor("plain", { enabledHooks: ["LIFECYCLE_HOOK_POST_TURN"] }));
    conversation.send(clientMessage("plain_text_turn.json", 0));
    const hook = await conversation.next((message) => message["callHookRequest"] !== undefined);
    conversation.send(clientMessage("plain_text_turn.json", 5, (json) => (json.callHookResponse.requestId = hook["callHookRequest"].requestId)));
    expectOrderedShapes(expected("plain_text_turn.json", 1, 10, 2, 3, 4), conversation.messages);
    expect(hook["callHookRequest"].postTurnArgs.responseText).toBe("Final answer");
    const deltas = conversation.messages.filter((message) => message["stepUpdate"]?.textDelta).map((message) => message["stepUpdate"].textDelta);
    expect(deltas.join("")).toBe("Final answer");
    expect(deltas.length).toBeGreaterThan(1);
    // Envelope numbering is monotonic per connection.
    const sequence = conversation.messages.map((message) => Number(message["seqNum"]));
    expect(sequence).toEqual([...sequence].sort((left, right) => left - right));
  });
});

describe("thinking_turn.json", () => {
  it("sends a thinking-only DONE step and a step with both thinking and text", async () => {
    const { conversation } = await open(configFor("thinking"));
    conversation.send({ userInput: "think" });
    const turn = await conversation.untilIdle();
    expectOrderedShapes(expected("thinking_turn.json", 3, 1), turn);
    const thinkingDeltas = turn.filter((message) => message["stepUpdate"]?.thinkingDelta !== undefined);
    expect(thinkingDeltas.length).toBeGreaterThan(0);
    expect(finalText(turn)).toBe("Here is my answer.");
  });
});

describe("builtin_tools.json", () => {
  it("runs every builtin for real on the confirmation path; arguments grow at DONE", async () => {
    const { conversation } = await open(configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: workspace } }] }));
    conversation.send({ userInput: "confirm-all" });
    const answered = new Set<string>();
    for (let index = 0; index < 9; index++) {
      const waiting = await nextWaiting(conversation, answered);
      conversation.send(
        clientMessage("builtin_tools.json", 1, (json) => {
          json.toolConfirmation.trajectoryId = waiting["stepUpdate"].trajectoryId;
          json.toolConfirmation.stepIndex = waiting["stepUpdate"].stepIndex;
        }),
      );
    }
    const turn = await conversation.untilIdle();
    expect(finalText(turn)).toBe("All builtins ran.");
    expectOrderedShapes(expected("builtin_tools.json", 0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23), conversation.messages);
    const done = (field: string): any => conversation.messages.find((message) => isStep(message, "STATE_DONE") && message["stepUpdate"][field])!["stepUpdate"][field];
    expect(done("listDirectory").results).toEqual(
      expect.arrayContaining([{ name: "file.py", fileSize: "15" }, { name: "sub", isDirectory: true }]),
    );
    expect(done("runCommand")).toMatchObject({ commandLine: "echo hello", combinedOutput: "hello\n", exitCode: 0 });
    expect(done("findFile").output).toBe(join(workspace, "target.txt"));
    expect(done("searchDirectory").numResults).toBe(2);
    expect(done("editFile").diffBlock[0].lines).toEqual([
      { text: "print('hello')", action: "LINE_ACTION_DELETE" },
      { text: "print('hello')", action: "LINE_ACTION_INSERT" },
      { text: "print('new line')", action: "LINE_ACTION_INSERT" },
    ]);
    expect(readFileSync(join(workspace, "file.py"), "utf8")).toBe("print('hello')\nprint('new line')\n");
    expect(readFileSync(join(workspace, "created.txt"), "utf8")).toBe("made by the emulator\n");
  });

  it("gates builtins through PreTool/PostTool hooks with snake_case result strings and honours a DENY", async () => {
    writeFileSync(join(workspace, "file.py"), "print('hello')\n");
    const { conversation } = await open(
      configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: workspace } }], enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL", "LIFECYCLE_HOOK_POST_TOOL"] }),
    );
    conversation.send({ userInput: "hooked" });
    const hookRequests: Message[] = [];
    for (;;) {
      const message = await conversation.next((candidate) => candidate["callHookRequest"] !== undefined || candidate["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE");
      if (message["trajectoryStateUpdate"]) break;
      hookRequests.push(message);
      const request = message["callHookRequest"];
      const isDenied = request.preToolArgs?.argumentsJson?.includes("rm -rf");
      const reply =
        request.type === "LIFECYCLE_HOOK_PRE_TOOL"
          ? clientMessage("builtin_tools.json", isDenied ? 27 : 25)
          : clientMessage("builtin_tools.json", 37);
      reply.callHookResponse.requestId = request.requestId;
      conversation.send(reply);
    }
    expectOrderedShapes(expected("builtin_tools.json", 24, 28, 26, 29, 30, 31, 36, 33, 34, 35), hookRequests);
    const commandSteps = conversation.messages.filter((message) => message["stepUpdate"]?.runCommand);
    const denied = commandSteps.filter((message) => message["stepUpdate"].runCommand.commandLine === "rm -rf /").at(-1);
    expect(denied?.["stepUpdate"]).toMatchObject({ state: "STATE_ERROR", errorMessage: "blocked by policy" });
    const postRunCommand = hookRequests.find((message) => message["callHookRequest"].postToolArgs?.toolName === "run_command")!;
    expect(JSON.parse(postRunCommand["callHookRequest"].postToolArgs.result)).toEqual({ combined_output: "hi\n" });
    expect(postRunCommand["callHookRequest"].postToolArgs.error).toBe("");
    expect(postRunCommand["callHookRequest"].postToolArgs.callId).toBe(
      hookRequests.find((message) => message["callHookRequest"].preToolArgs?.toolName === "run_command")!["callHookRequest"].preToolArgs.callId,
    );
  });

  it("runs a builtin with the arguments a PreTool hook rewrote", async () => {
    const { conversation } = await open(configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: workspace } }], enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL"] }));
    conversation.send({ userInput: "run it" });
    const request = await conversation.next((message) => message["callHookRequest"] !== undefined);
    conversation.send({
      callHookResponse: { requestId: request["callHookRequest"].requestId, preToolResult: { decision: "ALLOW", modifiedArgumentsJson: JSON.stringify({ CommandLine: "echo rewritten" }) } },
    });
    const turn = await conversation.untilIdle();
    expect(turn.find((message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].runCommand)?.["stepUpdate"].runCommand).toMatchObject({
      commandLine: "echo rewritten",
      combinedOutput: "rewritten\n",
    });
  });

  it("keeps builtins inside the workspaces and treats a disabled builtin as a model mistake", async () => {
    const { conversation } = await open(configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: join(workspace, "sub") } }] }));
    conversation.send({ userInput: "outside" });
    const turn = await conversation.untilIdle();
    const errors = turn.filter((message) => isStep(message, "STATE_ERROR"));
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error["stepUpdate"].errorMessage).toContain("outside the workspaces");
    const disabled = await open(configFor("builtins", { harnessSideTools: { runCommand: { enabled: false } } }));
    disabled.conversation.send({ userInput: "disabled" });
    const disabledTurn = await disabled.conversation.untilIdle();
    expect(disabledTurn.find((message) => isStep(message, "STATE_ERROR"))?.["stepUpdate"].errorMessage).toBe('Tool "run_command" is not available');
    expect(finalText(disabledTurn)).toContain("not available");
  });
});

describe("custom_tool.json", () => {
  const tools = [
    { name: "get_weather", description: "Weather", parametersJsonSchema: JSON.stringify({ type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] }) },
    { name: "failing_tool", description: "Fails", parametersJsonSchema: "{}" },
    { name: "image_tool", description: "Media", parametersJsonSchema: JSON.stringify({ type: "object" }) },
  ];

  it("mirrors the call as a customTool step, sends toolCall, waits, and completes the step with the response", async () => {
    const { conversation } = await open(configFor("custom", { tools }));
    conversation.send({ userInput: "use get_weather for SF." });
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    expect(JSON.parse(call["toolCall"].argumentsJson)).toEqual({ city: "SF" });
    conversation.send(clientMessage("custom_tool.json", 2, (json) => (json.toolResponse.id = call["toolCall"].id)));
    const turn = await conversation.untilIdle();
    expectOrderedShapes(expected("custom_tool.json", 1, 9, 10), conversation.messages);
    expect(finalText(turn)).toBe('Result: {"a":1}');
    const mirror = conversation.messages.filter((message) => message["stepUpdate"]?.customTool?.toolCall?.id === call["toolCall"].id);
    expect(mirror[0]!["stepUpdate"].state).toBe("STATE_ACTIVE");
    expect(mirror.at(-1)!["stepUpdate"].customTool.toolResponse).toEqual({ id: call["toolCall"].id, responseJson: '{"a":1}' });
  });

  it("accepts supplementalMedia and both error envelopes", async () => {
    const { conversation } = await open(configFor("custom", { tools }));
    conversation.send({ userInput: "use image_tool" });
    const imageCall = await conversation.next((message) => message["toolCall"] !== undefined);
    expectOrderedShapes(expected("custom_tool.json", 3), [imageCall]);
    conversation.send(clientMessage("custom_tool.json", 4, (json) => (json.toolResponse.id = imageCall["toolCall"].id)));
    expect(finalText(await conversation.untilIdle())).toBe('Result: ["here is the snapshot"]');
    for (const replyIndex of [7, 8]) {
      conversation.send({ userInput: "use failing_tool" });
      const failCall = await conversation.next((message) => message["toolCall"] !== undefined);
      expectOrderedShapes(expected("custom_tool.json", 6), [failCall]);
      conversation.send(clientMessage("custom_tool.json", replyIndex, (json) => (json.toolResponse.id = failCall["toolCall"].id)));
      expect(finalText(await conversation.untilIdle())).toBe("Result: Error: Intentional failure");
    }
  });

  it("sends the pre-request confirmation (waiting step, no action) before the toolCall", async () => {
    const { conversation } = await open(configFor("custom", { tools }));
    conversation.send({ userInput: "confirm weather in Paris" });
    const notice = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    expect(Object.keys(notice["stepUpdate"]).some((key) => ["customTool", "runCommand"].includes(key))).toBe(false);
    conversation.send({ toolConfirmation: { trajectoryId: notice["stepUpdate"].trajectoryId, stepIndex: notice["stepUpdate"].stepIndex, accepted: true } });
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    expect(JSON.parse(call["toolCall"].argumentsJson)).toEqual({ city: "Paris" });
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: '{"result": "sunny"}' } });
    expect(finalText(await conversation.untilIdle())).toBe("Result: sunny");
    expectOrderedShapes(expected("custom_tool.json", 11, 12), conversation.messages);
  });
});

describe("ask_question.json", () => {
  it("waits with a questionsRequest, re-broadcasts it until answered, then uses the answer", async () => {
    const { conversation } = await open(configFor("question", { harnessSideTools: { userQuestions: { enabled: true } } }));
    conversation.send({ userInput: "ask" });
    const waiting = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    const again = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    expect(again["stepUpdate"]).toEqual(waiting["stepUpdate"]);
    conversation.send(
      clientMessage("ask_question.json", 1, (json) => {
        json.questionResponse.trajectoryId = waiting["stepUpdate"].trajectoryId;
        json.questionResponse.stepIndex = waiting["stepUpdate"].stepIndex;
      }),
    );
    const turn = await conversation.untilIdle();
    expectOrderedShapes(expected("ask_question.json", 0), conversation.messages);
    expect(finalText(turn)).toBe("Answer: Yes");
  });

  it("handles cancelled, unanswered and multi-select answers", async () => {
    const { conversation } = await open(configFor("question"));
    conversation.send({ userInput: "ask" });
    let waiting = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    conversation.send(
      clientMessage("ask_question.json", 9, (json) => {
        json.questionResponse.trajectoryId = waiting["stepUpdate"].trajectoryId;
        json.questionResponse.stepIndex = waiting["stepUpdate"].stepIndex;
      }),
    );
    expect(finalText(await conversation.untilIdle())).toBe("Answer: (cancelled)");
    conversation.send({ userInput: "ask" });
    waiting = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    conversation.send({ questionResponse: { trajectoryId: waiting["stepUpdate"].trajectoryId, stepIndex: waiting["stepUpdate"].stepIndex, response: { answers: [{ unanswered: true }] } } });
    expect(finalText(await conversation.untilIdle())).toBe("Answer: (unanswered)");
    conversation.send({ userInput: "multi" });
    waiting = await conversation.next((message) => isStep(message, "STATE_WAITING_FOR_USER"));
    expect(waiting["stepUpdate"].questionsRequest.questions[0].multipleChoice.isMultiSelect).toBe(true);
    conversation.send({
      questionResponse: {
        trajectoryId: waiting["stepUpdate"].trajectoryId,
        stepIndex: waiting["stepUpdate"].stepIndex,
        response: { answers: [{ multipleChoiceAnswer: { selectedChoiceIndices: [0, 2], freeformResponse: "f" } }] },
      },
    });
    expect(finalText(await conversation.untilIdle())).toBe("Answer: a, c, f");
  });
});

describe("tool_confirmation.json", () => {
  it("runs the tool after acceptance and fails the step after a rejection", async () => {
    const { conversation } = await open(configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: workspace } }] }));
    conversation.send({ userInput: "confirm-all" });
    const answered = new Set<string>();
    const waiting = await nextWaiting(conversation, answered);
    conversation.send({ toolConfirmation: { trajectoryId: waiting["stepUpdate"].trajectoryId, stepIndex: waiting["stepUpdate"].stepIndex, accepted: false } });
    for (let index = 0; index < 8; index++) {
      const next = await nextWaiting(conversation, answered);
      conversation.send({ toolConfirmation: { trajectoryId: next["stepUpdate"].trajectoryId, stepIndex: next["stepUpdate"].stepIndex, accepted: true } });
    }
    await conversation.untilIdle();
    expectOrderedShapes(expected("tool_confirmation.json", 5, 0, 3), conversation.messages);
    const rejected = conversation.messages.filter((message) => message["stepUpdate"]?.stepIndex === waiting["stepUpdate"].stepIndex).at(-1)!;
    expect(rejected["stepUpdate"]).toMatchObject({ state: "STATE_ERROR", errorMessage: "Permission denied" });
    const command = conversation.messages.find((message) => isStep(message, "STATE_WAITING_FOR_USER") && message["stepUpdate"].runCommand)!;
    expect(command["stepUpdate"].text).toBe('Requesting permission to call tool "run_command"');
  });
});

describe("error_steps.json", () => {
  it("reports 429 as an error step then FULLY_IDLE with the executor error", async () => {
    const { conversation } = await open(configFor("errors"));
    conversation.send({ userInput: "429" });
    await conversation.untilIdle();
    expectOrderedShapes(expected("error_steps.json", 3, 4), conversation.messages);
    const idle = conversation.messages.at(-1)!;
    expect(idle["trajectoryStateUpdate"].error).toBe("executor run failed: Resource exhausted");
    for (const code of ["400", "401"]) {
      conversation.send({ userInput: code });
      const turn = await conversation.untilIdle();
      expectOrderedShapes(expected("error_steps.json", code === "400" ? 0 : 1), turn);
    }
    conversation.send({ userInput: "503" });
    const retried = await conversation.untilIdle();
    expectOrderedShapes(expected("error_steps.json", 7), retried);
    expect(finalText(retried)).toBe("Recovered after a retry.");
    expect(retried.at(-1)!["trajectoryStateUpdate"].error).toBeUndefined();
    conversation.send({ userInput: "fail" });
    const failed = await conversation.untilIdle();
    expectOrderedShapes(expected("error_steps.json", 5), failed);
    expect(finalText(failed)).toBe("partial");
  });
});

describe("cancel_halt.json", () => {
  it("halt keeps the partial output and ends with FULLY_IDLE, no error, no CANCELLED", async () => {
    const { conversation } = await open(configFor("halt", { tools: [{ name: "slow_tool", parametersJsonSchema: "{}" }] }));
    conversation.send(clientMessage("cancel_halt.json", 0));
    await conversation.next((message) => isStep(message, "STATE_ACTIVE") && message["stepUpdate"].source === "SOURCE_MODEL");
    conversation.send(clientMessage("cancel_halt.json", 2));
    const turn = await conversation.untilIdle();
    expectOrderedShapes(expected("cancel_halt.json", 1, 3), conversation.messages);
    expect(turn.at(-1)!["trajectoryStateUpdate"].error).toBeUndefined();
    const modelSteps = conversation.messages.filter((message) => message["stepUpdate"]?.source === "SOURCE_MODEL");
    expect(modelSteps.every((message) => message["stepUpdate"].state === "STATE_ACTIVE")).toBe(true);
    await waitForStderr(emulator, "context canceled");
    // A halt with no running turn is a no-op, and the conversation keeps working.
    conversation.send({ haltRequest: true });
    conversation.send({ userInput: "tool" });
    await conversation.next((message) => message["toolCall"] !== undefined);
    conversation.send({ haltRequest: true });
    const halted = await conversation.untilIdle();
    expect(halted.at(-1)!["trajectoryStateUpdate"]).toEqual({ trajectoryId: expect.any(String), state: "STATE_FULLY_IDLE" });
  });

  it("a PreTurn DENY cancels the turn with STATE_CANCELLED and the reason", async () => {
    const { conversation } = await open(configFor("plain", { enabledHooks: ["LIFECYCLE_HOOK_PRE_TURN"] }));
    conversation.send(clientMessage("cancel_halt.json", 4));
    const request = await conversation.next((message) => message["callHookRequest"] !== undefined);
    conversation.send(clientMessage("cancel_halt.json", 6, (json) => (json.callHookResponse.requestId = request["callHookRequest"].requestId)));
    await conversation.untilIdle();
    expectOrderedShapes(expected("cancel_halt.json", 5, 7), conversation.messages);
    expect(conversation.messages.at(-1)!["trajectoryStateUpdate"]).toMatchObject({ state: "STATE_CANCELLED", error: "Denied by hook" });
    expect(conversation.messages.some((message) => message["stepUpdate"])).toBe(false);
  });
});

describe("subagent.json", () => {
  it("runs a subagent on its own trajectory while the main one waits for tasks", async () => {
    const config = { ...clientMessage("subagent.json", 0).config, ...configFor("subagent"), enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL", "LIFECYCLE_HOOK_POST_TOOL"] };
    const { conversation, cascadeId } = await open(config);
    conversation.send(clientMessage("subagent.json", 1));
    for (;;) {
      const message = await conversation.next((candidate) => candidate["callHookRequest"] !== undefined || (candidate["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE" && candidate["trajectoryStateUpdate"].trajectoryId === cascadeId));
      if (message["trajectoryStateUpdate"]) break;
      conversation.send({ callHookResponse: { requestId: message["callHookRequest"].requestId, ...(message["callHookRequest"].preToolArgs ? { preToolResult: { decision: "ALLOW" } } : { emptyResult: {} }) } });
    }
    expectOrderedShapes(expected("subagent.json", 2, 3, 4, 5, 6, 8, 9, 10), conversation.messages);
    const subRunning = conversation.messages.find((message) => message["trajectoryStateUpdate"]?.state === "STATE_RUNNING" && message["trajectoryStateUpdate"].trajectoryId !== cascadeId)!;
    const subId = subRunning["trajectoryStateUpdate"].trajectoryId as string;
    expect(subId).toMatch(/^[0-9a-f]{32}$/);
    expect(conversation.messages.some((message) => message["stepUpdate"]?.trajectoryId === subId && message["stepUpdate"].text === "Hello from the subagent")).toBe(true);
    const usage = conversation.messages.filter((message) => message["usageUpdate"]).at(-1)!;
    expect(usage["usageUpdate"].agents.map((agent: any) => agent.trajectoryId).sort()).toEqual([cascadeId, subId].sort());
    expect(finalText(conversation.messages)).toBe("Subagent said: Hello from the subagent");
    const post = conversation.messages.find((message) => message["callHookRequest"]?.postToolArgs?.toolName === "invoke_subagent")!;
    expect(post["callHookRequest"].postToolArgs.result).toBe("Hello from the subagent");
  });

  it("a failing subagent reports its error without ending the parent's turn", async () => {
    const { conversation, cascadeId } = await open(configFor("subagent", { harnessSideTools: { subagents: { enabled: true } } }));
    conversation.send({ userInput: "fail" });
    const turn = await conversation.untilIdle();
    expectOrderedShapes(expected("subagent.json", 7, 10), turn);
    expect(turn.at(-1)!["trajectoryStateUpdate"].trajectoryId).toBe(cascadeId);
    expect(finalText(turn)).toBe("Subagent result: Error: Subagent failure");
  });
});

describe("hooks.json", () => {
  const allHooks = [
    "LIFECYCLE_HOOK_ON_SESSION_START",
    "LIFECYCLE_HOOK_ON_SESSION_END",
    "LIFECYCLE_HOOK_PRE_TURN",
    "LIFECYCLE_HOOK_POST_TURN",
    "LIFECYCLE_HOOK_PRE_TOOL",
    "LIFECYCLE_HOOK_POST_TOOL",
    "LIFECYCLE_HOOK_ON_TOOL_ERROR",
  ];
  const tools = [
    { name: "greet", description: "Greets", parametersJsonSchema: JSON.stringify({ type: "object", properties: { name: { type: "string" } } }) },
    { name: "broken", description: "Always fails", parametersJsonSchema: "{}" },
  ];

  it("fires every enabled hook kind in order, with callIds, and finishes with the session-end handshake", async () => {
    const { conversation } = await open(configFor("custom", { tools, enabledHooks: allHooks }));
    const answer = (message: Message): void => {
      const request = message["callHookRequest"];
      if (request.type === "LIFECYCLE_HOOK_ON_SESSION_START") conversation.send(clientMessage("hooks.json", 1, (json) => (json.callHookResponse.requestId = request.requestId)));
      else if (request.type === "LIFECYCLE_HOOK_PRE_TURN") conversation.send(clientMessage("hooks.json", 7, (json) => (json.callHookResponse.requestId = request.requestId)));
      else if (request.type === "LIFECYCLE_HOOK_PRE_TOOL") conversation.send(clientMessage("hooks.json", 20, (json) => (json.callHookResponse.requestId = request.requestId)));
      else if (request.type === "LIFECYCLE_HOOK_ON_TOOL_ERROR") conversation.send(clientMessage("hooks.json", 15, (json) => (json.callHookResponse.requestId = request.requestId)));
      else conversation.send(clientMessage("hooks.json", 16, (json) => (json.callHookResponse.requestId = request.requestId)));
    };
    const drive = async (until: (message: Message) => boolean): Promise<void> => {
      for (;;) {
        const message = await conversation.next((candidate) => candidate["callHookRequest"] !== undefined || candidate["toolCall"] !== undefined || until(candidate));
        if (until(message)) return;
        if (message["callHookRequest"]) answer(message);
        else if (message["toolCall"]) {
          conversation.send(
            message["toolCall"].name === "broken"
              ? { toolResponse: { id: message["toolCall"].id, errorMessage: "failed" } }
              : { toolResponse: { id: message["toolCall"].id, responseJson: JSON.stringify({ result: "Hello Alice" }) } },
          );
        } else return;
      }
    };
    conversation.send({ complexUserInput: { parts: [{ text: "hello" }, { text: "world" }] } });
    await drive((message) => message["callHookRequest"]?.type === "LIFECYCLE_HOOK_POST_TURN");
    answer(conversation.messages.at(-1)!);
    conversation.send({ userInput: "greet" });
    await drive((message) => message["callHookRequest"]?.type === "LIFECYCLE_HOOK_POST_TURN");
    answer(conversation.messages.at(-1)!);
    conversation.send({ userInput: "use broken" });
    await drive((message) => message["callHookRequest"]?.type === "LIFECYCLE_HOOK_POST_TURN");
    answer(conversation.messages.at(-1)!);
    conversation.send(clientMessage("hooks.json", 2));
    await drive((message) => message["sessionEndResponse"] !== undefined);
    expectOrderedShapes(expected("hooks.json", 0, 8, 9, 10, 11, 13, 3, 5), conversation.messages);
    const greetTurnText = conversation.messages.filter((message) => message["stepUpdate"]?.text?.startsWith("Result:")).map((message) => message["stepUpdate"].text);
    expect(greetTurnText).toContain("Result: Hello Alice");
    expect(greetTurnText).toContain("Result: Error: fallback value");
    expect(conversation.messages.at(-1)).toMatchObject({ sessionEndResponse: true });
  });

  it("sends no callHookRequest when no hook is enabled, and answers sessionEndRequest anyway", async () => {
    const { conversation } = await open(configFor("custom", { tools }));
    conversation.send({ userInput: "greet" });
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: "{}" } });
    await conversation.untilIdle();
    conversation.send({ sessionEndRequest: true });
    await conversation.next((message) => message["sessionEndResponse"] === true);
    expect(conversation.messages.some((message) => message["callHookRequest"])).toBe(false);
  });
});

describe("usage.json and version_aliases.json", () => {
  it("0.1.10 sends cumulative usageUpdate events with serviceTier when configured", async () => {
    const { conversation } = await open({
      models: [{ name: configFor("plain")["models"] && (configFor("plain")["models"] as any)[0].name, types: ["MODEL_TYPE_TEXT"], geminiApiEndpoint: { options: { serviceTier: "priority" } } }],
    });
    conversation.send({ userInput: "one" });
    const first = await conversation.untilIdle();
    conversation.send({ userInput: "two" });
    const second = await conversation.untilIdle();
    const firstUsage = first.find((message) => message["usageUpdate"])!;
    const secondUsage = second.find((message) => message["usageUpdate"])!;
    expectOrderedShapes(expected("usage.json", 1), [firstUsage]);
    expectOrderedShapes(expected("usage.json", 3), [secondUsage]);
    expect(Number(secondUsage["usageUpdate"].total.totalTokenCount)).toBeGreaterThan(Number(firstUsage["usageUpdate"].total.totalTokenCount));
    expectOrderedShapes(expected("version_aliases.json", 1), second);
  });

  it("the 0.1.8 profile says STATE_IDLE and carries usage as envelope usageMetadata", async () => {
    const old = await spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.8" } });
    try {
      const conversation = await old.connect();
      await conversation.init(configFor("custom", { tools: [{ name: "greet", parametersJsonSchema: "{}" }], enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL"] }));
      conversation.send({ userInput: "greet" });
      const hook = await conversation.next((message) => message["callHookRequest"] !== undefined);
      expect(hook["callHookRequest"].preToolArgs.callId).toBeUndefined();
      conversation.send({ callHookResponse: { requestId: hook["callHookRequest"].requestId, preToolResult: { decision: "ALLOW" } } });
      const call = await conversation.next((message) => message["toolCall"] !== undefined);
      conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: "{}" } });
      const turn = await conversation.untilIdle();
      expectOrderedShapes(expected("usage.json", 2), turn);
      expectOrderedShapes(expected("version_aliases.json", 0), turn);
      expect(turn.some((message) => message["usageUpdate"])).toBe(false);
      expect(turn.some((message) => message["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE")).toBe(false);
      await conversation.close();
    } finally {
      await old.stop();
    }
  });
});

describe("policy_decision.json", () => {
  it("round-trips dynamic rules: DENY blocks the tool, NO_MATCH and ALLOW let it run", async () => {
    const config = { ...clientMessage("policy_decision.json", 0).config, ...configFor("builtins"), workspaces: [{ filesystemWorkspace: { directory: workspace } }] };
    const { conversation } = await open(config);
    for (const [replyIndex, expectedText] of [
      [2, "Result: Error: Denied by policy 'block-all'."],
      [3, "Result: policy"],
      [4, "Result: policy"],
    ] as const) {
      conversation.send({ userInput: "run it" });
      const request = await conversation.next((message) => message["policyDecisionRequest"] !== undefined);
      expectOrderedShapes(expected("policy_decision.json", 1), [request]);
      expect(JSON.parse(request["policyDecisionRequest"].toolArgs.argumentsJson)).toEqual({ CommandLine: "echo policy" });
      conversation.send(clientMessage("policy_decision.json", replyIndex, (json) => (json.policyDecisionResponse.requestId = request["policyDecisionRequest"].requestId)));
      expect(finalText(await conversation.untilIdle())).toBe(expectedText);
    }
  });

  it("evaluates static rules in the harness without a round trip (the Python default denies run_command)", async () => {
    const pythonDefault = clientMessage("init.json", 1).config;
    const { conversation } = await open({ ...pythonDefault, ...configFor("builtins"), workspaces: [{ filesystemWorkspace: { directory: workspace } }] });
    conversation.send({ userInput: "run it" });
    const turn = await conversation.untilIdle();
    expect(turn.some((message) => message["policyDecisionRequest"])).toBe(false);
    expect(finalText(turn)).toBe("Result: Error: Denied by policy 'confirm_run_command'.");
  });
});

describe("inputs_triggers_compaction.json", () => {
  it("runs a turn for every input variant and for an automated trigger", async () => {
    const { conversation } = await open(configFor("faults"));
    for (const index of [0, 1, 2, 3, 4, 5, 6]) {
      conversation.send(clientMessage("inputs_triggers_compaction.json", index));
      const turn = await conversation.untilIdle();
      expect(turn.at(-1)!["trajectoryStateUpdate"].state).toBe("STATE_FULLY_IDLE");
    }
    const echoes = conversation.messages.filter((message) => message["stepUpdate"]?.source !== "SOURCE_MODEL" && message["stepUpdate"]?.target === "TARGET_MODEL");
    expect(echoes.map((message) => message["stepUpdate"].text)).toEqual([
      "Standard text prompt",
      "",
      "",
      "Context text instruction.",
      "/plan",
      "hello",
      "trigger content",
    ]);
    expect(echoes.at(-1)!["stepUpdate"].source).toBe("SOURCE_SYSTEM");
  });

  it("emits compaction steps (scripted and past the compaction threshold)", async () => {
    const { conversation } = await open(configFor("compaction"));
    conversation.send({ userInput: "compact" });
    expectOrderedShapes(expected("inputs_triggers_compaction.json", 7), await conversation.untilIdle());
    const auto = await open(configFor("plain", { compactionThreshold: 10 }));
    auto.conversation.send({ userInput: "a long message that easily passes a ten token threshold once counted" });
    await auto.conversation.untilIdle();
    auto.conversation.send({ userInput: "next" });
    expectOrderedShapes(expected("inputs_triggers_compaction.json", 7), await auto.conversation.untilIdle());
  });

  it("reproduces the 0.1.10 crash on a trigger into an empty conversation when the quirk is on", async () => {
    const crashing = await spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_TRIGGER_CRASH: "1" } });
    const conversation = await crashing.connect();
    await conversation.init(configFor("plain"));
    conversation.send(clientMessage("inputs_triggers_compaction.json", 6));
    const exit = await crashing.exited;
    expect(exit.code).toBe(2);
    expect(crashing.stderr()).toContain("earliest step index is out of bounds: 0 vs 0");
    await conversation.closed;
  });
});

describe("structured_output.json", () => {
  it("ends the turn with a finish step whose outputString follows finishToolSchemaJson", async () => {
    const schema = { type: "object", properties: { total_revenue: { type: "number" }, top_selling_product: { type: "string" } }, required: ["total_revenue", "top_selling_product"] };
    const { conversation } = await open(configFor("plain", { finishToolSchemaJson: JSON.stringify(schema) }));
    conversation.send({ userInput: "report for Widget A" });
    const turn = await conversation.untilIdle();
    const [index] = expectOrderedShapes(expected("structured_output.json", 1), turn);
    const output = JSON.parse(turn[index!]!["stepUpdate"].finish.outputString);
    expect(typeof output.total_revenue).toBe("number");
    expect(typeof output.top_selling_product).toBe("string");
  });
});

describe("cold_resume.json", () => {
  it("persists on shutdown and returns the history, with usage, on RESUME in a new process", async () => {
    const storageDirectory = mkdtempSync(join(tmpdir(), "emulator-resume-"));
    const first = await spawnEmulator({ input: { storageDirectory }, env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10" } });
    const conversation = await first.connect();
    const init = await conversation.init(configFor("custom", { tools: [{ name: "my_custom_tool", parametersJsonSchema: "{}" }] }));
    const cascadeId = init["initializeConversationResponse"].cascadeId as string;
    conversation.send({ userInput: "history" });
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: '{"result": "ok"}' } });
    await conversation.untilIdle();
    await conversation.close();
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);

    const second = await spawnEmulator({ input: { storageDirectory }, env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10" } });
    try {
      const resumed = await second.connect();
      const resumeConfig = clientMessage("cold_resume.json", 1, (json) => {
        json.config.cascadeId = cascadeId;
        json.config.models = configFor("custom")["models"];
      }).config;
      const response = await resumed.init(resumeConfig);
      expectOrderedShapes(expected("cold_resume.json", 2), [response]);
      const history = response["initializeConversationResponse"].history as Message[];
      expect(history.find((step) => step["customTool"])?.["customTool"].toolResponse.responseJson).toBe('{"result": "ok"}');
      expect(history.some((step) => step["source"] === "SOURCE_USER" && step["text"] === "history")).toBe(true);
      expect(history.some((step) => step["textDelta"] !== undefined)).toBe(false);
      resumed.send({ userInput: "and now?" });
      const next = await resumed.untilIdle();
      const indices = next.filter((message) => message["stepUpdate"]).map((message) => message["stepUpdate"].stepIndex as number);
      expect(Math.min(...indices)).toBeGreaterThan(Math.max(...history.map((step) => step["stepIndex"] as number)));
      await resumed.close();

      const unknown = await second.connect();
      unknown.send({ config: { ...resumeConfig, cascadeId: "0".repeat(32) } });
      const refused = await unknown.closed;
      expect(refused.code).toBe(1011);
      expect(refused.reason).toContain("RESUME");
      const exists = await second.connect();
      exists.send({ config: { ...resumeConfig, sessionContinuationMode: "CREATE_ONLY" } });
      expect((await exists.closed).reason).toContain("CREATE_ONLY");
      const lenient = await second.connect();
      const fresh = await lenient.init({ ...resumeConfig, cascadeId: "f".repeat(32), sessionContinuationMode: "SESSION_CONTINUATION_MODE_UNSPECIFIED" });
      expect(fresh["initializeConversationResponse"]).toEqual({ cascadeId: "f".repeat(32) });
      await lenient.close();
    } finally {
      await second.stop();
    }
  });
});
