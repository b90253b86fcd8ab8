import { afterEach, describe, expect, it } from "vitest";
import { FakeHarness, recordingLogger, waitFor, type FakeConfig, type FakeConversation } from "../../test/support/fake-harness.js";
import { PoolError } from "../errors/pool-error.js";
import { HarnessPool, type HarnessPoolOptions } from "./harness-pool.js";
import type { PoolLease } from "./pool-lease.js";

const pools: HarnessPool<FakeConfig, FakeConversation>[] = [];

function poolOver(harness: FakeHarness, options: Omit<HarnessPoolOptions<FakeConfig, FakeConversation>, "startProcess"> = {}) {
  const pool = new HarnessPool<FakeConfig, FakeConversation>({ healthCheckIntervalMs: 0, ...options, startProcess: harness.startProcess });
  pools.push(pool);
  return pool;
}

async function rejection(promise: Promise<unknown>): Promise<PoolError> {
  try {
    await promise;
  } catch (error) {
    if (PoolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close({ deadlineMs: 1_000 })));
});

describe("HarnessPool placement and capacity", () => {
  it("shares a process up to its capacity, then spills to a new one", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 2 });
    const first = await pool.acquire({ config: { name: "a" } });
    const second = await pool.acquire({ config: { name: "b" } });
    const third = await pool.acquire({ config: { name: "c" } });
    expect(first.processId).toBe(second.processId);
    expect(third.processId).not.toBe(first.processId);
    expect(harness.processes).toHaveLength(2);
    expect(pool.metrics().processDetails.map((process) => process.conversations)).toEqual([2, 1]);
  });

  it("gives every conversation its own process at capacity 1, and refuses capacity 0", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 1 });
    const leases = await Promise.all([1, 2, 3].map((index) => pool.acquire({ config: { name: `c${index}` } })));
    expect(new Set(leases.map((lease) => lease.pid)).size).toBe(3);
    const refused = (() => {
      try {
        new HarnessPool({ maxConversationsPerProcess: 0, startProcess: harness.startProcess });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(PoolError.isInstance(refused) && refused.code).toBe("CONFIG_INVALID");
  });

  it("never overfills a process under 100 concurrent acquires, and spawns in parallel", async () => {
    const harness = new FakeHarness({ startDelayMs: 30, openDelayMs: 2 });
    const pool = poolOver(harness, { maxConversationsPerProcess: 8 });
    let mostPerProcess = 0;
    const sample = setInterval(() => {
      for (const process of pool.metrics().processDetails) {
        mostPerProcess = Math.max(mostPerProcess, process.conversations + process.reservations);
      }
    }, 1);
    const leases = await Promise.all(Array.from({ length: 100 }, (_, index) => pool.acquire({ config: { name: `c${index}` } })));
    clearInterval(sample);
    expect(harness.processes).toHaveLength(13);
    expect(Math.max(...harness.processes.map((process) => process.mostOpenAtOnce))).toBeLessThanOrEqual(8);
    expect(mostPerProcess).toBeLessThanOrEqual(8);
    expect(harness.mostStartsAtOnce).toBe(13);
    expect(new Set(leases.map((lease) => lease.conversation)).size).toBe(100);
  });

  it("keeps partitions apart by storage directory and env, whatever the env order", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const plain = await pool.acquire({ config: { name: "a" }, partition: { storageDirectory: "/one" } });
    const otherDirectory = await pool.acquire({ config: { name: "b" }, partition: { storageDirectory: "/two" } });
    const withEnv = await pool.acquire({ config: { name: "c" }, partition: { storageDirectory: "/one", env: { A: "1", B: "2" } } });
    const reordered = await pool.acquire({ config: { name: "d" }, partition: { storageDirectory: "/one", env: { B: "2", A: "1" } } });
    const sameAsPlain = await pool.acquire({ config: { name: "e" }, partition: { storageDirectory: "/one" } });
    expect(new Set([plain.processId, otherDirectory.processId, withEnv.processId]).size).toBe(3);
    expect(reordered.processId).toBe(withEnv.processId);
    expect(sameAsPlain.processId).toBe(plain.processId);
    expect(harness.processes.map((process) => process.partition)).toEqual([
      { storageDirectory: "/one" },
      { storageDirectory: "/two" },
      { storageDirectory: "/one", env: { A: "1", B: "2" } },
    ]);
    const metrics = pool.metrics();
    expect(metrics.partitions).toHaveLength(3);
    expect(JSON.stringify(metrics)).not.toContain('"2"');
  });

  it("keeps placement groups apart inside one storage directory and env", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const chat = await pool.acquire({ config: { name: "chat" }, partition: { storageDirectory: "/one" } });
    const hitl = await pool.acquire({ config: { name: "hitl" }, partition: { storageDirectory: "/one", group: "hitl" } });
    const moreHitl = await pool.acquire({ config: { name: "hitl2" }, partition: { storageDirectory: "/one", group: "hitl" } });
    expect(hitl.processId).not.toBe(chat.processId);
    expect(moreHitl.processId).toBe(hitl.processId);
    expect(pool.metrics().partitions.map((partition) => partition.group)).toEqual([undefined, "hitl"]);
  });

  it("reuses a released slot, and release is idempotent", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 1 });
    const first = await pool.acquire({ config: { name: "a" } });
    await Promise.all([first.release(), first.release()]);
    expect(first.conversation.closed).toBe(true);
    expect(first.signal.aborted).toBe(true);
    const second = await pool.acquire({ config: { name: "b" } });
    expect(second.processId).toBe(first.processId);
    expect(harness.processes).toHaveLength(1);
    expect(pool.metrics().totals.releases).toBe(1);
  });

  it("packs onto a process pinned by parked conversations under fill-first, even when another is fuller", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 4 });
    const onFirst = await Promise.all([1, 2, 3, 4].map((index) => pool.acquire({ config: { name: `a${index}` } })));
    const onSecond = await Promise.all([1, 2].map((index) => pool.acquire({ config: { name: `b${index}` } })));
    expect(onSecond[0]!.processId).not.toBe(onFirst[0]!.processId);
    await Promise.all(onFirst.slice(0, 3).map((lease) => lease.release()));
    onFirst[3]!.setParked(true);
    const next = await pool.acquire({ config: { name: "c" } });
    expect(next.processId).toBe(onFirst[3]!.processId);
    expect(pool.metrics().processDetails.find((process) => process.id === next.processId)?.parkedConversations).toBe(1);
    onFirst[3]!.setParked(false);
    const after = await pool.acquire({ config: { name: "d" } });
    // Unparked, both hold two: the tie goes to the older process.
    expect(after.processId).toBe(onFirst[0]!.processId);
  });
});

describe("HarnessPool idle processes", () => {
  it("stops a process that stays empty past the idle grace, never a busy one", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 1, idleGraceMs: 60 });
    const idle = await pool.acquire({ config: { name: "a" } });
    const busy = await pool.acquire({ config: { name: "b" } });
    await idle.release();
    await waitFor(() => harness.alive.length === 1, { what: "the idle process to stop" });
    expect(harness.alive[0]!.pid).toBe(busy.pid);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(busy.signal.aborted).toBe(false);
    expect(pool.metrics().totals.idleStops).toBe(1);
  });

  it("keeps warm spares, so an acquire does not wait for a spawn, and replaces a spare once used", async () => {
    const harness = new FakeHarness({ startDelayMs: 300 });
    const pool = poolOver(harness, { maxConversationsPerProcess: 1, idleGraceMs: 20, minIdleProcesses: 1 });
    await pool.warm();
    expect(harness.alive).toHaveLength(1);
    const started = performance.now();
    const lease = await pool.acquire({ config: { name: "a" } });
    expect(performance.now() - started).toBeLessThan(200);
    await waitFor(() => harness.alive.length === 2, { what: "the replacement spare" });
    await lease.release();
    // Two empty processes: the grace stops one and keeps the spare.
    await waitFor(() => harness.alive.length === 1, { what: "the surplus spare to stop" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.alive).toHaveLength(1);
  });

  it("lets a kept spare go once warm() lowers the target", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { idleGraceMs: 40 });
    await pool.warm({ minIdleProcesses: 1 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(harness.alive).toHaveLength(1);
    await pool.warm({ minIdleProcesses: 0 });
    await waitFor(() => harness.alive.length === 0, { what: "the spare to stop" });
  });

  it("stops an idle process that fails its health check and counts it", async () => {
    const harness = new FakeHarness();
    const logger = recordingLogger();
    const pool = poolOver(harness, { healthCheckIntervalMs: 20, healthCheckTimeoutMs: 30, logger });
    const lease = await pool.acquire({ config: { name: "a" } });
    await lease.release();
    harness.processes[0]!.healthy = false;
    await waitFor(() => !harness.processes[0]!.alive, { what: "the wedged process to stop" });
    expect(pool.metrics().totals.healthCheckFailures).toBe(1);
    expect(logger.lines.some((line) => line.level === "warn" && /health check/.test(line.message))).toBe(true);
    const next = await pool.acquire({ config: { name: "b" } });
    expect(next.pid).not.toBe(lease.pid);
  });

  it("does not probe a process while it holds conversations", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { healthCheckIntervalMs: 10 });
    const lease = await pool.acquire({ config: { name: "a" } });
    harness.processes[0]!.healthy = false;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(harness.processes[0]!.healthChecks).toBe(0);
    expect(lease.signal.aborted).toBe(false);
  });
});

describe("HarnessPool failures", () => {
  it("fails every conversation of a dead process at once, and the next acquire works", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const leases = await Promise.all([1, 2, 3].map((index) => pool.acquire({ config: { name: `c${index}` } })));
    harness.processes[0]!.die();
    for (const lease of leases) {
      expect(lease.signal.aborted).toBe(true);
      expect(PoolError.isInstance(lease.signal.reason) && lease.signal.reason.code).toBe("PROCESS_DIED");
      expect((lease.signal.reason as PoolError).stderrTail).toEqual([`fake ${lease.pid} stderr`]);
    }
    const next = await pool.acquire({ config: { name: "after" } });
    expect(next.pid).not.toBe(leases[0]!.pid);
    expect(pool.metrics().totals.crashes).toBe(1);
    expect(pool.metrics().processes).toBe(1);
  });

  it("backs off a crash loop instead of retrying hot, reports it, and recovers after the pause", async () => {
    let failing = true;
    const harness = new FakeHarness({ failStart: () => failing });
    const logger = recordingLogger();
    const pool = poolOver(harness, { logger, spawnBackoff: { initialDelayMs: 150 } });
    expect((await rejection(pool.acquire({ config: { name: "a" } }))).code).toBe("SPAWN_FAILED");
    expect((await rejection(pool.acquire({ config: { name: "b" } }))).code).toBe("SPAWN_FAILED");
    const refused = await rejection(pool.acquire({ config: { name: "c" } }));
    expect(refused.code).toBe("SPAWN_BACKOFF");
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(150);
    expect(harness.startAttempts).toBe(2);
    const metrics = pool.metrics();
    expect(metrics.partitions[0]!.consecutiveFailures).toBe(2);
    expect(metrics.partitions[0]!.backoffRemainingMs).toBeGreaterThan(0);
    expect(metrics.totals.backoffRefusals).toBe(1);
    expect(logger.lines.filter((line) => line.level === "error")).toHaveLength(2);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lease = await pool.acquire({ config: { name: "d" } });
    expect(lease.conversation.closed).toBe(false);
  });

  it("doubles the pause with each further failure", async () => {
    const harness = new FakeHarness({ failStart: () => true });
    const pool = poolOver(harness, { spawnBackoff: { initialDelayMs: 40, maxDelayMs: 1_000 } });
    await rejection(pool.acquire({ config: { name: "a" } }));
    await rejection(pool.acquire({ config: { name: "a" } }));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await rejection(pool.acquire({ config: { name: "a" } }));
    const refused = await rejection(pool.acquire({ config: { name: "a" } }));
    expect(refused.code).toBe("SPAWN_BACKOFF");
    expect(refused.retryAfterMs).toBeGreaterThan(40);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(80);
  });

  it("fails only the conversation a process refuses, never the process or its siblings", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const sibling = await pool.acquire({ config: { name: "ok" } });
    const refused = await rejection(pool.acquire({ config: { name: "bad", failOpen: true } }));
    expect(refused.code).toBe("OPEN_FAILED");
    expect((refused.cause as Error).message).toMatch(/init failed/);
    expect(sibling.signal.aborted).toBe(false);
    expect(harness.alive).toHaveLength(1);
    expect(pool.metrics().processDetails[0]!.reservations).toBe(0);
  });

  it("gives up an acquire when its signal aborts, and leaves the spawn to the pool", async () => {
    const harness = new FakeHarness({ startDelayMs: 100 });
    const pool = poolOver(harness);
    const controller = new AbortController();
    const pending = pool.acquire({ config: { name: "a" }, signal: controller.signal });
    controller.abort(new Error("user left"));
    const error = await rejection(pending);
    expect(error.code).toBe("ACQUIRE_ABORTED");
    expect((error.cause as Error).message).toBe("user left");
    expect((await rejection(pool.acquire({ config: { name: "b" }, signal: controller.signal }))).code).toBe("ACQUIRE_ABORTED");
    await waitFor(() => pool.metrics().processDetails[0]?.state === "ready", { what: "the spawn to finish" });
    expect(pool.metrics().processDetails[0]!.reservations).toBe(0);
  });

  it("replaces a process that dies while an acquire waits to open on it", async () => {
    const harness = new FakeHarness({ openDelayMs: 50 });
    const pool = poolOver(harness);
    const first = await pool.acquire({ config: { name: "a" } });
    const pending = pool.acquire({ config: { name: "b" } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    harness.processes[0]!.die();
    const lease = await pending;
    expect(lease.pid).not.toBe(first.pid);
    expect(first.signal.aborted).toBe(true);
  });
});

describe("HarnessPool exits noticed during an open", () => {
  it("places the acquire again when the open fails because the process has just exited", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const first = await pool.acquire({ config: { name: "a" } });
    harness.processes[0]!.exitQuietly();
    const lease = await pool.acquire({ config: { name: "b" } });
    expect(lease.pid).not.toBe(first.pid);
    expect(PoolError.isInstance(first.signal.reason) && first.signal.reason.code).toBe("PROCESS_DIED");
    expect(pool.metrics().totals.crashes).toBe(1);
  });
});

describe("HarnessPool process cap", () => {
  it("queues acquires beyond maxProcesses until a slot frees", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 1, maxProcesses: 2 });
    const first = await pool.acquire({ config: { name: "a" } });
    await pool.acquire({ config: { name: "b" } });
    let third: PoolLease<FakeConversation> | undefined;
    const pending = pool.acquire({ config: { name: "c" } }).then((lease) => (third = lease));
    await waitFor(() => pool.metrics().waitingAcquires === 1, { what: "the acquire to queue" });
    expect(third).toBeUndefined();
    await first.release();
    await pending;
    expect(third!.processId).toBe(first.processId);
    expect(harness.processes).toHaveLength(2);
  });

  it("stops an idle process of another partition to make room", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxProcesses: 1 });
    const elsewhere = await pool.acquire({ config: { name: "a" }, partition: { storageDirectory: "/one" } });
    await elsewhere.release();
    const lease = await pool.acquire({ config: { name: "b" }, partition: { storageDirectory: "/two" } });
    expect(lease.pid).not.toBe(elsewhere.pid);
    expect(harness.alive).toHaveLength(1);
    expect(pool.metrics().totals.idleStops).toBe(1);
  });
});

describe("HarnessPool shutdown", () => {
  it("closes conversations, then processes; refuses acquires after; close is idempotent", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness, { maxConversationsPerProcess: 2 });
    const leases = await Promise.all([1, 2, 3].map((index) => pool.acquire({ config: { name: `c${index}` } })));
    const closing = pool.close();
    expect(pool.close()).toBe(closing);
    await closing;
    for (const lease of leases) {
      expect(lease.conversation.closed).toBe(true);
      expect(PoolError.isInstance(lease.signal.reason) && lease.signal.reason.code).toBe("POOL_CLOSED");
    }
    expect(harness.alive).toHaveLength(0);
    expect(harness.processes.every((process) => process.closeCalls === 1)).toBe(true);
    expect(pool.signal.aborted).toBe(true);
    expect((await rejection(pool.acquire({ config: { name: "late" } }))).code).toBe("POOL_CLOSED");
  });

  it("aborts spawns and queued acquires when it closes", async () => {
    const harness = new FakeHarness({ startDelayMs: 5_000 });
    const pool = poolOver(harness, { maxProcesses: 1, maxConversationsPerProcess: 1 });
    const spawning = pool.acquire({ config: { name: "a" } });
    const queued = pool.acquire({ config: { name: "b" } });
    await waitFor(() => pool.metrics().waitingAcquires === 1, { what: "the second acquire to queue" });
    await pool.close();
    expect((await rejection(spawning)).code).toBe("POOL_CLOSED");
    expect((await rejection(queued)).code).toBe("POOL_CLOSED");
    expect(harness.abortedStarts).toBe(1);
    expect(pool.metrics().processes).toBe(0);
  });

  it("drains: refuses new work, waits for holders to release, then closes", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const lease = await pool.acquire({ config: { name: "a" } });
    let drained = false;
    const draining = pool.drain({ deadlineMs: 5_000 }).then(() => (drained = true));
    expect((await rejection(pool.acquire({ config: { name: "b" } }))).code).toBe("POOL_CLOSED");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(drained).toBe(false);
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    await draining;
    expect(harness.alive).toHaveLength(0);
  });

  it("drain gives up waiting at its deadline and closes what is left", async () => {
    const harness = new FakeHarness();
    const pool = poolOver(harness);
    const lease = await pool.acquire({ config: { name: "a" } });
    await pool.drain({ deadlineMs: 50 });
    expect(lease.conversation.closed).toBe(true);
    expect(harness.alive).toHaveLength(0);
  });

  it("closes when its owner's signal aborts", async () => {
    const harness = new FakeHarness();
    const owner = new AbortController();
    const pool = poolOver(harness, { signal: owner.signal });
    await pool.acquire({ config: { name: "a" } });
    owner.abort();
    await pool.closed;
    expect(harness.alive).toHaveLength(0);
  });
});

describe("HarnessPool metrics", () => {
  it("reports processes, conversations, spawns and spawn latency", async () => {
    const harness = new FakeHarness({ startDelayMs: 20 });
    const pool = poolOver(harness, { maxConversationsPerProcess: 2 });
    const leases = await Promise.all([1, 2, 3].map((index) => pool.acquire({ config: { name: `c${index}` } })));
    leases[0]!.setParked(true);
    const metrics = pool.metrics();
    expect(metrics.processes).toBe(2);
    expect(metrics.conversations).toBe(3);
    expect(metrics.totals.spawns).toBe(2);
    expect(metrics.totals.acquires).toBe(3);
    expect(metrics.spawnLatencyMs.count).toBe(2);
    expect(metrics.spawnLatencyMs.p50).toBeGreaterThanOrEqual(15);
    expect(metrics.spawnLatencyMs.p95).toBeGreaterThanOrEqual(metrics.spawnLatencyMs.p50!);
    expect(metrics.processDetails.map((process) => process.parkedConversations).sort()).toEqual([0, 1]);
    expect(metrics.partitions[0]).toMatchObject({ processes: 2, conversations: 3, spawns: 2, crashes: 0 });
  });
});
