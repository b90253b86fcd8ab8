import { expectClosesOnce, redisSkipReason, startRedisServer, type RedisServer } from "@ag-ui-antigravity/testing";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AntigravityAgent } from "../../antigravity-agent.js";
import { fingerprintMessage } from "../../input/message-fingerprint.js";
import { RedisThreadStore } from "./redis-thread-store.js";
import { threadNames } from "./thread-digest.js";

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
    const keys = await client.keys("ttl-test:record:*");
    expect(keys).toHaveLength(1);
    const ttl = await client.pTTL(keys[0] ?? "");
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Digests, not text: the 900 kB message costs a few hundred bytes.
    expect((await client.hGet(keys[0] ?? "", "record"))?.length).toBeLessThan(400);
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
    expect(threads.stats()).toMatchObject({ pendingWrites: 0 });
    const reader = await store({ keyPrefix: "retry" });
    expect(await reader.get(key("t1"))).toMatchObject({ conversationId: "c1" });
    expect(await reader.get(key("t2"))).toMatchObject({ conversationId: "c2" });
  });

  it("ping() answers while Redis does, and an agent on the store is not ready while Redis is stalled", async () => {
    const admin = await connect();
    // A deadline a loaded machine's PING meets (200 ms did not, once), well under the pause.
    const threads = await store({ keyPrefix: "ready", commandTimeoutMs: 1_000 });
    const agent = new AntigravityAgent({ harness: "emulator", threadStore: threads });
    try {
      await expect(threads.ping()).resolves.toBeUndefined();
      expect(await agent.readiness()).toEqual({ ready: true });
      await admin.sendCommand(["CLIENT", "PAUSE", "2500", "ALL"]);
      expect(await agent.readiness()).toEqual({ ready: false, code: "THREAD_STORE_UNAVAILABLE", reason: "The agent's redis thread store cannot be reached." });
      await admin.sendCommand(["CLIENT", "UNPAUSE"]);
      expect(await agent.readiness()).toEqual({ ready: true });
    } finally {
      await agent.close();
    }
  });

  it("leases: one live replica holds a thread with a fencing token that grows with every acquisition; a replica that is gone (closed, or silent past its TTL) loses it", async () => {
    const keyPrefix = "leases";
    const a = await store({ keyPrefix, replicaId: "replica-a", replicaTtlMs: 60_000 });
    const b = await store({ keyPrefix, replicaId: "replica-b", replicaTtlMs: 300 });
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true, fence: 1 });
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true, fence: 2 });
    // a beats (it is alive): b, which waits for a holder that may be gone, sees it beat and gives up.
    const admin = await connect();
    const beating = setInterval(() => void admin.set(`${keyPrefix}:replica:replica-a`, String(Date.now()), { PX: 60_000 }), 40);
    try {
      expect(await b.leases.acquire(key("t"))).toEqual({ acquired: false, holder: "replica-a" });
    } finally {
      clearInterval(beating);
    }
    expect(await b.leases.holder(key("t"))).toBe("replica-a");
    await a.leases.release(key("t"), { fence: 1 });
    expect(await b.leases.holder(key("t"))).toBe("replica-a");
    await a.leases.release(key("t"), { fence: 2 });
    expect(await b.leases.acquire(key("t"))).toEqual({ acquired: true, fence: 3 });
    // b holds it now; b closes (its heartbeat is removed): a takes over at once and learns who held it.
    await b.close();
    expect(await a.leases.acquire(key("t"))).toEqual({ acquired: true, fence: 4, previousHolder: "replica-b" });
  });

  it("a run for a thread whose holder is gone (killed: its heartbeat stops) waits for the heartbeat to lapse, then takes the thread over", async () => {
    const keyPrefix = "takeover";
    const admin = await connect();
    // A replica that held the thread and was killed (kill -9): its lease stays, its last beat expires.
    const names = threadNames(key("t"));
    await admin.hSet(`${keyPrefix}:record:${names.agent}:${names.thread}`, { holder: "killed", fence: "1" });
    await admin.set(`${keyPrefix}:replica:killed`, "last beat", { PX: 600 });
    const survivor = await store({ keyPrefix, replicaId: "survivor", replicaTtlMs: 600 });
    const started = Date.now();
    expect(await survivor.leases.acquire(key("t"))).toMatchObject({ acquired: true, previousHolder: "killed" });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThan(300);
    expect(waited).toBeLessThan(600 + 500 + 1_000);
  });

  it("fencing: once another replica took the thread, the stale holder's confirm fails and its writes are refused, and its listeners hear it", async () => {
    const keyPrefix = "fencing";
    const admin = await connect();
    const stale = await store({ keyPrefix, replicaId: "stale", replicaTtlMs: 60_000 });
    const fresh = await store({ keyPrefix, replicaId: "fresh", replicaTtlMs: 60_000 });
    const held = await stale.leases.acquire(key("t"));
    if (!held.acquired) throw new Error("not acquired");
    await stale.set(key("t"), record("c-stale"), { lease: held });
    expect(await stale.leases.confirm(key("t"), held)).toBe(true);
    // The stale replica pauses: its heartbeat lapses, and the other replica takes the thread.
    await admin.del(`${keyPrefix}:replica:stale`);
    const taken = await fresh.leases.acquire(key("t"));
    if (!taken.acquired) throw new Error("not taken over");
    expect(taken.fence).toBeGreaterThan(held.fence);
    await fresh.set(key("t"), record("c-fresh"), { lease: taken });
    const lost: unknown[] = [];
    stale.leases.onLost((event) => void lost.push(event));
    expect(await stale.leases.confirm(key("t"), held)).toBe(false);
    await stale.set(key("t"), record("c-stale-again"), { lease: held });
    await stale.setTranscript(key("t"), { messages: [{ id: "m", role: "user", content: "stale" }], omittedMessages: 0 }, { lease: held });
    expect(await fresh.get(key("t"))).toMatchObject({ conversationId: "c-fresh" });
    expect(await fresh.getTranscript(key("t"))).toBeUndefined();
    expect(stale.stats().staleWritesRefused).toBe(2);
    expect(lost).toEqual([{ key: key("t"), lease: held }, { key: key("t"), lease: held }]);
  });

  it("a replica whose heartbeat lapsed (a pause past its TTL) tells its listeners before it serves again", async () => {
    let now = Date.now();
    const paused = await store({ keyPrefix: "lapse", replicaId: "paused", replicaTtlMs: 1_000, now: () => now });
    await paused.startHeartbeat();
    const lost: unknown[] = [];
    paused.leases.onLost((event) => void lost.push(event));
    expect(paused.leases.checkLapse()).toBe(false);
    now += 1_500;
    expect(paused.leases.checkLapse()).toBe(true);
    expect(paused.leases.checkLapse()).toBe(true);
    expect(lost).toEqual(["all"]);
  });

  it("owners: a claim is atomic across replicas, kept with the record (one TTL), listed per owner, and undone only while the thread has no conversation", async () => {
    const keyPrefix = "owners";
    const replicas = await Promise.all([0, 1, 2].map(() => store({ keyPrefix })));
    const results = await Promise.all(replicas.map((replica, index) => replica.claim(key("t"), `user-${index}`)));
    expect(results.filter((result) => result === "claimed")).toHaveLength(1);
    const winner = `user-${results.indexOf("claimed")}`;
    const [first] = replicas as [RedisThreadStore];
    expect(await first.claim(key("t"), winner)).toBe("owned");
    expect(await first.claim(key("t"), "mallory")).toBe("refused");
    expect(await first.claim(key("t", "research"), "mallory")).toBe("claimed");
    await first.set(key("t"), { ...record("c1"), summary: { threadId: "t", firstUserMessage: "hello" } });
    expect(await first.get(key("t"))).toMatchObject({ conversationId: "c1", owner: winner });
    expect(await first.listByOwner("chat", winner, { limit: 10 })).toEqual([{ threadId: "t", lastActivityAt: expect.any(Number), firstUserMessage: "hello" }]);
    expect(await first.listByOwner("chat", "mallory", { limit: 10 })).toEqual([]);
    // A claim undone: only while the thread has no conversation yet.
    await first.releaseClaim(key("t"), winner);
    expect((await first.get(key("t")))?.owner).toBe(winner);
    await first.releaseClaim(key("t", "research"), "mallory");
    expect(await first.get(key("t", "research"))).toBeUndefined();
  });

  it("keeps the transcript beside the record, cut to its byte bound (the newest messages)", async () => {
    const threads = await store({ keyPrefix: "transcripts", maxTranscriptBytes: 2_000 });
    const messages = Array.from({ length: 50 }, (_, index) => ({ id: `m${index}`, role: "user" as const, content: `message ${index} ${"x".repeat(40)}` }));
    await threads.setTranscript(key("t"), { messages, state: { step: 3 }, omittedMessages: 2 });
    const kept = await threads.getTranscript(key("t"));
    expect(kept?.messages.at(-1)).toEqual(messages.at(-1));
    expect(kept?.messages.length).toBeLessThan(50);
    expect(kept?.omittedMessages).toBe(2 + 50 - (kept?.messages.length ?? 0));
    expect(kept?.state).toEqual({ step: 3 });
    expect(await threads.getTranscript(key("t", "other-agent"))).toBeUndefined();
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
