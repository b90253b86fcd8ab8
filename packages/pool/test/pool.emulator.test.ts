import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { activeHandleCounts, expectNoActiveHandles, expectNoChildProcesses, isProcessAlive } from "@ag-ui-antigravity/testing";
import { HarnessPool, PoolError, type PoolLease } from "../src/index.js";
import { HarnessError, type Conversation } from "@ag-ui-antigravity/harness";
import { deferred, emulatorPool, plainConfig, TemporaryDirectories, timed, toolConfig } from "./support/emulator-pool.js";

const pools: HarnessPool[] = [];
const directories = new TemporaryDirectories();

function track(pool: HarnessPool): HarnessPool {
  pools.push(pool);
  return pool;
}

async function say(lease: PoolLease<Conversation>, text: string): Promise<string> {
  return (await lease.conversation.send(text).result).text;
}

let handlesBefore: Record<string, number> = {};

beforeAll(() => {
  handlesBefore = activeHandleCounts();
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  directories.removeAll();
});

afterAll(async () => {
  await expectNoChildProcesses({ graceMs: 5_000 });
  await expectNoActiveHandles({ graceMs: 5_000, baseline: handlesBefore });
});

describe("HarnessPool against the emulator", () => {
  it("shares processes only inside a partition (storage directory and env)", async () => {
    const pool = track(emulatorPool());
    const first = directories.create();
    const second = directories.create();
    const a = await pool.acquire({ config: plainConfig(), partition: { storageDirectory: first } });
    const b = await pool.acquire({ config: plainConfig(), partition: { storageDirectory: first } });
    const c = await pool.acquire({ config: plainConfig(), partition: { storageDirectory: second } });
    const d = await pool.acquire({ config: plainConfig(), partition: { storageDirectory: first, env: { POOL_TEST_TENANT: "x" } } });
    expect(a.pid).toBe(b.pid);
    expect(new Set([a.pid, c.pid, d.pid]).size).toBe(3);
    const answers = await Promise.all([a, b, c, d].map((lease, index) => say(lease, `hello ${index}`)));
    expect(answers).toEqual(["ok: hello 0", "ok: hello 1", "ok: hello 2", "ok: hello 3"]);
    expect(pool.metrics().partitions.map((partition) => partition.processes).sort()).toEqual([1, 1, 1]);
  });

  it("never exceeds the capacity of a process under 100 concurrent acquires", async () => {
    const pool = track(emulatorPool({ maxConversationsPerProcess: 8 }));
    let mostPerProcess = 0;
    const sample = setInterval(() => {
      for (const process of pool.metrics().processDetails) {
        mostPerProcess = Math.max(mostPerProcess, process.conversations + process.reservations);
      }
    }, 2);
    try {
      const leases = await Promise.all(Array.from({ length: 100 }, () => pool.acquire({ config: plainConfig() })));
      const perPid = new Map<number | undefined, number>();
      for (const lease of leases) perPid.set(lease.pid, (perPid.get(lease.pid) ?? 0) + 1);
      expect(perPid.size).toBe(13);
      expect(Math.max(...perPid.values())).toBeLessThanOrEqual(8);
      expect(mostPerProcess).toBeLessThanOrEqual(8);
      expect(pool.metrics().totals.spawns).toBe(13);
      // Every conversation is real: a sample of them answer.
      const answers = await Promise.all(leases.filter((_, index) => index % 10 === 0).map((lease) => say(lease, "ping")));
      expect(answers.every((answer) => answer === "ok: ping")).toBe(true);
    } finally {
      clearInterval(sample);
    }
  }, 90_000);

  it("stops a process that stays empty past the idle grace", async () => {
    const pool = track(emulatorPool({ idleGraceMs: 300 }));
    const lease = await pool.acquire({ config: plainConfig() });
    const pid = lease.pid!;
    await lease.release();
    expect(isProcessAlive(pid)).toBe(true);
    const deadline = Date.now() + 10_000;
    // The pool forgets the process once its close has finished, a little after the exit.
    while ((isProcessAlive(pid) || pool.metrics().processes > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(isProcessAlive(pid)).toBe(false);
    expect(pool.metrics()).toMatchObject({ processes: 0, totals: { idleStops: 1 } });
  });

  it("hides the spawn behind a pre-warmed process", async () => {
    const cold = track(emulatorPool());
    const coldAcquire = await timed(() => cold.acquire({ config: plainConfig() }));
    const warm = track(emulatorPool({ minIdleProcesses: 1 }));
    await warm.warm();
    const spawnMs = warm.metrics().spawnLatencyMs.p50!;
    const warmAcquire = await timed(() => warm.acquire({ config: plainConfig() }));
    expect(warmAcquire.value.processId).toBe(1);
    // The warm acquire only opens a WebSocket; the cold one waited for a whole spawn too.
    expect(warmAcquire.ms).toBeLessThan(spawnMs);
    expect(warmAcquire.ms).toBeLessThan(coldAcquire.ms);
    expect(await say(warmAcquire.value, "warm")).toBe("ok: warm");
    // Using the spare started its successor.
    const deadline = Date.now() + 10_000;
    while (warm.metrics().processDetails.filter((process) => process.state === "ready").length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(warm.metrics().processDetails.filter((process) => process.conversations === 0 && process.state === "ready")).toHaveLength(1);
  });

  it("fails every conversation of a dead process promptly, and the next acquire works", async () => {
    const pool = track(emulatorPool());
    const leases = await Promise.all([1, 2, 3].map(() => pool.acquire({ config: plainConfig() })));
    expect(new Set(leases.map((lease) => lease.pid)).size).toBe(1);
    const pid = leases[0]!.pid!;
    const inFlight = leases[1]!.conversation.send("stall").result;
    const diedAt = performance.now();
    process.kill(pid, "SIGKILL");
    const reasons = await Promise.all(
      leases.map(
        (lease) =>
          new Promise<unknown>((resolve) => {
            if (lease.signal.aborted) resolve(lease.signal.reason);
            else lease.signal.addEventListener("abort", () => resolve(lease.signal.reason), { once: true });
          }),
      ),
    );
    expect(performance.now() - diedAt).toBeLessThan(2_000);
    for (const reason of reasons) expect(PoolError.isInstance(reason) && reason.code).toBe("PROCESS_DIED");
    await expect(inFlight).rejects.toThrow();
    const next = await pool.acquire({ config: plainConfig() });
    expect(next.pid).not.toBe(pid);
    expect(await say(next, "again")).toBe("ok: again");
    expect(pool.metrics().totals.crashes).toBe(1);
  });

  it("backs off when processes keep dying, instead of respawning hot", async () => {
    const pool = track(emulatorPool({ spawnBackoff: { initialDelayMs: 500 } }));
    const waitForDeath = (lease: PoolLease<Conversation>) =>
      new Promise<void>((resolve) => lease.signal.addEventListener("abort", () => resolve(), { once: true }));
    const first = await pool.acquire({ config: plainConfig() });
    const firstDeath = waitForDeath(first);
    void first.conversation.send("exit").result.catch(() => undefined);
    await firstDeath;
    // One crash is replaced at once.
    const second = await pool.acquire({ config: plainConfig() });
    const secondDeath = waitForDeath(second);
    void second.conversation.send("exit").result.catch(() => undefined);
    await secondDeath;
    const refused = await pool.acquire({ config: plainConfig() }).catch((error: unknown) => error);
    expect(PoolError.isInstance(refused) && refused.code).toBe("SPAWN_BACKOFF");
    expect((refused as PoolError).retryAfterMs).toBeGreaterThan(0);
    expect(pool.metrics().partitions[0]).toMatchObject({ crashes: 2, consecutiveFailures: 2 });
    await new Promise((resolve) => setTimeout(resolve, (refused as PoolError).retryAfterMs! + 50));
    const recovered = await pool.acquire({ config: plainConfig() });
    expect(await say(recovered, "recovered")).toBe("ok: recovered");
  });

  it("reports a harness that cannot start as SPAWN_FAILED with the client's error as cause", async () => {
    const pool = track(
      new HarnessPool({ healthCheckIntervalMs: 0, harness: { binaryPath: "/nonexistent/localharness" }, spawnBackoff: { initialDelayMs: 5_000 } }),
    );
    const failures = [];
    for (let attempt = 0; attempt < 3; attempt += 1) failures.push(await pool.acquire({ config: plainConfig() }).catch((error: unknown) => error));
    expect(failures.map((error) => PoolError.isInstance(error) && error.code)).toEqual(["SPAWN_FAILED", "SPAWN_FAILED", "SPAWN_BACKOFF"]);
    expect(HarnessError.isInstance((failures[0] as PoolError).cause)).toBe(true);
    expect(pool.metrics().totals).toMatchObject({ spawnFailures: 2, backoffRefusals: 1 });
  });

  it("keeps a parked conversation from blocking its siblings", async () => {
    const pool = track(emulatorPool());
    const answer = deferred<string>();
    let parkedCalls = 0;
    const parked = await pool.acquire({
      config: toolConfig(async () => {
        parkedCalls += 1;
        return { answer: await answer.promise };
      }),
    });
    const siblings = await Promise.all([1, 2, 3].map(() => pool.acquire({ config: plainConfig() })));
    expect(siblings.every((lease) => lease.pid === parked.pid)).toBe(true);
    const parkedTurn = parked.conversation.send("please use slow_lookup").result;
    while (parkedCalls === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    parked.setParked(true);
    const siblingTurns = await timed(() => Promise.all(siblings.map((lease, index) => say(lease, `sibling ${index}`))));
    expect(siblingTurns.value).toEqual(["ok: sibling 0", "ok: sibling 1", "ok: sibling 2"]);
    expect(siblingTurns.ms).toBeLessThan(5_000);
    parked.setParked(false);
    answer.resolve("forty-two");
    expect((await parkedTurn).text).toContain("forty-two");
  });

  it(
    "does not delay other conversations while one waits on a long tool call",
    async () => {
      const slowToolMs = Number(process.env.POOL_SLOW_TOOL_MS ?? 20_000);
      const pool = track(emulatorPool());
      const slow = await pool.acquire({
        config: toolConfig(async () => {
          await new Promise((resolve) => setTimeout(resolve, slowToolMs));
          return { answer: "done slowly" };
        }),
      });
      const others = await Promise.all([1, 2, 3, 4].map(() => pool.acquire({ config: plainConfig() })));
      expect(others.every((lease) => lease.pid === slow.pid)).toBe(true);
      const lone = await timed(() => say(others[0]!, "baseline"));
      const slowTurn = timed(() => slow.conversation.send("please use slow_lookup").result);
      const turnTimes: number[] = [];
      const busyUntil = Date.now() + Math.min(slowToolMs, 5_000);
      while (Date.now() < busyUntil) {
        const round = await Promise.all(others.map((lease, index) => timed(() => say(lease, `turn ${index}`))));
        turnTimes.push(...round.map((turn) => turn.ms));
      }
      const sorted = [...turnTimes].sort((left, right) => left - right);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      // Generous: four conversations turning at once on a loaded 2-core machine, against one lone turn.
      expect(median).toBeLessThan(Math.max(lone.ms * 3, 1_000));
      const finished = await slowTurn;
      expect(finished.value.text).toContain("done slowly");
      expect(finished.ms).toBeGreaterThanOrEqual(slowToolMs - 50);
    },
    Number(process.env.POOL_SLOW_TOOL_MS ?? 20_000) + 30_000,
  );

  it("replaces a wedged idle process found by the health check", async () => {
    const pool = track(emulatorPool({ healthCheckIntervalMs: 100, healthCheckTimeoutMs: 300 }));
    const lease = await pool.acquire({ config: plainConfig() });
    const pid = lease.pid!;
    await lease.release();
    process.kill(pid, "SIGSTOP");
    try {
      const deadline = Date.now() + 15_000;
      while (isProcessAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(isProcessAlive(pid)).toBe(false);
    } finally {
      if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
    }
    expect(pool.metrics().totals.healthCheckFailures).toBe(1);
    const next = await pool.acquire({ config: plainConfig() });
    expect(await say(next, "healthy")).toBe("ok: healthy");
  });

  // Whether the real harness answers a plain HTTP request is not known (docs/protocol.md, "What we
  // assume"): the health check must keep a healthy process whatever its port does with one.
  it.each(["answer", "silent", "reset"])("keeps a healthy idle process whose port does this with a plain GET: %s", async (plainHttp) => {
    const pool = track(emulatorPool({ healthCheckIntervalMs: 50, healthCheckTimeoutMs: 2_000, idleGraceMs: 60_000 }));
    const partition = { env: { ANTIGRAVITY_EMULATOR_PLAIN_HTTP: plainHttp } };
    const lease = await pool.acquire({ config: plainConfig(), partition });
    const pid = lease.pid!;
    await lease.release();
    // Twenty intervals: each ran a probe, or found the previous one still running (never two at once).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(pool.metrics().totals.healthCheckFailures).toBe(0);
    expect(isProcessAlive(pid)).toBe(true);
    const next = await pool.acquire({ config: plainConfig(), partition });
    expect(next.pid).toBe(pid);
    expect(await say(next, "still here")).toBe("ok: still here");
    expect(pool.metrics().totals.spawns).toBe(1);
  });

  it("closes every conversation and process, and refuses acquires afterwards", async () => {
    const pool = emulatorPool({ maxConversationsPerProcess: 2 });
    const leases = await Promise.all([1, 2, 3].map(() => pool.acquire({ config: plainConfig() })));
    const pids = [...new Set(leases.map((lease) => lease.pid!))];
    expect(pids).toHaveLength(2);
    await pool.close({ deadlineMs: 5_000 });
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    for (const lease of leases) expect(PoolError.isInstance(lease.signal.reason) && lease.signal.reason.code).toBe("POOL_CLOSED");
    await expect(pool.acquire({ config: plainConfig() })).rejects.toMatchObject({ code: "POOL_CLOSED" });
  });
});
