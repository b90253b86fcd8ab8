import { expectClosesOnce, redisSkipReason, startRedisServer, type RedisServer } from "@ag-ui-antigravity/testing";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fingerprintMessage } from "../input/message-fingerprint.js";
import { AntigravityAgent } from "../antigravity-agent.js";
import { RedisThreadStore } from "./redis-thread-store.js";

const record = (conversationId: string, text = "hi") => ({ conversationId, forwarded: [fingerprintMessage("u1", text)], toolSignature: "sig" });
const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });
const skipReason = redisSkipReason();

describe.skipIf(skipReason !== undefined)(`RedisThreadStore (a real redis-server)${skipReason === undefined ? "" : `: skipped, ${skipReason}`}`, () => {
  let server: RedisServer;
  const clients: Array<{ close(): Promise<void> }> = [];
  const stores: RedisThreadStore[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  async function connect() {
    const client = createClient({ url: server.url, disableOfflineQueue: true });
    await client.connect();
    clients.push(client);
    return client;
  }
  async function store(options: Partial<ConstructorParameters<typeof RedisThreadStore>[0]> = {}) {
    const created = new RedisThreadStore({ client: options.client ?? (await connect()), keyPrefix: `test-${Math.random().toString(36).slice(2)}`, ...options });
    stores.push(created);
    return created;
  }

  it("round-trips records keyed by (agent, thread), with the thread's time to live as the key's TTL", async () => {
    const client = await connect();
    const threads = await store({ client, ttlMs: 60_000, keyPrefix: "ttl-test" });
    await threads.set(key("t", "alpha"), record("c-alpha", "x".repeat(900_000)));
    expect(await threads.get(key("t", "alpha"))).toMatchObject({ conversationId: "c-alpha", forwarded: [fingerprintMessage("u1", "x".repeat(900_000))] });
    expect(await threads.get(key("t", "beta"))).toBeUndefined();
    const keys = await client.keys("ttl-test:thread:*");
    expect(keys).toHaveLength(1);
    const ttl = await client.pTTL(keys[0] ?? "");
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Digests, not text: the 900 kB message costs a few hundred bytes.
    expect((await client.get(keys[0] ?? ""))?.length).toBeLessThan(400);
    await threads.delete(key("t", "alpha"));
    expect(await threads.get(key("t", "alpha"))).toBeUndefined();
  });

  it("two replicas see each other's threads", async () => {
    const keyPrefix = "shared";
    const [first, second] = [await store({ keyPrefix }), await store({ keyPrefix })];
    await first.set(key("t"), record("c1"));
    expect(await second.get(key("t"))).toMatchObject({ conversationId: "c1" });
  });

  it("a write Redis does not answer is kept, reported, and written with the next change", async () => {
    const admin = await connect();
    const warnings: string[] = [];
    const threads = await store({ keyPrefix: "retry", commandTimeoutMs: 200, logger: { warn: (_details, message) => warnings.push(message) } });
    await admin.sendCommand(["CLIENT", "PAUSE", "1500", "WRITE"]);
    await expect(threads.set(key("t1"), record("c1"))).resolves.toBeUndefined();
    expect(threads.stats()).toMatchObject({ kind: "redis", writeFailures: 1, pendingWrites: 1 });
    expect(warnings).toContain("the thread map could not be written to Redis; retrying with the next change");
    expect(await threads.get(key("t1"))).toMatchObject({ conversationId: "c1" });
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
    await threads.set(key("t2"), record("c2"));
    expect(threads.stats()).toMatchObject({ pendingWrites: 0, commands: 3 });
    const reader = await store({ keyPrefix: "retry" });
    expect(await reader.get(key("t1"))).toMatchObject({ conversationId: "c1" });
    expect(await reader.get(key("t2"))).toMatchObject({ conversationId: "c2" });
  });

  it("ping() answers while Redis does, and an agent on the store is not ready while Redis is stalled", async () => {
    const admin = await connect();
    const threads = await store({ keyPrefix: "ready", commandTimeoutMs: 200 });
    const agent = new AntigravityAgent({ harness: "emulator", threadStore: threads });
    try {
      await expect(threads.ping()).resolves.toBeUndefined();
      expect(await agent.readiness()).toEqual({ ready: true });
      await admin.sendCommand(["CLIENT", "PAUSE", "1000", "ALL"]);
      expect(await agent.readiness()).toEqual({ ready: false, code: "THREAD_STORE_UNAVAILABLE", reason: "The agent's redis thread store cannot be reached." });
      await admin.sendCommand(["CLIENT", "UNPAUSE"]);
      expect(await agent.readiness()).toEqual({ ready: true });
    } finally {
      await agent.close();
    }
  });

  it("leases: one live replica holds a thread; a replica that is gone (closed, or silent past its TTL) loses it", async () => {
    const keyPrefix = "leases";
    const a = await store({ keyPrefix, replicaId: "replica-a", replicaTtlMs: 60_000 });
    const b = await store({ keyPrefix, replicaId: "replica-b", replicaTtlMs: 60_000 });
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true });
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true });
    expect(await b.leases.acquire(key("t"))).toEqual({ acquired: false, holder: "replica-a" });
    expect(await b.leases.holder(key("t"))).toBe("replica-a");
    await a.leases.release(key("t"));
    expect(await b.leases.acquire(key("t"))).toEqual({ acquired: true });
    // b holds it now; b closes (its heartbeat is removed): a takes over and learns who held it.
    await b.close();
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true, previousHolder: "replica-b" });
    // A replica killed without closing: its heartbeat lapses.
    const admin = await connect();
    const c = await store({ keyPrefix, replicaId: "replica-c", replicaTtlMs: 60_000 });
    expect(await c.leases.acquire(key("u"))).toEqual({ acquired: true });
    expect(await a.leases.acquire(key("u"))).toEqual({ acquired: false, holder: "replica-c" });
    await admin.del(`${keyPrefix}:replica:replica-c`);
    expect(await a.leases.holder(key("u"))).toBeUndefined();
    expect(await a.leases.acquire(key("u"))).toEqual({ acquired: true, previousHolder: "replica-c" });
  });

  it("close() aborts signal, is idempotent, resolves closed, and stops and removes the heartbeat: no command is sent afterwards", async () => {
    const admin = await connect();
    const keyPrefix = "closing";
    const threads = await store({ keyPrefix, replicaId: "replica-closing", replicaTtlMs: 300 });
    await threads.startHeartbeat();
    expect(await admin.exists(`${keyPrefix}:replica:replica-closing`)).toBe(1);
    await expectClosesOnce(threads, () => threads.close());
    expect(await admin.exists(`${keyPrefix}:replica:replica-closing`)).toBe(0);
    const sent = threads.commandsSent;
    // Three heartbeat periods: a heartbeat left running would have sent at least one command.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(threads.commandsSent).toBe(sent);
    // A closed store does not start its heartbeat again.
    await threads.startHeartbeat();
    expect(threads.commandsSent).toBe(sent);
  });
});
