// What the harness learned after 0.1.10, scripted (fixtures/scenarios/harness-features.json) and
// driven with raw frames: each feature in the release that has it, and absent from one that does not.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromGenaiStruct, toGenaiStruct, type GenaiStruct } from "@ag-ui-antigravity/harness/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFor, outboundViolations, reapLeaks, spawnEmulator, type EmulatorProcess, type Message, type RawConversation } from "./support/emulator-driver.js";

const emulators: Record<string, EmulatorProcess> = {};
const workspace = mkdtempSync(join(tmpdir(), "features-workspace-"));
const skillsDirectory = join(mkdtempSync(join(tmpdir(), "features-skills-")), "skills");

beforeAll(async () => {
  mkdirSync(join(skillsDirectory, "pdf-tools", "scripts"), { recursive: true });
  writeFileSync(join(skillsDirectory, "pdf-tools", "SKILL.md"), "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\nUse scripts/fill.py to fill a form.\n");
  writeFileSync(join(skillsDirectory, "pdf-tools", "scripts", "fill.py"), "print('filled')\n");
  mkdirSync(join(skillsDirectory, "release-notes"));
  writeFileSync(join(skillsDirectory, "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes.\n---\nList changes by user impact.\n");
  const [newest, v0118, v0114, v0110] = await Promise.all([
    spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0" } }),
    spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.18", ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0" } }),
    spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.14", ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0" } }),
    spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10", ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0" } }),
  ]);
  Object.assign(emulators, { "0.1.21": newest, "0.1.18": v0118, "0.1.14": v0114, "0.1.10": v0110 });
});

afterAll(async () => {
  for (const emulator of Object.values(emulators)) expect((await emulator.stop()).code).toBe(0);
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

async function open(version: string, extra: Record<string, unknown> = {}): Promise<RawConversation> {
  const conversation = await emulators[version]!.connect();
  await conversation.init(configFor("harness-features", { workspaces: [{ filesystemWorkspace: { directory: workspace } }], ...extra }));
  return conversation;
}

async function turnOf(conversation: RawConversation, text: string): Promise<Message[]> {
  conversation.say(text);
  return conversation.untilIdle();
}

const idleOf = (turn: Message[]): Record<string, unknown> => turn.at(-1)!["trajectoryStateUpdate"];
const steps = (turn: Message[]): Record<string, any>[] => turn.flatMap((message) => (message["stepUpdate"] === undefined ? [] : [message["stepUpdate"]]));
const answer = (turn: Message[]): string => steps(turn).filter((step) => step.state === "STATE_DONE" && step.source === "SOURCE_MODEL" && step.target === "TARGET_USER").at(-1)?.text ?? "";

describe("budgets (0.1.11) and the quota", () => {
  it.each([
    [{ maxModelCalls: 1 }, "many steps", "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED"],
    [{ maxToolCalls: 1 }, "many tools", "STOP_REASON_MAX_TOOL_CALLS_EXCEEDED"],
    [{ maxInputTokens: "1" }, "many steps", "STOP_REASON_MAX_INPUT_TOKENS_EXCEEDED"],
    [{ maxOutputTokens: "1" }, "many steps", "STOP_REASON_MAX_OUTPUT_TOKENS_EXCEEDED"],
    [{ maxTotalTokens: "1" }, "many steps", "STOP_REASON_MAX_TOTAL_TOKENS_EXCEEDED"],
  ])("%o stops the agent early with its stop reason, no error", async (budgetConfig, text, stopReason) => {
    const conversation = await open("0.1.21", { budgetConfig });
    const turn = await turnOf(conversation, text);
    expect(idleOf(turn)).toEqual({ trajectoryId: expect.any(String), state: "STATE_FULLY_IDLE", stopReason });
    // The call that would pass the limit is never made.
    expect(answer(turn)).not.toMatch(/Third step|Listed twice/);
    await conversation.close();
  });

  it("the quota running out ends the turn with the error, QUOTA_EXHAUSTED and (0.1.20) its code; 0.1.10 says only the error", async () => {
    const conversation = await open("0.1.21");
    const turn = await turnOf(conversation, "quota please");
    expect(steps(turn).some((step) => step.error?.httpCode === 429)).toBe(true);
    expect(idleOf(turn)).toMatchObject({ state: "STATE_FULLY_IDLE", stopReason: "STOP_REASON_QUOTA_EXHAUSTED", errorCode: "QUOTA_EXHAUSTED", error: expect.stringContaining("Resource exhausted") });
    const old = await open("0.1.10");
    const oldTurn = await turnOf(old, "quota please");
    expect(Object.keys(idleOf(oldTurn)).sort()).toEqual(["error", "state", "trajectoryId"]);
    await Promise.all([conversation.close(), old.close()]);
  });
});

describe("the STOP hook (0.1.16)", () => {
  it("CONTINUE makes the agent go on with the reason; ALLOW_STOP lets it stop", async () => {
    const conversation = await open("0.1.21", { enabledHooks: ["LIFECYCLE_HOOK_STOP"] });
    conversation.say("write the report");
    const first = await conversation.next((message) => message["callHookRequest"] !== undefined);
    expect(first["callHookRequest"]).toMatchObject({ type: "LIFECYCLE_HOOK_STOP", stopArgs: { responseText: "Here is the report.", continuationCount: 0 } });
    conversation.send({ callHookResponse: { requestId: first["callHookRequest"].requestId, stopResult: { decision: "CONTINUE", reason: "add a summary" } } });
    const second = await conversation.next((message) => message["callHookRequest"] !== undefined);
    expect(second["callHookRequest"].stopArgs).toMatchObject({ responseText: "Summary added, as asked: add a summary", continuationCount: 1 });
    conversation.send({ callHookResponse: { requestId: second["callHookRequest"].requestId, stopResult: { decision: "ALLOW_STOP" } } });
    const turn = await conversation.untilIdle();
    expect(idleOf(turn)).toEqual({ trajectoryId: expect.any(String), state: "STATE_FULLY_IDLE" });
    await conversation.close();
  });

  it("hears why a budget stopped the agent, and a CONTINUE cannot undo it", async () => {
    const conversation = await open("0.1.21", { enabledHooks: ["LIFECYCLE_HOOK_STOP"], budgetConfig: { maxModelCalls: 1 } });
    conversation.say("many steps");
    const hook = await conversation.next((message) => message["callHookRequest"] !== undefined);
    expect(hook["callHookRequest"].stopArgs).toMatchObject({ stopReason: "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED" });
    conversation.send({ callHookResponse: { requestId: hook["callHookRequest"].requestId, stopResult: { decision: "CONTINUE", reason: "go on" } } });
    expect(idleOf(await conversation.untilIdle())).toMatchObject({ stopReason: "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED" });
    await conversation.close();
  });
});

describe("compaction (0.1.14 hook)", () => {
  it("a compaction step, then ON_COMPACTION with the step and the summary", async () => {
    const conversation = await open("0.1.21", { enabledHooks: ["LIFECYCLE_HOOK_ON_COMPACTION"] });
    conversation.say("compact now");
    const hook = await conversation.next((message) => message["callHookRequest"] !== undefined);
    const compaction = steps(conversation.messages).find((step) => step.compaction !== undefined)!;
    expect(compaction).toMatchObject({ state: "STATE_DONE", source: "SOURCE_SYSTEM" });
    expect(hook["callHookRequest"]).toMatchObject({
      type: "LIFECYCLE_HOOK_ON_COMPACTION",
      onCompactionArgs: { trajectoryId: compaction.trajectoryId, stepIndex: compaction.stepIndex, summary: "The user asked to compact: compact now" },
    });
    conversation.send({ callHookResponse: { requestId: hook["callHookRequest"].requestId, emptyResult: {} } });
    expect(answer(await conversation.untilIdle())).toBe("Compacted.");
    await conversation.close();
  });
});

describe("skills (0.1.19)", () => {
  it("lists, looks up and reads the resources of SKILL.md directories from skillsConfig", async () => {
    const conversation = await open("0.1.21", { skillsConfig: { skills: [{ directoryPath: skillsDirectory }] } });
    const list = await turnOf(conversation, "list skills");
    expect(steps(list).find((step) => step.state === "STATE_DONE" && step.skillLookup)!.skillLookup).toEqual({
      operation: "OPERATION_LIST_SKILLS",
      requestedSkillNames: [],
      resolvedSkillNames: ["pdf-tools", "release-notes"],
    });
    expect(answer(list)).toContain("pdf-tools: Fill and merge PDF forms.");
    const lookup = await turnOf(conversation, "use pdf-tools on my form");
    expect(steps(lookup).find((step) => step.state === "STATE_DONE" && step.skillLookup)!.skillLookup).toMatchObject({ operation: "OPERATION_LOOKUP_SKILLS", requestedSkillNames: ["pdf-tools"], resolvedSkillNames: ["pdf-tools"] });
    expect(answer(lookup)).toContain("Use scripts/fill.py to fill a form.");
    expect(answer(await turnOf(conversation, "show the resources of pdf-tools"))).toBe("Resources: pdf-tools: scripts/fill.py");
    const missing = await turnOf(conversation, "missing skill");
    expect(steps(missing).find((step) => step.state === "STATE_DONE" && step.skillLookup)!.skillLookup).toMatchObject({ resolvedSkillNames: [], errorMessage: "skill not found: no-such-skill" });
    await conversation.close();
  });

  it("skillsConfig.enabled false turns them off; before 0.1.19 a lookup is a tool the model does not have", async () => {
    const off = await open("0.1.21", { skillsConfig: { enabled: false, skills: [{ directoryPath: skillsDirectory }] } });
    expect(answer(await turnOf(off, "list skills"))).toBe("Skills: (no skills)");
    const old = await open("0.1.14", { skillsPaths: [skillsDirectory] });
    const turn = await turnOf(old, "list skills");
    expect(steps(turn).find((step) => step.state === "STATE_ERROR")).toMatchObject({ errorMessage: 'Tool "skills" is not available' });
    await Promise.all([off.close(), old.close()]);
  });
});

describe("a command's output while it runs [inferred]", () => {
  it("re-sends run_command's and run_workflow's ACTIVE step with the output so far, then DONE with all of it", async () => {
    const conversation = await open("0.1.21");
    const command = steps(await turnOf(conversation, "run the slow command")).filter((step) => step.runCommand !== undefined);
    const growing = command.filter((step) => step.state === "STATE_ACTIVE" && typeof step.runCommand.combinedOutput === "string");
    // The first output seen while it runs is the first line (0.8 s before the second, longer than any tick under load).
    expect(growing[0]?.runCommand).toMatchObject({ commandLine: "echo one; sleep 0.8; echo two", combinedOutput: "one\n" });
    expect(command.findIndex((step) => step === growing[0])).toBeLessThan(command.findIndex((step) => step.state === "STATE_DONE"));
    expect(command.find((step) => step.state === "STATE_DONE")?.runCommand).toMatchObject({ exitCode: 0, combinedOutput: "one\ntwo\n" });
    const workflow = steps(await turnOf(conversation, "run the slow workflow")).filter((step) => step.runWorkflow !== undefined);
    expect(workflow.find((step) => step.state === "STATE_ACTIVE" && step.runWorkflow.output !== undefined)?.runWorkflow).toMatchObject({ output: "first\n" });
    expect(workflow.find((step) => step.state === "STATE_DONE")?.runWorkflow).toMatchObject({ output: "first\nsecond\n" });
    await conversation.close();
  });
});

describe("schedule, manage_task (0.1.14) and run_workflow (0.1.21)", () => {
  it("the schedule tool makes the harness start a turn of its own later", async () => {
    const conversation = await open("0.1.21");
    const first = await turnOf(conversation, "remind me to check the build");
    expect(answer(first)).toBe('I will: Scheduled "check the build" in 300 ms');
    const later = await conversation.untilIdle();
    expect(later[0]!["trajectoryStateUpdate"]).toMatchObject({ state: "STATE_RUNNING" });
    expect(steps(later)[0]).toMatchObject({ source: "SOURCE_SYSTEM", text: "check the build" });
    expect(answer(later)).toBe("Reminder: check the build");
    await conversation.close();
  });

  it("manage_task updates a task; run_workflow runs its script and reports the output", async () => {
    const conversation = await open("0.1.21");
    expect(answer(await turnOf(conversation, "update the task"))).toBe('Task "write tests": in progress');
    const turn = await turnOf(conversation, "run the workflow");
    expect(steps(turn).find((step) => step.state === "STATE_DONE" && step.runWorkflow)!.runWorkflow).toEqual({ description: "say hello", script: "echo workflow ran", output: "workflow ran\n" });
    const old = await open("0.1.14");
    expect(steps(await turnOf(old, "run the workflow")).find((step) => step.state === "STATE_ERROR")).toMatchObject({ errorMessage: 'Tool "run_workflow" is not available' });
    await Promise.all([conversation.close(), old.close()]);
  });
});

describe("subagents: parents, depth, nesting and parallel runs (0.1.11), waiting for them (0.1.21)", () => {
  it("nests within maxNestingDepth; every update names its parent and depth", async () => {
    const conversation = await open("0.1.21", { harnessSideTools: { subagents: { enabled: true, maxNestingDepth: 2 } } });
    const turn = await turnOf(conversation, "nested please");
    const main = conversation.messages[0]!["initializeConversationResponse"].cascadeId as string;
    const states = turn.flatMap((message) => (message["trajectoryStateUpdate"] === undefined ? [] : [message["trajectoryStateUpdate"]]));
    expect(states.find((state) => state.trajectoryId === main && state.state !== "STATE_RUNNING")).toMatchObject({ state: "STATE_WAITING_FOR_SUBAGENTS" });
    const outer = states.find((state) => state.depth === 1)!;
    const inner = states.find((state) => state.depth === 2)!;
    expect(outer.parentTrajectoryId).toBe(main);
    expect(inner.parentTrajectoryId).toBe(outer.trajectoryId);
    expect(steps(turn).filter((step) => step.trajectoryId === inner.trajectoryId).every((step) => step.parentTrajectoryId === outer.trajectoryId)).toBe(true);
    expect(answer(turn)).toBe("Main heard: outer heard: inner done");
    await conversation.close();
  });

  it("refuses nesting past the default depth of 1; 0.1.14 waits for tasks, not subagents", async () => {
    const conversation = await open("0.1.14");
    const turn = await turnOf(conversation, "nested please");
    expect(steps(turn).find((step) => step.state === "STATE_ERROR")).toMatchObject({ errorMessage: "Subagents may nest at most 1 deep" });
    expect(turn.some((message) => message["trajectoryStateUpdate"]?.state === "STATE_WAITING_FOR_TASKS")).toBe(true);
    await conversation.close();
  });

  it("runs parallel subagents at once", async () => {
    const conversation = await open("0.1.21");
    const turn = await turnOf(conversation, "parallel please");
    const states = turn.flatMap((message) => (message["trajectoryStateUpdate"]?.depth === 1 ? [message["trajectoryStateUpdate"].state as string] : []));
    expect(states.slice(0, 2)).toEqual(["STATE_RUNNING", "STATE_RUNNING"]);
    expect(answer(turn)).toBe("Both done.");
    await conversation.close();
  });
});

describe("custom tools: Struct arguments (0.1.17)", () => {
  const tools = [{ name: "get_weather", parametersJsonSchema: JSON.stringify({ type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } }) }];

  it("sends the arguments as a Struct with the calling trajectory, takes modifiedArgs from PRE_TOOL", async () => {
    const conversation = await open("0.1.21", { tools, enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL"] });
    conversation.say("get_weather please");
    const hook = await conversation.next((message) => message["callHookRequest"] !== undefined);
    expect(hook["callHookRequest"].preToolArgs).toMatchObject({ toolName: "get_weather", argumentsJson: '{"city":"Lisbon","days":3}', trajectoryId: expect.any(String), stepIndex: expect.any(Number) });
    conversation.send({ callHookResponse: { requestId: hook["callHookRequest"].requestId, preToolResult: { decision: "ALLOW", modifiedArgs: toGenaiStruct({ city: "Porto", days: 1 }) } } });
    const call = (await conversation.next((message) => message["toolCall"] !== undefined))["toolCall"];
    expect(call.argumentsJson).toBeUndefined();
    expect(fromGenaiStruct(call.arguments as GenaiStruct)).toEqual({ city: "Porto", days: 1 });
    expect(call.trajectoryId).toBe(conversation.messages[0]!["initializeConversationResponse"].cascadeId);
    conversation.send({ toolResponse: { id: call.id, responseJson: '{"result": "sunny"}' } });
    expect(answer(await conversation.untilIdle())).toBe("Tool said: sunny");
    await conversation.close();
  });

  it("names the subagent that made the call", async () => {
    const conversation = await open("0.1.21", { tools });
    conversation.say("delegate get_weather");
    const call = (await conversation.next((message) => message["toolCall"] !== undefined))["toolCall"];
    const subagent = conversation.messages.find((message) => message["trajectoryStateUpdate"]?.depth === 1)!["trajectoryStateUpdate"];
    expect(call.trajectoryId).toBe(subagent.trajectoryId);
    conversation.send({ toolResponse: { id: call.id, responseJson: '{"result": "windy"}' } });
    expect(answer(await conversation.untilIdle())).toBe("Helper said: helper got windy");
    await conversation.close();
  });

  it("0.1.14 sends argumentsJson only", async () => {
    const conversation = await open("0.1.14", { tools });
    conversation.say("get_weather please");
    const call = (await conversation.next((message) => message["toolCall"] !== undefined))["toolCall"];
    expect(call).toEqual({ id: expect.any(String), name: "get_weather", argumentsJson: '{"city":"Lisbon","days":3}' });
    conversation.send({ toolResponse: { id: call.id, responseJson: '{"result": "rain"}' } });
    await conversation.untilIdle();
    await conversation.close();
  });
});

describe("per-modality usage (0.1.12) and the sandbox status (0.1.17)", () => {
  it("usage carries TEXT counts from 0.1.12, not before", async () => {
    const newest = await open("0.1.21");
    const usage = (await turnOf(newest, "report")).find((message) => message["usageUpdate"] !== undefined)!["usageUpdate"].total;
    expect(usage.promptTokensDetails).toEqual([{ modality: "TEXT", tokenCount: usage.promptTokenCount }]);
    expect(usage.candidatesTokensDetails).toEqual([{ modality: "TEXT", tokenCount: usage.candidatesTokenCount }]);
    const old = await open("0.1.10");
    const oldUsage = (await turnOf(old, "report")).find((message) => message["usageUpdate"] !== undefined)!["usageUpdate"].total;
    expect(oldUsage.promptTokensDetails).toBeUndefined();
    await Promise.all([newest.close(), old.close()]);
  });

  it("the init response says the sandbox is unavailable, and why, from 0.1.17", async () => {
    const conversation = await emulators["0.1.21"]!.connect();
    const init = await conversation.init(configFor("harness-features", { harnessSideTools: { runCommand: { enabled: true, enableSandbox: true } } }));
    expect(init["initializeConversationResponse"].sandboxStatus).toEqual({ available: false, unavailableReason: expect.stringContaining("no command sandbox") });
    const old = await emulators["0.1.14"]!.connect();
    expect((await old.init(configFor("harness-features")))["initializeConversationResponse"].sandboxStatus).toBeUndefined();
    await Promise.all([conversation.close(), old.close()]);
  });
});

describe("0.1.18, between the generations", () => {
  it("has Struct arguments and the sandbox status, but no skills, no error codes and no waiting for subagents", async () => {
    const conversation = await emulators["0.1.18"]!.connect();
    const init = await conversation.init(
      configFor("harness-features", { tools: [{ name: "get_weather", parametersJsonSchema: "{}" }], workspaces: [{ filesystemWorkspace: { directory: workspace } }], skillsPaths: [skillsDirectory] }),
    );
    expect(init["initializeConversationResponse"].sandboxStatus).toMatchObject({ available: false });
    conversation.say("get_weather please");
    const call = (await conversation.next((message) => message["toolCall"] !== undefined))["toolCall"];
    expect(call.argumentsJson).toBeUndefined();
    expect(fromGenaiStruct(call.arguments as GenaiStruct)).toEqual({ city: "Lisbon", days: 3 });
    conversation.send({ toolResponse: { id: call.id, responseJson: '{"result": "fog"}' } });
    await conversation.untilIdle();
    expect(steps(await turnOf(conversation, "list skills")).find((step) => step.state === "STATE_ERROR")).toMatchObject({ errorMessage: 'Tool "skills" is not available' });
    const quota = idleOf(await turnOf(conversation, "quota please"));
    expect(quota).toMatchObject({ stopReason: "STOP_REASON_QUOTA_EXHAUSTED" });
    expect(quota["errorCode"]).toBeUndefined();
    const subagents = await turnOf(conversation, "parallel please");
    expect(subagents.some((message) => message["trajectoryStateUpdate"]?.state === "STATE_WAITING_FOR_TASKS")).toBe(true);
    await conversation.close();
  });
});
