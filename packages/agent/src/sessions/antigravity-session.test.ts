import { HarnessPool } from "@ag-ui-antigravity/pool";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprintMessage } from "../input/message-fingerprint.js";
import { MemoryThreadStore } from "../threads/memory-thread-store.js";
import type { ThreadKey, ThreadRecordInput } from "../threads/thread-store.js";
import { AntigravitySession, type SessionEnvironment } from "./antigravity-session.js";

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
  };
  return new AntigravitySession({ threadId: "thread", workspace: undefined }, { conversationId: "conversation", forwarded: [], toolSignature: "tools" }, environment);
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("AntigravitySession.rememberInBackground", () => {
  it("writes the thread's record once the tick's work is done, one write for every ask of the tick, with the latest forwarded", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    session.forwarded = [fingerprintMessage("u1", "hi")];
    session.rememberInBackground();
    session.forwarded = [...session.forwarded, fingerprintMessage("u2", "again")];
    session.rememberInBackground();
    // The turn's events of this tick go out before the store is touched.
    expect(store.writes).toEqual([]);
    await nextTick();
    expect(store.writes).toEqual([["u1", "u2"]]);
    expect((await store.get({ agentId: "agent", threadId: "thread" }))?.forwarded.map((message) => message.id)).toEqual(["u1", "u2"]);
    await session.close("closed");
  });

  it("leaves no write due after close: close writes the latest record itself", async () => {
    const store = new WriteLog();
    const session = sessionOn(store);
    session.forwarded = [fingerprintMessage("u1", "hi")];
    session.rememberInBackground();
    await session.close("closed");
    await nextTick();
    expect(store.writes).toEqual([["u1"]]);
  });
});
