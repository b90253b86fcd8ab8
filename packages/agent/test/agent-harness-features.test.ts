// What the harness learned after 0.1.10, through the agent (in process: AbstractAgent.runAgent runs
// @ag-ui/client's verifier on every event). The end-to-end tests over HTTP are apps/server's.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type ActivityMessage, type BaseEvent, type Message } from "@ag-ui/core";
import { fixturesDir } from "@ag-ui-antigravity/testing";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AntigravityAgent, type AntigravityAgentOptions } from "../src/index.js";
import { useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir } = useAgents();
const model = `emulator:${join(fixturesDir, "scenarios", "harness-features.json")}`;

const skillsDirectory = join(mkdtempSync(join(tmpdir(), "agent-skills-")), "skills");
mkdirSync(join(skillsDirectory, "pdf-tools"), { recursive: true });
writeFileSync(join(skillsDirectory, "pdf-tools", "SKILL.md"), "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\nUse scripts/fill.py to fill a form.\n");

/** One run, whatever its end: every event (runAgent rejects on RUN_ERROR after the events went by). */
async function run(agent: AntigravityAgent, text: string): Promise<{ events: BaseEvent[]; last: BaseEvent & Record<string, any> }> {
  agent.addMessage(user(text));
  const events: BaseEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) }).catch(() => undefined);
  return { events, last: events.at(-1) as BaseEvent & Record<string, any> };
}

const assistantTexts = (messages: readonly Message[]): string[] => messages.flatMap((message) => (message.role === "assistant" && typeof message.content === "string" && message.content !== "" ? [message.content] : []));
const activities = (messages: readonly Message[], activityType: string): ActivityMessage[] =>
  messages.filter((message): message is ActivityMessage => message.role === "activity" && message.activityType === activityType);
const ofType = (events: readonly BaseEvent[], type: EventType): Array<BaseEvent & Record<string, any>> => events.filter((event) => event.type === type) as Array<BaseEvent & Record<string, any>>;

describe("refused when the agent is built", () => {
  it("a write-capable builtin no policy, pre-tool hook or approval gates: CONFIG_INVALID naming it, at once", () => {
    expect(() => new AntigravityAgent({ harness: "emulator", builtinTools: ["run_command"] })).toThrow(/CONFIG_INVALID|builtinTools: run_command can change the machine/);
    try {
      new AntigravityAgent({ harness: "emulator", builtinTools: ["run_workflow"] });
    } catch (error) {
      expect(error).toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining("run_workflow") });
    }
    // Any gate will do.
    for (const gate of [{ toolApproval: true }, { policies: [{ tool: "run_command", decision: "allow" as const }] }]) {
      const agent = new AntigravityAgent({ harness: "emulator", builtinTools: ["run_command"], ...gate });
      void agent.close();
    }
  });

  it("an option the harness's release lacks: checkConfiguration() and every run say CONFIG_INVALID with the first release that has it, and no harness starts", async () => {
    const agent = makeAgent({ model, harnessVersion: "0.1.10", budget: { maxToolCalls: 3 }, onStop: () => undefined });
    const refusal = await agent.checkConfiguration().then(() => undefined, (error: unknown) => error);
    expect(refusal).toMatchObject({ code: "CONFIG_INVALID" });
    expect((refusal as Error).message).toMatch(/budget needs harness 0\.1\.11 or newer/);
    expect((refusal as Error).message).toMatch(/hooks\.stop needs harness 0\.1\.16 or newer/);
    const { events } = await run(agent, "hello");
    expect(events).toEqual([expect.objectContaining({ type: EventType.RUN_ERROR, code: "CONFIG_INVALID" })]);
    expect(agent.stats().sessions).toMatchObject({ liveSessions: 0 });
  });

  it("the same options on a release that has them run", async () => {
    const agent = makeAgent({ model, harnessVersion: "0.1.21", budget: { maxToolCalls: 3 } });
    await agent.checkConfiguration();
    const { last } = await run(agent, "hello");
    expect(last.type).toBe(EventType.RUN_FINISHED);
  });
});

describe("budgets and the quota", () => {
  it("a budget stop keeps what was said and ends with BUDGET_EXCEEDED naming the limit", async () => {
    const agent = makeAgent({ model, budget: { maxModelCalls: 1 } });
    const { events, last } = await run(agent, "take many steps");
    expect(last).toMatchObject({ type: EventType.RUN_ERROR, code: "BUDGET_EXCEEDED", message: expect.stringContaining("budget of model calls ran out") });
    expect(ofType(events, EventType.TEXT_MESSAGE_END)).toHaveLength(1);
    expect(assistantTexts(agent.messages)).toEqual(["First step, with a long enough answer to spend some tokens."]);
  });

  it("the quota running out keeps what was said and ends with QUOTA_EXHAUSTED and when to retry", async () => {
    const agent = makeAgent({ model });
    const { last } = await run(agent, "use up the quota");
    expect(last).toMatchObject({ type: EventType.RUN_ERROR, code: "QUOTA_EXHAUSTED", message: expect.stringContaining("Try again in a few minutes") });
    expect(assistantTexts(agent.messages)).toEqual(["Working on it."]);
  });
});

describe("the stop hook", () => {
  it("a continuation makes one run with two answers, the continuation between them, bounded by maxContinuations", async () => {
    const asked: unknown[] = [];
    const agent = makeAgent({
      model,
      maxContinuations: 1,
      onStop: (args) => {
        asked.push(args);
        return { decision: "continue", reason: "add a summary" };
      },
    });
    const { events, last } = await run(agent, "write the report");
    expect(last.type).toBe(EventType.RUN_FINISHED);
    expect(ofType(events, EventType.RUN_STARTED)).toHaveLength(1);
    expect(assistantTexts(agent.messages)).toEqual(["Here is the report.", "Summary added, as asked: add a summary"]);
    expect(agent.messages.map((message) => message.role).slice(-3)).toEqual(["assistant", "activity", "assistant"]);
    expect(activities(agent.messages, "antigravity.continuation")[0]?.content).toEqual({ continuation: 1, reason: "add a summary", maxContinuations: 1 });
    // Asked once: the second stop is past the bound, and the agent stops without asking.
    expect(asked).toEqual([{ threadId: agent.threadId, responseText: "Here is the report.", continuationCount: 0 }]);
  });
});

describe("what the harness does on its own", () => {
  const compactions: unknown[] = [];
  const options = (extra: AntigravityAgentOptions = {}): AntigravityAgentOptions => ({
      model,
      workspaces: [tempDir()],
      builtinTools: ["manage_task", "schedule", "run_command", "run_workflow", "start_subagent", "list_directory"],
      policies: [{ tool: "*", decision: "allow" }],
      skills: { directories: [skillsDirectory] },
      maxSubagentDepth: 2,
      // The outer subagent may start one of its own.
      subagents: [{ name: "outer", description: "Does the outer work", builtinTools: ["start_subagent"] }],
      onCompaction: (args) => void compactions.push(args),
      ...extra,
    });
  const busyAgent = (extra: AntigravityAgentOptions = {}) => makeAgent(options(extra));
  // One agent (one harness process) for the tests that need the same options: each gets a thread of its own.
  let shared: AntigravityAgent | undefined;
  beforeAll(() => {
    shared = new AntigravityAgent({ harness: "emulator", saveDir: tempDir(), ...options() });
  });
  afterAll(async () => {
    await shared?.close();
  });
  const freshThread = (): AntigravityAgent => {
    const agent = (shared as AntigravityAgent).clone();
    agent.threadId = randomUUID();
    agent.setMessages([]);
    return agent;
  };

  it("a compaction is an activity with its summary, never assistant text, and onCompaction hears it", async () => {
    const agent = freshThread();
    await run(agent, "please compact now");
    expect(activities(agent.messages, "antigravity.compaction").map((message) => message.content)).toEqual([{ text: "Context compaction", summary: "The user asked to compact: please compact now" }]);
    expect(assistantTexts(agent.messages)).toEqual(["Compacted."]);
    expect(compactions).toContainEqual({ threadId: agent.threadId, summary: "The user asked to compact: please compact now" });
  });

  it("manage_task updates become the run's task list and a tool card; a schedule is announced; skills are looked up on a card", async () => {
    const agent = freshThread();
    const tasks = await run(agent, "add a task");
    expect(activities(agent.messages, "antigravity.tasks").map((message) => message.content)).toEqual([{ tasks: [{ id: "task-1", title: "write tests", status: "in progress" }] }]);
    const card = ofType(tasks.events, EventType.TOOL_CALL_START).find((event) => event["toolCallName"] === "manage_task");
    expect(ofType(tasks.events, EventType.TOOL_CALL_RESULT).find((event) => event["toolCallId"] === card?.["toolCallId"])?.["content"]).toBe('Task "write tests": in progress');

    await run(agent, "remind me later");
    expect(activities(agent.messages, "antigravity.schedule")[0]?.content).toMatchObject({ prompt: "check the build", delayMs: 300 });

    const skills = await run(agent, "follow pdf-tools");
    const lookup = ofType(skills.events, EventType.TOOL_CALL_START).find((event) => event["toolCallName"] === "skill_lookup");
    expect(lookup).toBeDefined();
    expect(ofType(skills.events, EventType.TOOL_CALL_RESULT).find((event) => event["toolCallId"] === lookup?.["toolCallId"])?.["content"]).toContain("pdf-tools");
  });

  it("a connect keeps the activities a client holds from earlier runs (the transcript is no authority on them)", async () => {
    const agent = freshThread();
    await run(agent, "add a task");
    await run(agent, "please compact now");
    expect(activities(agent.messages, "antigravity.tasks")).toHaveLength(1);
    const snapshot: BaseEvent[] = [];
    await agent.connectAgent({}, { onEvent: ({ event }) => void snapshot.push(event) });
    expect(activities(agent.messages, "antigravity.tasks")).toHaveLength(1);
    expect(activities(agent.messages, "antigravity.compaction")).toHaveLength(1);
    expect(ofType(snapshot, EventType.MESSAGES_SNAPSHOT)[0]?.["metadata"]).toEqual({ "@ag-ui/client": { authoritativeActivityTypes: [] } });
  });

  it("refuses a schedule past scheduleLimits, and the model is told why", async () => {
    const none = busyAgent({ scheduleLimits: { maxPending: 0 } });
    await run(none, "remind me later");
    expect(assistantTexts(none.messages).at(-1)).toContain("scheduled turns waiting");
    const near = busyAgent({ scheduleLimits: { maxDelayMs: 100 } });
    await run(near, "remind me later");
    expect(assistantTexts(near.messages).at(-1)).toContain("at most 100 ms ahead");
    expect(activities(near.messages, "antigravity.schedule")).toEqual([]);
  });

  it("streams a running command's output as activity before its result; run_workflow is a card with its script and output", async () => {
    const agent = freshThread();
    const command = await run(agent, "run the slow command");
    const output = ofType(command.events, EventType.ACTIVITY_SNAPSHOT).find((event) => event["activityType"] === "antigravity.command_output");
    expect(output?.["content"]).toMatchObject({ toolName: "run_command", running: true });
    expect(output?.["content"].chunks.join("")).toBe("one\n");
    const resultIndex = command.events.findIndex((event) => event.type === EventType.TOOL_CALL_RESULT && (event as Record<string, any>)["toolCallId"] === output?.["content"].toolCallId);
    expect(command.events.indexOf(output!)).toBeLessThan(resultIndex);
    expect(activities(agent.messages, "antigravity.command_output")[0]?.content).toMatchObject({ chunks: ["one\n", "two\n"], running: false, exitCode: 0 });

    const workflow = await run(agent, "run the workflow");
    const card = agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((call) => call.function.name === "run_workflow");
    expect(JSON.parse(card!.function.arguments)).toEqual({ description: "say hello", script: "echo workflow ran" });
    expect(ofType(workflow.events, EventType.TOOL_CALL_RESULT).find((event) => event["toolCallId"] === card!.id)?.["content"]).toBe("workflow ran\n");
  });

  it("names nested subagents, describes a custom one, and gives each its parent and depth", async () => {
    const agent = freshThread();
    const { events } = await run(agent, "nested work please");
    const started = ofType(events, EventType.SUBAGENT_STARTED);
    expect(started.map((event) => event["name"])).toEqual(["outer", "inner"]);
    expect(started[0]).toMatchObject({ description: "Does the outer work", metadata: { antigravity: { depth: 1 } } });
    expect(started[1]).toMatchObject({ parentSubagentRunId: started[0]?.["subagentRunId"], metadata: { antigravity: { depth: 2 } } });
    expect(assistantTexts(agent.messages).at(-1)).toBe("Main heard: outer heard: inner done");
  });

  it("reports the run's tokens by modality, and /capabilities says the harness has no sandbox, audio and video in, the activity types", async () => {
    const agent = freshThread();
    const { last } = await run(agent, "take many steps");
    expect(last["usage"]?.[0]?.outputTokens).toBeGreaterThan(0);
    expect(last["metadata"]?.antigravity?.usageByModality?.output?.TEXT).toBeGreaterThan(0);
    const capabilities = await agent.getCapabilities();
    expect(capabilities.multimodal?.input).toMatchObject({ audio: true, video: true });
    expect(capabilities.execution).toEqual({ codeExecution: true, sandboxed: false });
    expect(capabilities.custom).toEqual({
      antigravity: {
        harnessVersion: "0.1.21",
        sandbox: { available: false, unavailableReason: expect.any(String) },
        activityTypes: ["antigravity.tasks", "antigravity.compaction", "antigravity.continuation", "antigravity.command_output", "antigravity.schedule"],
      },
    });
  });
});

describe("agent behaviour", () => {
  it("is interactive by default (a question parks the run for the user); an autonomous agent asks nothing", async () => {
    const interactive = makeAgent({ builtinTools: ["ask_question"] });
    const asked = await run(interactive, "Ask me to choose between tea, coffee or juice");
    expect(asked.last["outcome"]?.type).toBe("interrupt");
    const autonomous = makeAgent({ builtinTools: ["ask_question"], agentBehavior: "autonomous" });
    const decided = await run(autonomous, "Ask me to choose between tea, coffee or juice");
    expect(decided.last.type).toBe(EventType.RUN_FINISHED);
    expect(decided.last["outcome"]).toBeUndefined();
    expect(assistantTexts(autonomous.messages).at(-1)).toContain("You chose: tea");
  });
});

describe("an approval and its card", () => {
  it("share one id for a built-in call", async () => {
    const agent = makeAgent({ model, workspaces: [tempDir()], builtinTools: ["list_directory"], toolApproval: true });
    const { events, last } = await run(agent, "use many tools");
    const card = ofType(events, EventType.TOOL_CALL_START).find((event) => event["toolCallName"] === "list_directory");
    expect(last["outcome"]?.interrupts?.[0]).toMatchObject({ reason: "tool_call", toolCallId: card?.["toolCallId"] });
  });
});
