import { randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BaseEvent, Message } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { AgentCapabilitiesSchema } from "@ag-ui/core/schemas";
import { isProcessAlive } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { AntigravityAgent, type AntigravityAgentOptions } from "../src/index.js";
import { useAgents, user } from "./support/agent-fixture.js";

const { tempDir, track } = useAgents();

function recordingAgent(options: AntigravityAgentOptions) {
  const logs: Array<{ message: string; details: Record<string, unknown> }> = [];
  const record = (details: Record<string, unknown>, message: string) => void logs.push({ message, details });
  const agent = new AntigravityAgent({ harness: "emulator", logger: { info: record, warn: record, error: record }, ...options });
  track(agent);
  return { agent, logs };
}


async function run(agent: AntigravityAgent, threadId: string, messages: Message[], extra: { tools?: Parameters<AntigravityAgent["runAgent"]>[0] extends infer P ? P extends { tools?: infer T } ? T : never : never } = {}) {
  const copy = agent.clone();
  copy.threadId = threadId;
  copy.setMessages(messages);
  const events: BaseEvent[] = [];
  await copy.runAgent({ ...(extra.tools === undefined ? {} : { tools: extra.tools }) }, { onEvent: ({ event }) => void events.push(event) });
  return { events, messages: copy.messages };
}

const lastText = (messages: Message[]) => String(messages.filter((message) => message.role === "assistant").at(-1)?.content ?? "");

describe("sessions across runs, restarts and contract changes", () => {
  it("a restarted server resumes a thread's conversation from the save dir", async () => {
    const saveDir = tempDir();
    const threadId = randomUUID();
    const first = recordingAgent({ saveDir });
    const history = [user("remember the word pineapple")];
    const firstRun = await run(first.agent, threadId, history);
    await first.agent.close();

    const second = recordingAgent({ saveDir });
    const secondRun = await run(second.agent, threadId, [...firstRun.messages, user("what was the word?")]);
    expect(lastText(secondRun.messages)).toContain("what was the word?");
    const resumed = second.logs.find((entry) => entry.message === "thread resumed its conversation");
    expect(resumed?.details).toMatchObject({ threadId, historySteps: expect.any(Number) });
    expect(Number(resumed?.details.historySteps)).toBeGreaterThan(0);
    // Only the new message went to the harness: the first one was already in its history.
    expect(lastText(secondRun.messages)).not.toContain("pineapple");
  });

  it("close() aborts signal with AGENT_CLOSED at once, resolves closed once its pool processes are gone, and refuses later runs", async () => {
    const { agent } = recordingAgent({ saveDir: tempDir() });
    const clone = agent.clone();
    await run(agent, randomUUID(), [user("hello")]);
    const pids = (await agent.poolMetrics()).processDetails.flatMap((detail) => (detail.pid === undefined ? [] : [detail.pid]));
    expect(pids.length).toBeGreaterThan(0);
    let settled = false;
    void agent.closed.then(() => (settled = true));
    const closing = clone.close();
    expect(agent.signal.aborted).toBe(true);
    expect(agent.signal.reason).toMatchObject({ code: "AGENT_CLOSED" });
    expect(clone.signal).toBe(agent.signal);
    expect(settled).toBe(false);
    await closing;
    await agent.closed;
    expect(settled).toBe(true);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    const refused = await run(agent, randomUUID(), [user("still there?")]).then(({ events }) => events.at(-1));
    expect(refused).toMatchObject({ type: EventType.RUN_ERROR, code: "AGENT_CLOSED" });
  });

  it("a tool result for a turn parked in a server that is gone ends with RUN_ERROR PARKED_TURN_LOST, and the next message continues", async () => {
    const saveDir = tempDir();
    const threadId = randomUUID();
    const tools = [{ name: "show_card", description: "Shows a card", parameters: { type: "object", properties: { title: { type: "string" } } } }];
    // The first server parks the turn on a frontend tool call, then goes away with it.
    const first = recordingAgent({ saveDir });
    const parked = await run(first.agent, threadId, [user("please show_card titled hello")], { tools });
    const call = parked.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).at(-1);
    expect(call?.function.name).toBe("show_card");
    await first.agent.close();

    const second = recordingAgent({ saveDir });
    const answered = await run(second.agent, threadId, [...parked.messages, { id: randomUUID(), role: "tool", toolCallId: call!.id, content: "shown" }], { tools });
    const last = answered.events.at(-1) as { type: string; code?: string };
    expect(last).toMatchObject({ type: EventType.RUN_ERROR, code: "PARKED_TURN_LOST" });
    const next = await run(second.agent, threadId, [...answered.messages, user("are you there?")], { tools });
    expect(next.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(lastText(next.messages)).toContain("are you there?");
  });

  it("a harness that dies before persisting: the thread's next run rebuilds the lost history from the client's transcript", async () => {
    const { fixturesDir } = await import("@ag-ui-antigravity/testing");
    const { agent, logs } = recordingAgent({ saveDir: tempDir(), model: `emulator:${fixturesDir}/scenarios/agent-e2e.json` });
    const threadId = randomUUID();
    const first = await run(agent, threadId, [user("remember the word pineapple")]);
    const killed = await run(agent, threadId, [...first.messages, user("kill")]);
    expect(killed.events.at(-1)?.type).toBe(EventType.RUN_ERROR);
    const after = await run(agent, threadId, [...killed.messages, user("what was the word?")]);
    expect(logs.some((entry) => entry.message.includes("lost this thread's history"))).toBe(true);
    // The echo of the rebuilt prompt shows the model got the whole transcript back.
    expect(lastText(after.messages)).toContain("pineapple");
    expect(lastText(after.messages)).toContain("what was the word?");
  });

  // Whether the real harness starts an id it lost afresh or refuses it is not known (docs/protocol.md,
  // "Assumptions and how we hedge them"); either way the thread keeps its history, rebuilt from the client's transcript.
  it.each([
    ["empty", "lost this thread's history"],
    ["refuse", "refused to resume this thread's conversation"],
  ])("a harness that no longer has the thread's conversation (it answers the resume: %s) gets the history back from the transcript", async (unknownResume, warning) => {
    const saveDir = tempDir();
    const threadId = randomUUID();
    const env = { ANTIGRAVITY_EMULATOR_UNKNOWN_RESUME: unknownResume };
    const first = recordingAgent({ saveDir, env });
    const firstRun = await run(first.agent, threadId, [user("remember the word pineapple")]);
    await first.agent.close();
    // The harness's own storage loses the conversation; the thread store still names it.
    const harnessConversations = join(saveDir, "conversations");
    expect(existsSync(harnessConversations)).toBe(true);
    rmSync(harnessConversations, { recursive: true, force: true });

    const second = recordingAgent({ saveDir, env });
    const secondRun = await run(second.agent, threadId, [...firstRun.messages, user("give me a recap")]);
    expect(secondRun.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(second.logs.some((entry) => entry.message.includes(warning))).toBe(true);
    // The demo's recap quotes the earlier user messages the model has: the rebuilt transcript's.
    expect(lastText(secondRun.messages)).toContain("Recap of your earlier messages");
    expect(lastText(secondRun.messages)).toContain("remember the word pineapple");
    // The next run goes on in the new conversation, without another rebuild.
    const third = await run(second.agent, threadId, [...secondRun.messages, user("and again, a recap")]);
    expect(lastText(third.messages)).toContain("remember the word pineapple");
    expect(second.logs.filter((entry) => entry.message.includes(warning))).toHaveLength(1);
  });

  it("harnessTimings reach the harness client: a valid set runs, a wait out of bounds is refused at construction, named", async () => {
    const { agent: tuned } = recordingAgent({ harnessTimings: { idleSettleMs: 250, pingIntervalMs: false, haltDrainMs: 8_000 } });
    const fine = await run(tuned, randomUUID(), [user("hello there")]);
    expect(fine.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(() => new AntigravityAgent({ harness: "emulator", harnessTimings: { idleSettleMs: -5 } })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", message: expect.stringContaining("harnessTimings: timings.idleSettleMs") }),
    );
    expect(() => new AntigravityAgent({ harness: "emulator", harnessTimings: { idleSetleMs: 5 } as never })).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
  });

  it("a changed tool contract rebuilds the conversation by cold resume, keeping the thread", async () => {
    const { agent, logs } = recordingAgent({ saveDir: tempDir() });
    const threadId = randomUUID();
    const tool = (description: string) => [{ name: "show_card", description, parameters: { type: "object", properties: {} } }];
    const first = await run(agent, threadId, [user("hi")], { tools: tool("first version") });
    await run(agent, threadId, [...first.messages, user("again")], { tools: tool("second version") });
    expect(logs.filter((entry) => entry.message === "thread resumed its conversation")).toHaveLength(1);
  });

  it("a regenerate rebuilds the conversation from the client's history instead of doing nothing", async () => {
    const { agent } = recordingAgent({ saveDir: tempDir() });
    const threadId = randomUUID();
    const question = user("tell me a joke");
    await run(agent, threadId, [question]);
    const regenerated = await run(agent, threadId, [question]);
    expect(regenerated.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(lastText(regenerated.messages)).toContain("new answer");
    expect(lastText(regenerated.messages)).toContain("tell me a joke");
  });

  it("an edited earlier message rebuilds from the edited transcript", async () => {
    const { agent } = recordingAgent({ saveDir: tempDir() });
    const threadId = randomUUID();
    const original = user("my name is Ada");
    const first = await run(agent, threadId, [original]);
    const edited: Message[] = [{ ...original, content: "my name is Grace" } as Message, ...first.messages.slice(1), user("who am I?")];
    const second = await run(agent, threadId, edited);
    expect(lastText(second.messages)).toContain("my name is Grace");
    expect(lastText(second.messages)).toContain("who am I?");
  });

  it("advertises capabilities that validate against AG-UI's schema and tell the truth", async () => {
    const { agent: chat } = recordingAgent({});
    const capabilities = await chat.getCapabilities();
    expect(AgentCapabilitiesSchema.safeParse(capabilities).success).toBe(true);
    expect(capabilities.humanInTheLoop?.interrupts).toBe(false);
    expect(capabilities.execution?.codeExecution).toBe(false);
    const { agent: full } = recordingAgent({ builtinTools: ["ask_question", "run_command"], toolApproval: true });
    const fullCapabilities = await full.getCapabilities();
    expect(fullCapabilities.humanInTheLoop).toMatchObject({ interrupts: true, approvals: true });
    expect(fullCapabilities.execution?.codeExecution).toBe(true);
  });

  it("refuses invalid options with a typed error naming the option", () => {
    expect(() => new AntigravityAgent({ endpoint: { type: "gemini" }, baseUrl: "http://localhost:8080" })).toThrow(/baseUrl/);
    expect(() => new AntigravityAgent({ workspaceRoot: "relative/path" })).toThrow(/workspaceRoot/);
  });
});
