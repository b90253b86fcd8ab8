import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeHarness, INIT_RESPONSE, MAIN, idle, textStep, type FakeConnection } from "../../test/support/fake-harness.js";
import { expectNoLeaks, takeLeakBaseline, type LeakBaseline } from "../../test/support/leak-check.js";
import { HarnessError } from "../errors/harness-error.js";
import type { WireRecord } from "../observability/wire-record.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import { Conversation } from "./conversation.js";
import type { ConversationConfig } from "./conversation-config.js";

let fake: FakeHarness;
let baseline: LeakBaseline;
const open: Conversation[] = [];

beforeEach(async () => {
  baseline = takeLeakBaseline();
  fake = await FakeHarness.start();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((conversation) => conversation.close()));
  await fake.close();
  await expectNoLeaks(baseline);
});

async function openConversation(
  config: ConversationConfig = {},
  hostOptions: Parameters<FakeHarness["host"]>[0] = {},
): Promise<{ conversation: Conversation; connection: FakeConnection }> {
  const connecting = fake.nextConnection();
  const opening = Conversation.open(fake.host(hostOptions), { workspaces: ["/tmp"], ...config });
  const connection = await connecting;
  await connection.next("config");
  connection.send(INIT_RESPONSE);
  const conversation = await opening;
  open.push(conversation);
  return { conversation, connection };
}

async function collect(turn: AsyncIterable<NormalizedStep>): Promise<NormalizedStep[]> {
  const steps: NormalizedStep[] = [];
  for await (const step of turn) steps.push(step);
  return steps;
}

describe("Conversation init", () => {
  it("presents the harness token, sends the HarnessConfig first and takes the id from the init response", async () => {
    const { conversation, connection } = await openConversation({ model: "emulator:demo", apiKey: "AIza-secret-key-000" });
    expect(connection.headers["x-goog-api-key"]).toBe(fake.token);
    const config = connection.received[0]?.config;
    expect(config.models[0]).toMatchObject({ name: "emulator:demo", types: ["MODEL_TYPE_TEXT"], geminiApiEndpoint: { apiKey: "AIza-secret-key-000" } });
    expect(config.harnessSideTools.runCommand).toEqual({ enabled: false });
    expect(config.harnessSideTools.listDir).toEqual({ enabled: true });
    expect(conversation.id).toBe(MAIN);
  });

  it("fails with INIT_FAILED carrying the stderr tail when the harness closes the socket during init", async () => {
    const connecting = fake.nextConnection();
    const opening = Conversation.open(fake.host({ stderr: ["no text model configuration provided"] }), { workspaces: ["/tmp"] });
    const connection = await connecting;
    await connection.next("config");
    connection.socket.close();
    const error = await opening.catch((caught: unknown) => caught);
    expect(HarnessError.isInstance(error) && error.code).toBe("INIT_FAILED");
    expect((error as HarnessError).stderrTail).toEqual(["no text model configuration provided"]);
  });

  it("rejects an invalid config with CONFIG_INVALID naming the field, before connecting", async () => {
    const error = await Conversation.open(fake.host(), { customTools: [{ name: "bad name", description: "d", parameters: {}, handler: () => 1 }] }).catch(
      (caught: unknown) => caught,
    );
    expect(HarnessError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toContain("customTools.0.name");
    expect(fake.connections).toHaveLength(0);
  });
});

describe("turns", () => {
  it("streams normalized steps with deltas and resolves with the answer and per-turn usage", async () => {
    const { conversation, connection } = await openConversation();
    connection.send({ usageUpdate: { total: { promptTokenCount: "100", candidatesTokenCount: "10", totalTokenCount: "110" } } });
    while (conversation.usage.totalTokens !== 110) await new Promise((resolve) => setTimeout(resolve, 10));
    const turn = conversation.send("hello");
    await connection.next("userInput");
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_RUNNING" } });
    connection.send(textStep(1, "STATE_ACTIVE", "Hel", { textDelta: "Hel" }));
    connection.send(textStep(1, "STATE_DONE", "Hello", { textDelta: "lo" }));
    connection.send({ usageUpdate: { total: { promptTokenCount: "150", candidatesTokenCount: "30", totalTokenCount: "180" } } });
    connection.send(idle());
    const steps = await collect(turn);
    const result = await turn.result;
    expect(steps.map((step) => step.textDelta).join("")).toBe("Hello");
    expect(steps.every((step) => step.event !== undefined && step.isMainTrajectory)).toBe(true);
    expect(result.text).toBe("Hello");
    expect(result.usage).toMatchObject({ promptTokens: 50, candidatesTokens: 20, totalTokens: 70 });
    expect(result.cumulativeUsage.totalTokens).toBe(180);
    expect(conversation.usage.totalTokens).toBe(180);
  });

  it("throws TURN_BUSY for a second concurrent send", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("one");
    expect(() => conversation.send("two")).toThrow(expect.objectContaining({ code: "TURN_BUSY" }));
    await connection.next("userInput");
    connection.send(idle());
    await turn.result;
    const next = conversation.send("three");
    await connection.next("userInput", { where: (text) => text === "three" });
    connection.send(idle());
    await expect(next.result).resolves.toMatchObject({ cancelled: false });
  });

  it("keeps a step that arrives after an idle (idle → step → idle) in the turn", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("race");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_ACTIVE", "par"));
    connection.send(idle());
    connection.send(textStep(1, "STATE_DONE", "partial done"));
    connection.send(idle());
    const steps = await collect(turn);
    expect((await turn.result).text).toBe("partial done");
    expect(steps.at(-1)?.text).toBe("partial done");
  });

  it("ends the turn on the final idle at once; a step after it opens the next turn", async () => {
    const { conversation, connection } = await openConversation();
    const first = conversation.send("one");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_DONE", "first answer"));
    connection.send(idle());
    // Sent right behind the idle: a settle delay would have taken it into the first turn.
    connection.send(textStep(2, "STATE_DONE", "late"));
    const firstSteps = await collect(first);
    expect(firstSteps.map((step) => step.text)).toEqual(["first answer"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = conversation.send("two");
    await connection.next("userInput", { where: (text) => text === "two" });
    connection.send(textStep(3, "STATE_DONE", "second answer"));
    connection.send(idle());
    expect((await collect(second)).map((step) => step.text)).toEqual(["late", "second answer"]);
  });

  it("an idle while a tool call is being answered is interim: the turn waits for the harness to go on", async () => {
    let release!: () => void;
    const parked = new Promise<void>((resolve) => (release = resolve));
    const { conversation, connection } = await openConversation({
      customTools: [{ name: "slow", description: "waits", parameters: { type: "object" }, handler: async () => (await parked, "done") }],
    });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ toolCall: { id: "c1", name: "slow", argumentsJson: "{}" } });
    connection.send(idle());
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await connection.next("toolResponse");
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_RUNNING" } });
    connection.send(textStep(2, "STATE_DONE", "after the tool"));
    connection.send(idle());
    expect((await collect(turn)).map((step) => step.text)).toEqual(["after the tool"]);
    await expect(turn.result).resolves.toMatchObject({ text: "after the tool" });
  });

  it("with a post-turn hook, the turn ends once the hook the harness owes after its idle is answered", async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const { conversation, connection } = await openConversation({
      hooks: { postTurn: async ({ responseText }) => (calls.push(responseText), await answered) },
    });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_DONE", "answer"));
    connection.send(idle());
    connection.send({ callHookRequest: { requestId: "p1", type: "LIFECYCLE_HOOK_POST_TURN", postTurnArgs: { responseText: "answer" } } });
    let settled = false;
    void turn.result.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toEqual(["answer"]);
    expect(settled).toBe(false);
    release();
    await expect(turn.result).resolves.toMatchObject({ text: "answer" });
    await connection.next("callHookResponse");
  });

  it("a late duplicate idle from the previous turn does not end the next one", async () => {
    const { conversation, connection } = await openConversation();
    const first = conversation.send("one");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_DONE", "first answer"));
    connection.send(idle());
    await first.result;
    const second = conversation.send("two");
    await connection.next("userInput", { where: (text) => text === "two" });
    connection.send(idle());
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.send(textStep(2, "STATE_DONE", "second answer"));
    connection.send(idle());
    await expect(second.result).resolves.toMatchObject({ text: "second answer" });
  });

  it("does not end the turn on a subagent's idle", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("delegate");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_DONE", "Invoking", { invokeSubagent: {} }));
    connection.send({ trajectoryStateUpdate: { trajectoryId: "sub", state: "STATE_RUNNING" } });
    connection.send({ stepUpdate: { trajectoryId: "sub", stepIndex: 0, state: "STATE_DONE", source: "SOURCE_MODEL", target: "TARGET_USER", text: "sub answer" } });
    connection.send(idle("sub"));
    await new Promise((resolve) => setTimeout(resolve, 250));
    let settled = false;
    void turn.result.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    connection.send(textStep(2, "STATE_DONE", "parent answer"));
    connection.send(idle());
    const steps = await collect(turn);
    expect(steps.find((step) => step.trajectoryId === "sub")?.isMainTrajectory).toBe(false);
    expect((await turn.result).text).toBe("parent answer");
  });

  it("fails with TURN_FAILED when the main trajectory goes idle with an error", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("x");
    await connection.next("userInput");
    connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_ERROR", source: "SOURCE_SYSTEM", error: { errorMessage: "Resource exhausted", httpCode: 429 } } });
    connection.send(idle(MAIN, { error: "executor run failed: Resource exhausted" }));
    const steps: NormalizedStep[] = [];
    const error = await (async () => {
      for await (const step of turn) steps.push(step);
    })().catch((caught: unknown) => caught);
    expect(steps[0]?.error).toEqual({ message: "Resource exhausted", httpCode: 429 });
    expect(HarnessError.isInstance(error) && error.code).toBe("TURN_FAILED");
    await expect(turn.result).rejects.toMatchObject({ code: "TURN_FAILED", message: expect.stringContaining("Resource exhausted") });
  });

  it("fails with MCP_LOAD_FAILED naming the server when the harness could not load an MCP server", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("x");
    await connection.next("userInput");
    connection.send(idle(MAIN, { error: "MCP load failed for dead_server: connection refused" }));
    await expect(turn.result).rejects.toMatchObject({ code: "MCP_LOAD_FAILED", subject: "dead_server", message: 'MCP server "dead_server" failed to load: connection refused' });
  });

  it("yields a SYSTEM 401 error step and then raises TURN_FAILED", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("x");
    await connection.next("userInput");
    connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_ERROR", source: "SOURCE_SYSTEM", error: { errorMessage: "API key not valid", httpCode: 401 } } });
    connection.send(idle());
    const steps: NormalizedStep[] = [];
    await expect(
      (async () => {
        for await (const step of turn) steps.push(step);
      })(),
    ).rejects.toMatchObject({ code: "TURN_FAILED", message: expect.stringContaining("401") });
    expect(steps).toHaveLength(1);
    expect(steps[0]?.status).toBe("error");
  });

  it("reports a pre-turn denial (STATE_CANCELLED) as CANCELLED", async () => {
    const { conversation, connection } = await openConversation({ hooks: { preTurn: () => ({ decision: "deny", reason: "Denied by hook" }) } });
    expect(connection.received[0]?.config.enabledHooks).toEqual(["LIFECYCLE_HOOK_PRE_TURN"]);
    const turn = conversation.send("Hello");
    await connection.next("userInput");
    connection.send({ callHookRequest: { requestId: "req_deny", name: "PreTurn", type: "LIFECYCLE_HOOK_PRE_TURN", preTurnArgs: { userInput: { parts: [{ text: "Hello" }] } } } });
    const reply = await connection.next("callHookResponse");
    expect(reply.callHookResponse).toEqual({ requestId: "req_deny", preTurnResult: { decision: "DENY", reason: "Denied by hook" } });
    connection.send({ trajectoryStateUpdate: { trajectoryId: "test", state: "STATE_CANCELLED", error: "Denied by hook" } });
    await expect(turn.result).rejects.toMatchObject({ code: "CANCELLED", message: expect.stringContaining("Denied by hook") });
  });

  it("cancel() sends haltRequest and keeps the partial text", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("Hello");
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_ACTIVE", "I'm working"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    turn.cancel();
    await connection.next("haltRequest");
    connection.send(idle());
    await expect(turn.result).resolves.toMatchObject({ cancelled: true, text: "I'm working" });
  });

  it("an aborted signal cancels the turn like cancel()", async () => {
    const { conversation, connection } = await openConversation();
    const controller = new AbortController();
    const turn = conversation.send("Hello", { signal: controller.signal });
    await connection.next("userInput");
    connection.send(textStep(1, "STATE_ACTIVE", "partial"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await connection.next("haltRequest");
    connection.send(idle());
    await expect(turn.result).resolves.toMatchObject({ cancelled: true, text: "partial" });
    const already = conversation.send("never sent", { signal: AbortSignal.abort() });
    await expect(already.result).resolves.toMatchObject({ cancelled: true, text: "" });
    expect(connection.count("userInput")).toBe(1);
  });

  it("a timeout halts, drains and raises TIMEOUT; the next turn works", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("slow", { timeoutMs: 200 });
    await connection.next("userInput");
    await connection.next("haltRequest");
    connection.send(idle());
    await expect(turn.result).rejects.toMatchObject({ code: "TIMEOUT" });
    const next = conversation.send("fast");
    await connection.next("userInput", { where: (text) => text === "fast" });
    connection.send(textStep(2, "STATE_DONE", "ok"));
    connection.send(idle());
    await expect(next.result).resolves.toMatchObject({ text: "ok" });
  });

  it("rejects a running turn with CONNECTION_CLOSED when the socket drops", async () => {
    const { conversation, connection } = await openConversation({}, { stderr: ["panic: boom"] });
    const turn = conversation.send("x");
    await connection.next("userInput");
    const started = Date.now();
    connection.socket.terminate();
    const error = await turn.result.catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(HarnessError.isInstance(error) && error.code).toBe("CONNECTION_CLOSED");
    expect((error as HarnessError).stderrTail).toEqual(["panic: boom"]);
    await conversation.closed;
    expect(conversation.signal.aborted).toBe(true);
    expect(() => conversation.send("again")).toThrow(expect.objectContaining({ code: "CONNECTION_CLOSED" }));
  });

  it("close() during a turn rejects it with CONNECTION_CLOSED and refuses new turns", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("x");
    await connection.next("userInput");
    await conversation.close();
    await expect(turn.result).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(() => conversation.send("y")).toThrow(expect.objectContaining({ code: "CONNECTION_CLOSED" }));
    expect(fake.forgotten).toContain(conversation);
  });

  it("logs an unknown main-trajectory state instead of ending or hanging silently", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("x");
    await connection.next("userInput");
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_SOMETHING_NEW" } });
    connection.send(idle());
    await turn.result;
    expect(fake.logged.some((entry) => entry.level === "warn" && entry.message.includes("unknown state"))).toBe(true);
    expect(fake.drift.snapshot().enumValues.some((entry) => entry.value === "STATE_SOMETHING_NEW")).toBe(true);
  });

  it("0.1.11+: sends every turn input as userInput{parts}, text and media alike", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("hello");
    expect(await connection.next("userInput")).toEqual({ userInput: { parts: [{ text: "hello" }] } });
    connection.send(idle());
    await turn.result;
    const parts = conversation.send([{ text: "look" }, { media: { mimeType: "image/png", data: new Uint8Array([1, 2, 3]) } }]);
    const message = await connection.next("userInput", { where: (text) => text === "look" });
    expect(message.userInput.parts).toEqual([{ text: "look" }, { media: { mimeType: "image/png", data: "AQID" } }]);
    expect(connection.count("complexUserInput")).toBe(0);
    connection.send(idle());
    await parts.result;
  });

  it("0.1.10: sends a lone text part as plain userInput (the harness wraps text into a part itself); an empty one keeps its part", async () => {
    const { conversation, connection } = await openConversation({}, { harnessVersion: "0.1.10" });
    const turn = conversation.send([{ text: "hello" }]);
    expect(await connection.next("userInput")).toEqual({ userInput: "hello" });
    connection.send(idle());
    await turn.result;
    const empty = conversation.send([{ text: "" }]);
    expect((await connection.next("complexUserInput")).complexUserInput.parts).toEqual([{ text: "" }]);
    connection.send(idle());
    await empty.result;
  });

  it("0.1.10: sends text and media parts as complexUserInput", async () => {
    const { conversation, connection } = await openConversation({}, { harnessVersion: "0.1.10" });
    const turn = conversation.send([{ text: "look" }, { media: { mimeType: "image/png", data: new Uint8Array([1, 2, 3]) } }]);
    const message = await connection.next("complexUserInput");
    expect(message.complexUserInput.parts).toEqual([{ text: "look" }, { media: { mimeType: "image/png", data: "AQID" } }]);
    connection.send(idle());
    await turn.result;
  });
});

describe("custom tools", () => {
  it("runs the handler and wraps non-object results; errors and unknown tools reach the model as tool errors", async () => {
    const { conversation, connection } = await openConversation({
      customTools: [
        { name: "get_weather", description: "weather", parameters: { type: "object" }, handler: (args) => `sunny in ${String(args.city)}` },
        { name: "lookup", description: "lookup", parameters: { type: "object" }, handler: () => ({ found: true }) },
        {
          name: "failing_tool",
          description: "fails",
          parameters: { type: "object" },
          handler: () => {
            throw new Error("Intentional failure");
          },
        },
      ],
    });
    expect(connection.received[0]?.config.tools[0]).toEqual({ name: "get_weather", description: "weather", parametersJsonSchema: '{"type":"object"}' });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ toolCall: { id: "abc", name: "get_weather", argumentsJson: '{"city":"SF"}' } });
    connection.send({ toolCall: { id: "abc", name: "get_weather", argumentsJson: '{"city":"SF"}' } });
    connection.send({ toolCall: { id: "obj", name: "lookup", argumentsJson: "" } });
    connection.send({ toolCall: { id: "call_fail", name: "failing_tool", argumentsJson: "{}" } });
    connection.send({ toolCall: { id: "nope", name: "missing", argumentsJson: "{}" } });
    const byId = async (id: string) => (await connection.next("toolResponse", { where: (body) => body.id === id })).toolResponse;
    expect(await byId("abc")).toEqual({ id: "abc", responseJson: '{"result":"sunny in SF"}' });
    expect(await byId("obj")).toEqual({ id: "obj", responseJson: '{"found":true}' });
    expect(await byId("call_fail")).toEqual({ id: "call_fail", errorMessage: "Intentional failure" });
    expect(await byId("nope")).toEqual({ id: "nope", errorMessage: "Unknown tool: 'missing'" });
    connection.send(idle());
    await turn.result;
    expect(connection.count("toolResponse")).toBe(4);
  });

  it("pauses the turn timeout while a handler is parked", async () => {
    let release!: () => void;
    const parked = new Promise<void>((resolve) => (release = resolve));
    const { conversation, connection } = await openConversation({
      turnTimeoutMs: 150,
      customTools: [{ name: "ask_human", description: "waits", parameters: { type: "object" }, handler: async () => (await parked, "yes") }],
    });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ toolCall: { id: "h1", name: "ask_human", argumentsJson: "{}" } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(connection.count("haltRequest")).toBe(0);
    release();
    await connection.next("toolResponse");
    connection.send(idle());
    await expect(turn.result).resolves.toMatchObject({ cancelled: false });
  });

  it("denies a call by policy and applies the pre-tool hook's modified arguments", async () => {
    const seen: unknown[] = [];
    const { conversation, connection } = await openConversation({
      policies: [{ tool: "secret_*", decision: "deny", reason: "no secrets" }],
      hooks: { preTool: ({ arguments: args }) => ({ decision: "allow", arguments: { ...args, extra: 1 } }) },
      customTools: [
        { name: "secret_read", description: "d", parameters: { type: "object" }, handler: () => "leak" },
        { name: "echo", description: "d", parameters: { type: "object" }, handler: (args) => (seen.push(args), args) },
      ],
    });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ toolCall: { id: "s", name: "secret_read", argumentsJson: "{}" } });
    connection.send({ toolCall: { id: "e", name: "echo", argumentsJson: '{"a":2}' } });
    expect((await connection.next("toolResponse", { where: (body) => body.id === "s" })).toolResponse).toEqual({
      id: "s",
      errorMessage: "Tool execution denied by policy: no secrets",
    });
    expect((await connection.next("toolResponse", { where: (body) => body.id === "e" })).toolResponse.responseJson).toBe('{"a":2,"extra":1}');
    connection.send(idle());
    await turn.result;
    expect(seen).toEqual([{ a: 2, extra: 1 }]);
  });
});

describe("hooks, questions, confirmations and policies", () => {
  it("answers PRE_TOOL from policies once per requestId, and a throwing hook as errorMessage", async () => {
    const { conversation, connection } = await openConversation({
      builtinTools: ["list_directory", "run_command"],
      policies: [
        { tool: "*", decision: "allow" },
        { tool: "run_command", decision: "deny", reason: "no shell" },
      ],
      hooks: {
        postTool: () => {
          throw new Error("post failed");
        },
      },
    });
    expect(connection.received[0]?.config.enabledHooks).toEqual(["LIFECYCLE_HOOK_PRE_TOOL", "LIFECYCLE_HOOK_POST_TOOL"]);
    const turn = conversation.send("go");
    await connection.next("userInput");
    const preTool = (requestId: string, toolName: string) => ({
      callHookRequest: { requestId, name: "PreTool", type: "LIFECYCLE_HOOK_PRE_TOOL", preToolArgs: { toolName, argumentsJson: "{}" } },
    });
    connection.send(preTool("r1", "run_command"));
    connection.send(preTool("r1", "run_command"));
    connection.send(preTool("r2", "list_directory"));
    connection.send({ callHookRequest: { requestId: "r3", type: "LIFECYCLE_HOOK_POST_TOOL", postToolArgs: { toolName: "list_directory", result: "{}", error: "" } } });
    const reply = async (id: string) => (await connection.next("callHookResponse", { where: (body) => body.requestId === id })).callHookResponse;
    expect(await reply("r1")).toEqual({ requestId: "r1", preToolResult: { decision: "DENY", reason: "no shell" } });
    expect(await reply("r2")).toEqual({ requestId: "r2", preToolResult: { decision: "ALLOW", reason: "" } });
    expect(await reply("r3")).toEqual({ requestId: "r3", errorMessage: "Hook failed: post failed" });
    connection.send(idle());
    await turn.result;
    expect(connection.count("callHookResponse")).toBe(3);
  });

  it("answers questions as unanswered with a warning by default, once per waiting step", async () => {
    const { conversation, connection } = await openConversation();
    const turn = conversation.send("ask me");
    await connection.next("userInput");
    const waiting = {
      stepUpdate: {
        trajectoryId: MAIN,
        stepIndex: 2,
        state: "STATE_WAITING_FOR_USER",
        questionsRequest: { questions: [{ multipleChoice: { question: "Which?", choices: ["A", "B"] } }] },
      },
    };
    connection.send(waiting);
    connection.send(waiting);
    const reply = await connection.next("questionResponse");
    expect(reply.questionResponse).toEqual({ trajectoryId: MAIN, stepIndex: 2, response: { answers: [{ unanswered: true }] } });
    connection.send(idle());
    await turn.result;
    expect(connection.count("questionResponse")).toBe(1);
    expect(fake.logged.some((entry) => entry.level === "warn" && entry.message.includes("questions"))).toBe(true);
  });

  it("passes onQuestions answers through", async () => {
    const { conversation, connection } = await openConversation({ hooks: { onQuestions: () => ({ answers: [{ selected: [1], freeform: "because" }] }) } });
    const turn = conversation.send("ask me");
    await connection.next("userInput");
    connection.send({
      stepUpdate: { trajectoryId: MAIN, stepIndex: 0, state: "STATE_WAITING_FOR_USER", questionsRequest: { questions: [{ multipleChoice: { question: "Q", choices: ["A", "B"] } }] } },
    });
    expect((await connection.next("questionResponse")).questionResponse.response).toEqual({
      answers: [{ multipleChoiceAnswer: { selectedChoiceIndices: [1], freeformResponse: "because" } }],
    });
    connection.send(idle());
    await turn.result;
  });

  it("accepts a pre-request confirmation and rejects a policy-denied builtin", async () => {
    const { conversation, connection } = await openConversation({ builtinTools: ["run_command"], policies: [{ tool: "run_command", decision: "deny" }] });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_WAITING_FOR_USER", toolConfirmationRequest: {} } });
    expect((await connection.next("toolConfirmation")).toolConfirmation).toEqual({ trajectoryId: MAIN, stepIndex: 1, accepted: true });
    connection.send({
      stepUpdate: { trajectoryId: MAIN, stepIndex: 2, state: "STATE_WAITING_FOR_USER", toolConfirmationRequest: {}, runCommand: { commandLine: "rm -rf /" } },
    });
    expect((await connection.next("toolConfirmation", { where: (body) => body.stepIndex === 2 })).toolConfirmation.accepted).toBe(false);
    connection.send(idle());
    await turn.result;
  });

  it("answers a dynamic policy request through the pre-tool hook, and denies an unknown rule id", async () => {
    const { conversation, connection } = await openConversation({
      sendPoliciesToHarness: true,
      builtinTools: ["run_command"],
      policies: [{ tool: "run_command", decision: "confirm" }],
      hooks: { preTool: ({ reason }) => (reason === "policy-confirm" ? { decision: "allow" } : { decision: "deny" }) },
    });
    expect(connection.received[0]?.config.policyConfig.rules[0]).toMatchObject({ tool: "run_command", decision: "POLICY_DECISION_ASK_USER", isDynamic: true, ruleId: "rule_0" });
    const turn = conversation.send("go");
    await connection.next("userInput");
    connection.send({ policyDecisionRequest: { requestId: "p1", ruleId: "rule_0", toolArgs: { toolName: "run_command", argumentsJson: "{}" } } });
    connection.send({ policyDecisionRequest: { requestId: "p2", ruleId: "rule_9", toolArgs: { toolName: "run_command", argumentsJson: "{}" } } });
    const reply = async (id: string) => (await connection.next("policyDecisionResponse", { where: (body) => body.requestId === id })).policyDecisionResponse;
    expect(await reply("p1")).toEqual({ requestId: "p1", outcome: "POLICY_EVALUATION_OUTCOME_ALLOW", denyReason: "" });
    expect(await reply("p2")).toEqual({ requestId: "p2", outcome: "POLICY_EVALUATION_OUTCOME_DENY", denyReason: "Unknown rule_id: rule_9" });
    connection.send(idle());
    await turn.result;
  });

  it("runs the session-end handshake on close when a sessionEnd hook is configured", async () => {
    let ended = false;
    const { conversation, connection } = await openConversation({ hooks: { sessionEnd: () => void (ended = true) } });
    const closing = conversation.close();
    await connection.next("sessionEndRequest");
    connection.send({ callHookRequest: { requestId: "end", type: "LIFECYCLE_HOOK_ON_SESSION_END" } });
    await connection.next("callHookResponse");
    connection.send({ sessionEndResponse: true });
    await closing;
    expect(ended).toBe(true);
    expect(conversation.signal.aborted).toBe(true);
  });
});

describe("triggers and harness-started turns", () => {
  it("never triggers before the first turn, then delivers observable trigger turns while idle", async () => {
    const { conversation, connection } = await openConversation({ triggers: [{ message: "tick", intervalMs: 40 }] });
    const seen: string[] = [];
    conversation.onTriggerTurn((turn) => seen.push(turn.origin));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(connection.count("automatedTrigger")).toBe(0);
    const turn = conversation.send("first");
    await connection.next("userInput");
    connection.send(idle());
    await turn.result;
    const iterator = conversation.triggerTurns[Symbol.asyncIterator]();
    const trigger = await connection.next("automatedTrigger");
    expect(trigger.automatedTrigger).toBe("tick");
    const triggered = (await iterator.next()).value;
    connection.send(textStep(5, "STATE_DONE", "tock"));
    connection.send(idle());
    await expect(triggered.result).resolves.toMatchObject({ origin: "trigger", text: "tock" });
    expect(seen[0]).toBe("trigger");
    await conversation.close();
  });

  it("queues a user turn behind a running trigger turn; a cancelled queued turn frees send at once", async () => {
    const { conversation, connection } = await openConversation({ triggers: [{ message: "tick", intervalMs: 30 }] });
    const first = conversation.send("first");
    await connection.next("userInput");
    connection.send(idle());
    await first.result;
    await connection.next("automatedTrigger");
    const cancelled = conversation.send("cancel me");
    expect(() => conversation.send("third")).toThrow(expect.objectContaining({ code: "TURN_BUSY" }));
    cancelled.cancel();
    await expect(cancelled.result).resolves.toMatchObject({ cancelled: true });
    await new Promise((resolve) => setImmediate(resolve));
    const queued = conversation.send("after the trigger");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connection.count("userInput")).toBe(1);
    connection.send(idle());
    await connection.next("userInput", { where: (text) => text === "after the trigger" });
    connection.send(textStep(7, "STATE_DONE", "queued answer"));
    connection.send(idle());
    await expect(queued.result).resolves.toMatchObject({ origin: "user", text: "queued answer" });
    expect(connection.received.some((message) => message.userInput === "cancel me")).toBe(false);
  });

  it("delivers steps that arrive with no turn running as a harness-started turn", async () => {
    const { conversation, connection } = await openConversation();
    const turns: Promise<unknown>[] = [];
    conversation.onTriggerTurn((turn) => turns.push(turn.result));
    connection.send(textStep(9, "STATE_DONE", "unprompted"));
    connection.send(idle());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(turns).toHaveLength(1);
    await expect(turns[0]).resolves.toMatchObject({ origin: "harness", text: "unprompted" });
  });
});

describe("observability", () => {
  it("redacts API keys and the harness token from inspector records", async () => {
    const records: WireRecord[] = [];
    await openConversation({ apiKey: "AIza-very-secret-key" }, { inspector: (record) => records.push(record) });
    const text = JSON.stringify(records);
    expect(records.some((record) => record.messageKey === "config")).toBe(true);
    expect(text).not.toContain("AIza-very-secret-key");
    expect(text).toContain("[REDACTED]");
  });
});
