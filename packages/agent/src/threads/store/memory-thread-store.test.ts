import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { fingerprintMessage } from "../../input/message-fingerprint.js";
import { MemoryThreadStore } from "./memory-thread-store.js";

const record = (conversationId: string) => ({ conversationId, forwarded: [fingerprintMessage("u1", "hi")], toolSignature: "sig" });
const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });

describe("MemoryThreadStore", () => {
  it("is bounded: the least recently updated threads are forgotten first", async () => {
    const store = new MemoryThreadStore({ maxThreads: 100 });
    for (let index = 0; index < 10_000; index += 1) await store.set(key(`t${index}`), record(`c${index}`));
    expect(store.stats().rememberedThreads).toBe(100);
    expect(await store.get(key("t0"))).toBeUndefined();
    expect(await store.get(key("t9999"))).toMatchObject({ conversationId: "c9999" });
  });

  it("keys by (agent, thread), forgets past the time to live and keeps only the newest fingerprints", async () => {
    let now = 0;
    const store = new MemoryThreadStore({ ttlMs: 1_000, maxForwardedPerThread: 2, now: () => now });
    await store.set(key("t"), { conversationId: "c", toolSignature: "s", forwarded: [1, 2, 3].map((n) => fingerprintMessage(`u${n}`, "")) });
    expect(await store.get(key("t", "other-agent"))).toBeUndefined();
    expect((await store.get(key("t")))?.forwarded.map((message) => message.id)).toEqual(["u2", "u3"]);
    now = 5_000;
    expect(await store.get(key("t"))).toBeUndefined();
  });

  it("close() aborts signal, is idempotent and resolves closed", async () => {
    const store = new MemoryThreadStore();
    await expectClosesOnce(store, () => store.close());
  });

  it("never forgets an owned thread for another: unowned ones go by count, a new owner past the cap is refused (full)", async () => {
    const store = new MemoryThreadStore({ maxThreads: 10, maxOwnedThreads: 3 });
    for (const threadId of ["a", "b", "c"]) expect(await store.claim(key(threadId), "alice")).toBe("claimed");
    for (let index = 0; index < 100; index += 1) await store.set(key(`noise-${index}`), record(`n${index}`));
    expect(await store.claim(key("a"), "alice")).toBe("owned");
    expect(await store.claim(key("a"), "mallory")).toBe("refused");
    expect(await store.claim(key("d"), "mallory")).toBe("full");
    await store.set(key("b"), { ...record("c-b"), summary: { threadId: "b", firstUserMessage: "hello" } });
    expect(await store.get(key("b"))).toMatchObject({ conversationId: "c-b", owner: "alice" });
    expect((await store.listByOwner("chat", "alice", { limit: 10 })).map((listing) => listing.threadId)).toEqual(["b"]);
    await store.releaseClaim(key("c"), "alice");
    expect(await store.claim(key("d"), "mallory")).toBe("claimed");
  });
});

