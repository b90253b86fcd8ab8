import { HarnessPool } from "@ag-ui-antigravity/pool";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprintMessage } from "../input/message-fingerprint.js";
import { MemoryThreadStore } from "../threads/store/memory-thread-store.js";
import type { ThreadKey, ThreadRecordInput } from "../threads/store/thread-store.js";
import { AntigravitySession } from "./antigravity-session.js";
import type { SessionEnvironment } from "./session-environment.js";

/** A memory store that also keeps the forwarded ids of every write, in order. */
class WriteLog extends MemoryThreadStore {
  readonly writes: string[][] = [];
  override set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    this.writes.push(record.forwarded.map((message) => message.id));
    return super.set(key, record);
  }
}

const pools: HarnessPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** A session on a thread the store knows (it has a conversation id), whose conversation is not open. */
function sessionOn(store: WriteLog): AntigravitySession {
  // Never asked for a conversation here: no harness process starts.
  const pool = new HarnessPool({ healthCheckIntervalMs: 0 });
  pools.push(pool);
  const environment: SessionEnvironment = {
    pool,
    threadStore: store,
    threadKey: { agentId: "agent", threadId: "thread" },
    baseConfig: {},
    partition: {},
    bridgeOptions: {},
    structuredOutputAs: "state",
    structuredOutputKey: "output",
    model: "model",
    workspaceFor: () => Promise.resolve(undefined),
    warn: () => undefined,
    onBackgroundTurn: () => undefined,
    observers: { onStop: undefined, maxContinuations: 3, onCompaction: undefined, compactionHook: false, observeTools: false, maxPendingSchedules: 5, maxScheduleDelayMs: 60_000, now: Date.now },
    subagents: [],
    onConversationOpened: () => undefined,
  };
  return new AntigravitySession({ threadId: "thread", workspace: undefined }, { conversationId: "conversation", forwarded: [], toolSignature: "tools" }, environment);
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("AntigravitySession.rememberInBackground", () => {
  it("writes the thread's record once the tick's work is done, one write for every ask of the tick, with the latest forwarded", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    session.confirmForwarded([fingerprintMessage("u1", "hi")]);
    session.rememberInBackground();
    session.confirmForwarded([...session.forwarded, fingerprintMessage("u2", "again")]);
    session.rememberInBackground();
    // The turn's events of this tick go out before the store is touched.
    expect(store.writes).toEqual([]);
    await nextTick();
    expect(store.writes).toEqual([["u1", "u2"]]);
    expect((await store.get({ agentId: "agent", threadId: "thread" }))?.forwarded.map((message) => message.id)).toEqual(["u1", "u2"]);
    await session.close("closed");
  });

  it("records an adopted (new) conversation once, with its first prompt, when the prompt is handed over; recorded() waits for it; later turns' records wait for the end of the tick", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    const thread = { agentId: "agent", threadId: "thread" };
    // As when a spare is adopted: nothing is written before there is a prompt to record.
    session.adopt("thread", undefined, undefined);
    expect(store.writes).toEqual([]);
    const prompt = [fingerprintMessage("u1", "hi")];
    session.recordPrompt(prompt);
    // Written at once, not at the end of the tick: a client that sees this turn finish must find u1 recorded after a kill -9.
    expect(store.writes).toEqual([["u1"]]);
    // The harness takes the prompt (its first step): the record already says so, nothing is written again.
    session.confirmForwarded(prompt);
    session.rememberInBackground();
    await session.recorded();
    await nextTick();
    expect(store.writes).toEqual([["u1"]]);
    expect((await store.get(thread))?.forwarded.map((message) => message.id)).toEqual(["u1"]);
    // Only a new conversation's first prompt is recorded before the harness confirms it.
    session.recordPrompt([...prompt, fingerprintMessage("u2", "again")]);
    expect(store.writes).toHaveLength(1);
    session.confirmForwarded([...session.forwarded, fingerprintMessage("u2", "again")]);
    session.rememberInBackground();
    expect(store.writes).toHaveLength(1);
    await session.recorded();
    await nextTick();
    expect(store.writes.at(-1)).toEqual(["u1", "u2"]);
    await session.close("closed");
  });

  it("records an adopted conversation whose run handed no prompt over before the run ends", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    session.adopt("thread", undefined, undefined);
    await session.recorded();
    expect(store.writes).toEqual([[]]);
    await session.close("closed");
  });

  it("leaves no write due after close: close writes the latest record itself", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    session.confirmForwarded([fingerprintMessage("u1", "hi")]);
    session.rememberInBackground();
    await session.close("closed");
    await nextTick();
    expect(store.writes).toEqual([["u1"]]);
  });
});
