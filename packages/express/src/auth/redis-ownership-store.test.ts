import { expectClosesOnce, redisSkipReason, startRedisServer, type RedisServer } from "@ag-ui-antigravity/testing";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisOwnershipStore } from "./redis-ownership-store.js";

const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });
const skipReason = redisSkipReason();

describe.skipIf(skipReason !== undefined)(`RedisOwnershipStore (a real redis-server)${skipReason === undefined ? "" : `: skipped, ${skipReason}`}`, () => {
  let server: RedisServer;
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    client = createClient({ url: server.url, disableOfflineQueue: true });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("claims atomically across replicas, keeps owners with a TTL refreshed by use, and survives a restart of the binding", async () => {
    const replicas = [0, 1, 2].map(() => new RedisOwnershipStore({ client, keyPrefix: "own", ttlMs: 60_000 }));
    const results = await Promise.all(replicas.map((store, index) => store.claim(key("t"), `user-${index}`)));
    expect(results.filter((result) => result === "claimed")).toHaveLength(1);
    const winner = `user-${results.indexOf("claimed")}`;
    const restarted = new RedisOwnershipStore({ client, keyPrefix: "own" });
    expect(await restarted.ownerOf(key("t"))).toBe(winner);
    expect(await restarted.claim(key("t"), "mallory")).toBe("refused");
    expect(await restarted.claim(key("t", "research"), "mallory")).toBe("claimed");
    const [redisKey] = await client.keys("own:owner:chat-*");
    expect(await client.pTTL(redisKey ?? "")).toBeGreaterThan(50_000);
    await restarted.release(key("t"), "mallory");
    expect(await restarted.ownerOf(key("t"))).toBe(winner);
    await restarted.release(key("t"), winner);
    expect(await restarted.ownerOf(key("t"))).toBeUndefined();
  });

  it("close() aborts signal, is idempotent, resolves closed and leaves the caller's client connected", async () => {
    const store = new RedisOwnershipStore({ client, keyPrefix: "closing" });
    await store.claim(key("t"), "alice");
    await expectClosesOnce(store, () => store.close());
    expect(client.isOpen).toBe(true);
    expect(await client.get(await client.keys("closing:owner:*").then((keys) => keys[0] ?? ""))).toBe("alice");
  });

  it("rejects (so the binding refuses the run) when Redis does not answer", async () => {
    const admin = createClient({ url: server.url });
    await admin.connect();
    try {
      const owners = new RedisOwnershipStore({ client, keyPrefix: "own", commandTimeoutMs: 200 });
      await admin.sendCommand(["CLIENT", "PAUSE", "1000", "WRITE"]);
      await expect(owners.claim(key("paused"), "alice")).rejects.toThrow(/did not answer/);
      await admin.sendCommand(["CLIENT", "UNPAUSE"]);
      expect(await owners.claim(key("after"), "alice")).toBe("claimed");
    } finally {
      await admin.close();
    }
  });
});
