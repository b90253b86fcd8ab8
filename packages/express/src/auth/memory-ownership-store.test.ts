import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { MemoryOwnershipStore } from "./memory-ownership-store.js";

const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });

describe("MemoryOwnershipStore", () => {
  it("gives a thread to its first principal and refuses every other one; threads are per agent", async () => {
    const owners = new MemoryOwnershipStore();
    expect(await owners.claim(key("t1"), "alice")).toBe("claimed");
    expect(await owners.claim(key("t1"), "alice")).toBe("owned");
    expect(await owners.claim(key("t1"), "bob")).toBe("refused");
    expect(await owners.ownerOf(key("t1"))).toBe("alice");
    expect(await owners.claim(key("t1", "research"), "bob")).toBe("claimed");
  });

  it("never forgets an owner for a newcomer: at its cap new threads are refused as full", async () => {
    const owners = new MemoryOwnershipStore({ maxEntries: 2 });
    await owners.claim(key("t1"), "alice");
    await owners.claim(key("t2"), "alice");
    for (let index = 0; index < 1_000; index += 1) expect(await owners.claim(key(`flood-${index}`), "mallory")).toBe("full");
    expect(await owners.claim(key("t1"), "mallory")).toBe("refused");
    expect(await owners.ownerOf(key("t1"))).toBe("alice");
    expect(owners.stats()).toEqual({ kind: "memory", owners: 2, refusedFull: 1_000 });
  });

  it("forgets an owner only after its time to live without a run, and sweeps expired entries at the cap", async () => {
    let now = 0;
    const owners = new MemoryOwnershipStore({ maxEntries: 2, ttlMs: 1_000, now: () => now });
    await owners.claim(key("t1"), "alice");
    await owners.claim(key("t2"), "alice");
    now = 900;
    await owners.claim(key("t2"), "alice"); // in use: refreshed
    now = 1_500;
    expect(await owners.claim(key("t3"), "bob")).toBe("claimed");
    expect(await owners.ownerOf(key("t1"))).toBeUndefined();
    expect(await owners.ownerOf(key("t2"))).toBe("alice");
  });

  it("releases a claim only for its owner", async () => {
    const owners = new MemoryOwnershipStore();
    await owners.claim(key("t"), "alice");
    await owners.release(key("t"), "mallory");
    expect(await owners.ownerOf(key("t"))).toBe("alice");
    await owners.release(key("t"), "alice");
    expect(await owners.ownerOf(key("t"))).toBeUndefined();
  });

  it("keeps entries the same size whatever the thread id's length", async () => {
    const owners = new MemoryOwnershipStore();
    expect(await owners.claim(key("x".repeat(900_000)), "alice")).toBe("claimed");
    expect(await owners.claim(key("x".repeat(900_000)), "bob")).toBe("refused");
  });

  it("close() aborts signal, is idempotent and resolves closed", async () => {
    const owners = new MemoryOwnershipStore();
    await owners.claim(key("t1"), "alice");
    await expectClosesOnce(owners, () => owners.close());
  });
});
