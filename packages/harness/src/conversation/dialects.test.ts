import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeHarness, INIT_RESPONSE, MAIN, idle, type FakeConnection } from "../../test/support/fake-harness.js";
import { HarnessError } from "../errors/harness-error.js";
import { PROTOCOL_DIALECTS } from "../protocol/harness-versions.js";
import { checkWireMessage } from "../protocol/strict-check.js";
import { Conversation } from "./conversation.js";
import type { ConversationConfig } from "./conversation-config.js";

/*
 * What the client sends, release by release (docs/protocol.md, "Versions"): every frame kind it can
 * send is produced by the real conversation against a fake harness and checked with the strict parser
 * of the release it speaks; the same frames fail under a release that lacks one of their fields.
 */

let fake: FakeHarness;
const open: Conversation[] = [];

beforeEach(async () => {
  fake = await FakeHarness.start();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((conversation) => conversation.close()));
  await fake.close();
});

async function openConversation(harnessVersion: string, config: ConversationConfig = {}): Promise<{ conversation: Conversation; connection: FakeConnection }> {
  const connecting = fake.nextConnection();
  const opening = Conversation.open(fake.host({ harnessVersion }), { workspaces: ["/tmp"], ...config });
  const connection = await connecting;
  await connection.next("config");
  connection.send(INIT_RESPONSE);
  const conversation = await opening;
  open.push(conversation);
  return { conversation, connection };
}

/** A conversation that answers every kind of callback: each one produces a different outbound frame. */
function everyCallback(harnessVersion: string): ConversationConfig {
  const newer = (version: string): boolean => Number(harnessVersion.split(".")[2]) >= Number(version.split(".")[2]);
  return {
    customTools: [{ name: "lookup", description: "Looks things up.", parameters: { type: "object" }, handler: () => ({ found: true }) }],
    policies: [{ tool: "lookup", decision: "confirm" }],
    sendPoliciesToHarness: newer("0.1.10"),
    subagents: [{ name: "helper", description: "Helps." }],
    builtinTools: ["list_directory", "ask_question", ...(newer("0.1.13") ? (["manage_task", "schedule"] as const) : [])],
    hooks: {
      preTurn: () => ({ decision: "allow" }),
      postTurn: () => undefined,
      preTool: () => ({ decision: "allow", arguments: { query: "edited", n: 2, deep: { on: true }, list: [1, "a"] } }),
      postTool: () => undefined,
      onToolError: () => ({ message: "replaced" }),
      sessionStart: () => undefined,
      sessionEnd: () => undefined,
      onQuestions: () => ({ answers: [{ selected: [0] }] }),
      onConfirmation: () => true,
      ...(newer("0.1.14") ? { onCompaction: () => undefined } : {}),
      ...(newer("0.1.16") ? { stop: () => ({ decision: "continue" as const, reason: "the tests still fail" }) } : {}),
    },
    triggers: [{ message: "tick", intervalMs: 10 }],
    ...(newer("0.1.11") ? { budget: { maxModelCalls: 5, maxTotalTokens: 1_000_000 }, maxSubagentDepth: 2, endpoint: { type: "vertex" as const, project: "p", location: "l", apiKey: "k" } } : {}),
    ...(newer("0.1.17") ? { compaction: { tokenThreshold: 1000 }, rules: ["AGENTS.md"], runCommand: { maxTimeoutMs: 1000, executionMode: "async" as const } } : {}),
    ...(newer("0.1.18") ? { autoPolicy: { model: "gemini-3.8-flash" }, subagents: [{ name: "helper", description: "Helps.", model: "gemini-3.8-flash" }] } : {}),
    ...(newer("0.1.21") ? { skills: { directories: ["/skills"], inline: [{ name: "tidy", description: "Tidies.", content: "Be tidy." }] } } : {}),
  };
}

/** Drives one conversation through every callback and returns every frame the client sent. */
async function everyOutboundFrame(harnessVersion: string): Promise<Record<string, unknown>[]> {
  const { conversation, connection } = await openConversation(harnessVersion, everyCallback(harnessVersion));
  const turn = conversation.send([{ text: "look" }, { media: { mimeType: "image/png", data: "AQID" } }, { slashCommand: "review" }]);
  await (harnessVersion === "0.1.8" || harnessVersion === "0.1.10" ? connection.next("complexUserInput") : connection.next("userInput", { where: (text) => text === "look" }));
  const callId = { callId: "c1" };
  const request = (requestId: string, type: string, args: Record<string, unknown>): void => connection.send({ callHookRequest: { requestId, type, ...args } });
  request("h1", "LIFECYCLE_HOOK_PRE_TURN", { preTurnArgs: { userInput: { parts: [{ text: "look" }] } } });
  request("h2", "LIFECYCLE_HOOK_PRE_TOOL", { preToolArgs: { toolName: "lookup", argumentsJson: "{}", ...callId } });
  request("h3", "LIFECYCLE_HOOK_POST_TOOL", { postToolArgs: { toolName: "lookup", result: "{}", ...callId } });
  request("h4", "LIFECYCLE_HOOK_ON_TOOL_ERROR", { onToolErrorArgs: { toolName: "lookup", errorMessage: "x", ...callId } });
  request("h5", "LIFECYCLE_HOOK_ON_SESSION_START", {});
  const newer = (version: string): boolean => Number(harnessVersion.split(".")[2]) >= Number(version.split(".")[2]);
  if (newer("0.1.14")) request("h6", "LIFECYCLE_HOOK_ON_COMPACTION", { onCompactionArgs: { trajectoryId: MAIN, stepIndex: 3, summary: "short" } });
  if (newer("0.1.16")) request("h7", "LIFECYCLE_HOOK_STOP", { stopArgs: { responseText: "done", trajectoryId: MAIN, continuationCount: 0 } });
  if (newer("0.1.10")) connection.send({ policyDecisionRequest: { requestId: "p1", ruleId: "rule_0", toolArgs: { toolName: "lookup", argumentsJson: "{}", ...callId } } });
  connection.send({ toolCall: { id: "c1", name: "lookup", argumentsJson: "{}" } });
  connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_WAITING_FOR_USER", questionsRequest: { questions: [{ multipleChoice: { question: "Which?", choices: ["a", "b"] } }] } } });
  connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 2, state: "STATE_WAITING_FOR_USER", listDirectory: { directoryPath: "/tmp" }, toolConfirmationRequest: {} } });
  const replies = ["callHookResponse", "policyDecisionResponse", "toolResponse", "questionResponse", "toolConfirmation"];
  for (const key of replies) if (key !== "policyDecisionResponse" || newer("0.1.10")) await connection.next(key);
  await new Promise((resolve) => setTimeout(resolve, 50));
  turn.cancel();
  await connection.next("haltRequest");
  connection.send(idle());
  await turn.result;
  await connection.next("automatedTrigger");
  connection.send(idle());
  const closing = conversation.close();
  await connection.next("sessionEndRequest");
  connection.send({ sessionEndResponse: true });
  await closing;
  return connection.received;
}

const kindOf = (frame: Record<string, unknown>): "InitializeConversationEvent" | "InputEvent" => ("config" in frame ? "InitializeConversationEvent" : "InputEvent");

describe("every frame the client sends, in every dialect", () => {
  for (const version of [...PROTOCOL_DIALECTS, "0.1.14"]) {
    it(`${version}: each parses under that release's strict parser`, async () => {
      const frames = await everyOutboundFrame(version);
      const kinds = new Set(frames.flatMap((frame) => Object.keys(frame)));
      for (const expected of ["config", "userInput", "callHookResponse", "toolResponse", "questionResponse", "toolConfirmation", "haltRequest", "automatedTrigger", "sessionEndRequest"]) {
        if (!(expected === "userInput" && version === "0.1.8") && !(expected === "userInput" && version === "0.1.10")) expect(kinds).toContain(expected);
      }
      for (const frame of frames) expect(checkWireMessage(kindOf(frame), frame, version), JSON.stringify(frame).slice(0, 300)).toEqual([]);
    });
  }

  it("the same frames fail under a release that lacks one of their fields", async () => {
    const refusedBy = async (spoken: string, older: string): Promise<string[]> => {
      const frames = await everyOutboundFrame(spoken);
      await Promise.all(open.splice(0).map((conversation) => conversation.close()));
      return frames.flatMap((frame) => checkWireMessage(kindOf(frame), frame, older).map((issue) => issue.path));
    };
    // 0.1.11's turn input, budget and behaviour under 0.1.10; 0.1.17's Struct edit under 0.1.16; 0.1.21's skills under 0.1.18.
    expect(await refusedBy("0.1.11", "0.1.10")).toEqual(expect.arrayContaining(["InputEvent.userInput", "InitializeConversationEvent.config.budgetConfig", "InitializeConversationEvent.config.agentBehavior"]));
    expect(await refusedBy("0.1.17", "0.1.16")).toEqual(expect.arrayContaining(["InputEvent.callHookResponse.preToolResult.modifiedArgs", "InitializeConversationEvent.config.compactionConfig"]));
    expect(await refusedBy("0.1.10", "0.1.17")).toEqual(expect.arrayContaining(["InputEvent.complexUserInput", "InputEvent.callHookResponse.preToolResult.modifiedArgumentsJson"]));
    expect(await refusedBy("0.1.21", "0.1.18")).toEqual(expect.arrayContaining(["InitializeConversationEvent.config.skillsConfig"]));
  });
});

describe("options a release lacks", () => {
  it("are refused before anything is sent, naming the option and the first release that has it", async () => {
    const refused = await Conversation.open(fake.host({ harnessVersion: "0.1.10" }), { workspaces: ["/tmp"], budget: { maxToolCalls: 3 }, hooks: { stop: () => undefined } }).catch(
      (error: unknown) => error,
    );
    expect(HarnessError.isInstance(refused) && refused.code).toBe("CONFIG_INVALID");
    expect((refused as Error).message).toMatch(/budget needs harness 0\.1\.11 or newer; this harness speaks 0\.1\.10/);
    expect((refused as Error).message).toMatch(/hooks\.stop needs harness 0\.1\.16 or newer/);
    const workflow = await Conversation.open(fake.host({ harnessVersion: "0.1.18" }), { workspaces: ["/tmp"], builtinTools: ["run_workflow"], hooks: { preTool: () => undefined } }).catch(
      (error: unknown) => error,
    );
    expect((workflow as Error).message).toMatch(/builtinTools: run_workflow needs harness 0\.1\.21 or newer/);
    expect(fake.connections).toHaveLength(0);
  });

  it("defaults follow the release: the SDK's model, interactive when questions are answered, explicit toggles for the builtins it has", async () => {
    const { connection } = await openConversation("0.1.18", { hooks: { onQuestions: () => ({ cancelled: true }) } });
    const config = connection.received[0]?.config as Record<string, any>;
    expect(config.models[0].name).toBe("gemini-3.8-flash");
    expect(config.agentBehavior).toBe("AGENT_BEHAVIOR_INTERACTIVE");
    // The harness takes an absent toggle as enabled; 0.1.18 would otherwise schedule turns on its own.
    expect(config.harnessSideTools.schedule).toEqual({ enabled: false });
    expect(config.harnessSideTools.manageTask).toEqual({ enabled: false });
    expect(config.harnessSideTools.runWorkflow).toBeUndefined();
    const { connection: old } = await openConversation("0.1.10", { hooks: { onQuestions: () => ({ cancelled: true }) } });
    const oldConfig = old.received[0]?.config as Record<string, any>;
    expect(oldConfig.models[0].name).toBe("gemini-3.6-flash");
    expect(oldConfig.agentBehavior).toBeUndefined();
    expect(oldConfig.harnessSideTools.schedule).toBeUndefined();
  });
});

describe("what the harness learned after 0.1.10", () => {
  it("a budget stop fails the turn with BUDGET_EXCEEDED and its partial text; a quota stop with QUOTA_EXHAUSTED", async () => {
    const { conversation, connection } = await openConversation("0.1.21");
    const turn = conversation.send("work");
    await connection.next("userInput");
    connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_ACTIVE", source: "SOURCE_MODEL", target: "TARGET_USER", text: "half an ans" } });
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_FULLY_IDLE", stopReason: "STOP_REASON_MAX_TOOL_CALLS_EXCEEDED" } });
    const error = await turn.result.catch((caught: unknown) => caught);
    expect(HarnessError.isInstance(error) && error.code).toBe("BUDGET_EXCEEDED");
    expect((error as HarnessError).subject).toBe("STOP_REASON_MAX_TOOL_CALLS_EXCEEDED");
    expect((error as HarnessError).partialText).toBe("half an ans");
    expect((error as Error).message).toContain("max tool calls");
    const quota = conversation.send("again");
    await connection.next("userInput", { where: (text) => text === "again" });
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_FULLY_IDLE", stopReason: "STOP_REASON_QUOTA_EXHAUSTED", error: "quota", errorCode: "RESOURCE_EXHAUSTED" } });
    expect(await quota.result.catch((caught: unknown) => (caught as HarnessError).code)).toBe("QUOTA_EXHAUSTED");
  });

  it("waiting for subagents is not a turn end; an errorCode is kept on TURN_FAILED", async () => {
    const { conversation, connection } = await openConversation("0.1.21");
    const turn = conversation.send("delegate");
    await connection.next("userInput");
    connection.send({ stepUpdate: { trajectoryId: MAIN, stepIndex: 1, state: "STATE_DONE", source: "SOURCE_MODEL", target: "TARGET_USER", text: "waiting" } });
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_WAITING_FOR_SUBAGENTS" } });
    const early = await Promise.race([turn.result.then(() => "ended"), new Promise((resolve) => setTimeout(() => resolve("still running"), 300))]);
    expect(early).toBe("still running");
    connection.send({ trajectoryStateUpdate: { trajectoryId: MAIN, state: "STATE_FULLY_IDLE", error: "model overloaded", errorCode: "UNAVAILABLE" } });
    const error = (await turn.result.catch((caught: unknown) => caught)) as HarnessError;
    expect([error.code, error.subject]).toEqual(["TURN_FAILED", "UNAVAILABLE"]);
  });

  it("a STOP hook answered continue goes back as CONTINUE with its reason; without a hook the agent may stop", async () => {
    const seen: unknown[] = [];
    const { connection } = await openConversation("0.1.18", {
      hooks: {
        stop: (args) => {
          seen.push(args);
          return args.continuationCount === 0 ? { decision: "continue", reason: "the tests still fail" } : { decision: "stop" };
        },
        onCompaction: (args) => void seen.push(args),
      },
    });
    expect(connection.received[0]?.config).toMatchObject({ enabledHooks: ["LIFECYCLE_HOOK_ON_COMPACTION", "LIFECYCLE_HOOK_STOP"] });
    connection.send({ callHookRequest: { requestId: "s1", type: "LIFECYCLE_HOOK_STOP", stopArgs: { responseText: "done?", trajectoryId: MAIN, continuationCount: 0 } } });
    expect((await connection.next("callHookResponse")).callHookResponse).toEqual({ requestId: "s1", stopResult: { decision: "CONTINUE", reason: "the tests still fail" } });
    connection.send({ callHookRequest: { requestId: "s2", type: "LIFECYCLE_HOOK_STOP", stopArgs: { responseText: "done", trajectoryId: MAIN, continuationCount: 1, stopReason: "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED" } } });
    expect((await connection.next("callHookResponse", { where: (body) => body.requestId === "s2" })).callHookResponse.stopResult.decision).toBe("ALLOW_STOP");
    connection.send({ callHookRequest: { requestId: "c1", type: "LIFECYCLE_HOOK_ON_COMPACTION", onCompactionArgs: { trajectoryId: MAIN, stepIndex: "4", summary: "we talked" } } });
    expect((await connection.next("callHookResponse", { where: (body) => body.requestId === "c1" })).callHookResponse).toEqual({ requestId: "c1", emptyResult: {} });
    expect(seen).toEqual([
      { conversationId: MAIN, trajectoryId: MAIN, responseText: "done?", errorMessage: "", continuationCount: 0 },
      { conversationId: MAIN, trajectoryId: MAIN, responseText: "done", errorMessage: "", continuationCount: 1, stopReason: "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED" },
      { conversationId: MAIN, trajectoryId: MAIN, stepIndex: 4, summary: "we talked" },
    ]);
  });

  it("tool calls sent as a Struct without argumentsJson reach the handler with their arguments and trajectory", async () => {
    const calls: unknown[] = [];
    const { connection } = await openConversation("0.1.21", {
      customTools: [{ name: "lookup", description: "d", parameters: { type: "object" }, handler: (args, context) => void calls.push([args, context.trajectoryId]) }],
    });
    connection.send({ toolCall: { id: "c1", name: "lookup", trajectoryId: "sub-1", arguments: { fields: [{ name: "city", value: { stringValue: "Paris" } }, { name: "days", value: { numberValue: 3 } }] } } });
    await connection.next("toolResponse");
    expect(calls).toEqual([[{ city: "Paris", days: 3 }, "sub-1"]]);
  });

  it("reports per-modality usage and the sandbox status", async () => {
    const connecting = fake.nextConnection();
    const opening = Conversation.open(fake.host(), { workspaces: ["/tmp"] });
    const connection = await connecting;
    await connection.next("config");
    connection.send({ initializeConversationResponse: { cascadeId: MAIN, sandboxStatus: { available: false, unavailableReason: "no bwrap" } } });
    const conversation = await opening;
    open.push(conversation);
    expect(conversation.sandboxStatus).toEqual({ available: false, unavailableReason: "no bwrap" });
    connection.send({
      usageUpdate: { total: { promptTokenCount: "10", promptTokensDetails: [{ modality: "TEXT", tokenCount: "7" }, { modality: "IMAGE", tokenCount: "3" }] } },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(conversation.usage.byModality).toEqual({ prompt: { TEXT: 7, IMAGE: 3 } });
  });
});

describe("protocol skew", () => {
  it("a parse error on the harness's stderr fails the turn whose frame it was with PROTOCOL_SKEW, at once", async () => {
    const { conversation, connection } = await openConversation("0.1.10");
    const turn = conversation.send("hello");
    await connection.next("userInput");
    const started = Date.now();
    fake.skew.onStderrLine('2026/10/20 Failed to parse input event: proto: (line 1:14): invalid value for string field userInput: "hello"');
    const error = (await turn.result.catch((caught: unknown) => caught)) as HarnessError;
    expect(error.code).toBe("PROTOCOL_SKEW");
    expect(error.subject).toBe("userInput");
    expect(error.message).toContain("invalid value for string field userInput");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a refused init fails the open with PROTOCOL_SKEW naming the field", async () => {
    const connecting = fake.nextConnection();
    const opening = Conversation.open(fake.host({ harnessVersion: "0.1.18" }), { workspaces: ["/tmp"], hooks: { stop: () => undefined } });
    const connection = await connecting;
    await connection.next("config");
    fake.skew.onStderrLine('Failed to parse initial message: proto: (line 1:220): invalid value for enum field enabledHooks: "LIFECYCLE_HOOK_STOP"');
    const error = (await opening.catch((caught: unknown) => caught)) as HarnessError;
    expect([error.code, error.subject]).toEqual(["PROTOCOL_SKEW", "enabledHooks"]);
  });

  it("other stderr lines are not skew", () => {
    expect(fake.skew.onStderrLine("2026/10/20 model call took 2.1s")).toBeUndefined();
    expect(fake.skew.onStderrLine("proto buffers are great")).toBeUndefined();
  });
});

describe("checkConversationConfig", () => {
  it("refuses without a harness what the open would refuse for that release", async () => {
    const { checkConversationConfig } = await import("./check-conversation-config.js");
    await expect(checkConversationConfig({ budget: { maxToolCalls: 2 } }, "0.1.10")).rejects.toThrow(/budget needs harness 0\.1\.11 or newer/);
    await expect(checkConversationConfig({ builtinTools: ["run_command"] }, "0.1.21")).rejects.toThrow(/add policies or a hooks\.preTool/);
    await expect(checkConversationConfig({ budget: { maxToolCalls: 2 } }, "0.1.11")).resolves.toBeUndefined();
  });
});
