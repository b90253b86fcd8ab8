// A full pool answers: idle conversations (of any agent on the pool) give their slot to a new
// thread, parked ones only past the pool's park cap, and a run that finds no room at all is refused
// before RUN_STARTED with CAPACITY_EXHAUSTED, never left waiting in silence.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { EventType, type BaseEvent, type Message, type RunErrorEvent } from "@ag-ui/core";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator";
import { HarnessPool } from "@ag-ui-antigravity/pool";
import { fixturesDir } from "@ag-ui-antigravity/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { AntigravityAgent } from "../src/index.js";
import { runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir } = useAgents();
const model = `emulator:${join(fixturesDir, "scenarios", "reliability.json")}`;
const pools: HarnessPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close({ deadlineMs: 2_000 })));
});

/** One harness process of two conversations, shared by every agent of a test. */
function smallPool(settings: { maxParkedConversations?: number } = {}): HarnessPool {
  const pool = new HarnessPool({ maxProcesses: 1, maxConversationsPerProcess: 2, ...settings, harness: { binaryPath: emulatorBinaryPath() } });
  pools.push(pool);
  return pool;
}

async function runOn(agent: AntigravityAgent, threadId: string, messages: Message[], extra: Parameters<AntigravityAgent["runAgent"]>[0] = {}) {
  const client = agent.clone();
  client.threadId = threadId;
  client.setMessages(messages);
  const events: BaseEvent[] = [];
  try {
    await runWith(client, extra).then((outcome) => events.push(...outcome.events));
  } catch {
    // runAgent rejects on a RUN_ERROR; the events say what happened.
  }
  return { events, types: events.map((event) => event.type), messages: client.messages };
}

describe("a full pool", () => {
  it("gives an idle thread's slot to another agent's new thread; the idle thread then resumes", async () => {
    const pool = smallPool();
    // One save dir, so one pool partition: conversations of one partition give way to each other.
    const saveDir = tempDir();
    const chat = makeAgent({ agentId: "chat", model, pool, saveDir });
    const other = makeAgent({ agentId: "other", model, pool, saveDir });
    const first = randomUUID();
    const firstRun = await runOn(chat, first, [user("remember tango")]);
    expect(firstRun.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect((await runOn(chat, randomUUID(), [user("second")])).types.at(-1)).toBe(EventType.RUN_FINISHED);
    // Both slots are held by idle threads; the other agent's new thread takes the older one.
    const newcomer = await runOn(other, randomUUID(), [user("newcomer")]);
    expect(newcomer.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(pool.metrics().totals.reclaims).toBe(1);
    expect(chat.threadHolding(first)).toBe("none");
    // The reclaimed thread's next run resumes it (another slot is given back for it).
    const resumed = await runOn(chat, first, [...firstRun.messages, user("again")]);
    expect(resumed.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(pool.metrics().conversations).toBeLessThanOrEqual(2);
  });

  it("refuses a new thread before RUN_STARTED with CAPACITY_EXHAUSTED while every slot runs a turn", async () => {
    const pool = smallPool();
    const chat = makeAgent({ model, pool });
    const long = [runOn(chat, randomUUID(), [user("long turn one")]), runOn(chat, randomUUID(), [user("long turn two")])];
    await expect.poll(() => chat.stats().sessions.busySessions, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => pool.metrics().conversations, { timeout: 20_000 }).toBe(2);
    const refused = await runOn(chat, randomUUID(), [user("hello")]);
    expect(refused.types).toEqual([EventType.RUN_ERROR]);
    expect((refused.events[0] as RunErrorEvent).code).toBe("CAPACITY_EXHAUSTED");
    for (const run of await Promise.all(long)) expect(run.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect((await runOn(chat, randomUUID(), [user("hello")])).types.at(-1)).toBe(EventType.RUN_FINISHED);
  });

  it("takes a parked thread's slot only while more conversations are parked than the pool's cap", async () => {
    const pool = smallPool({ maxParkedConversations: 1 });
    const chat = makeAgent({ model, pool, builtinTools: ["ask_question"] });
    const first = randomUUID();
    const second = randomUUID();
    expect((await runOn(chat, first, [user("ask")])).types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(chat.threadHolding(first)).toBe("parked");
    expect((await runOn(chat, second, [user("ask")])).types.at(-1)).toBe(EventType.RUN_FINISHED);
    // Two parked, one over the cap: the older park gives its slot to a new thread.
    const newcomer = await runOn(chat, randomUUID(), [user("hello")]);
    expect(newcomer.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(chat.threadHolding(first)).toBe("none");
    expect(chat.threadHolding(second)).toBe("parked");
    // Now one parked (within the cap) and one idle: the idle one goes, the park stays.
    expect((await runOn(chat, randomUUID(), [user("hello")])).types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(chat.threadHolding(second)).toBe("parked");
  });
});
