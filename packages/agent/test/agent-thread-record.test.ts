import { randomUUID } from "node:crypto";
import type { BaseEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_ID } from "../src/agent-core.js";
import { type AntigravityAgent, MemoryThreadStore, type ThreadKey, type ThreadRecordInput } from "../src/index.js";
import { user, useAgents } from "./support/agent-fixture.js";

const { makeAgent } = useAgents();

/** A thread store whose writes wait, while held, until released: a slow disk or Redis, on demand. */
class HeldThreadStore extends MemoryThreadStore {
  #held: Array<() => void> | undefined;

  /** Writes submitted while held, not stored yet. */
  get waitingWrites(): number {
    return this.#held?.length ?? 0;
  }

  hold(): void {
    this.#held ??= [];
  }

  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const write of held) write();
  }

  override async set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    const held = this.#held;
    if (held !== undefined) await new Promise<void>((resolve) => held.push(resolve));
    await super.set(key, record);
  }
}

/** Waits (bounded) until `condition` holds. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

function startRun(agent: AntigravityAgent, threadId: string, text: string) {
  const copy = agent.clone();
  copy.threadId = threadId;
  copy.setMessages([user(text)]);
  const events: BaseEvent[] = [];
  const done = copy.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return { events, done };
}

describe("a thread's conversation record", () => {
  it.each([
    ["a cold new thread", false],
    ["a new thread on a pre-warmed spare", true],
  ])("%s: the turn runs while the record is written, and ends only once it is stored", async (_name, prewarm) => {
    const store = new HeldThreadStore();
    const agent = makeAgent({ threadStore: store, ...(prewarm ? { prewarm: { spares: 1 } } : {}) });
    if (prewarm) {
      // The first new thread starts the stock of spares.
      await startRun(agent, randomUUID(), "first").done;
      await eventually(() => agent.stats().spareSessions === 1, "a spare is ready");
    }

    store.hold();
    const threadId = randomUUID();
    const run = startRun(agent, threadId, "hello");
    // The reply streams although the record of the thread's conversation is not stored yet...
    await eventually(() => run.events.some((event) => event.type === EventType.TEXT_MESSAGE_END), "the reply streamed");
    expect(store.waitingWrites).toBeGreaterThan(0);
    expect(await store.get({ agentId: DEFAULT_AGENT_ID, threadId })).toBeUndefined();
    // ...but the run does not end before it is: a client that saw RUN_FINISHED can resume the thread.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(run.events.map((event) => event.type)).not.toContain(EventType.RUN_FINISHED);

    store.release();
    await run.done;
    expect(run.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect((await store.get({ agentId: DEFAULT_AGENT_ID, threadId }))?.conversationId).toBeTruthy();
  });
});
