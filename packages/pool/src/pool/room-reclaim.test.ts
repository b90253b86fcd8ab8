import { afterEach, describe, expect, it } from "vitest";
import { FakeHarness, type FakeConfig, type FakeConversation } from "../../test/support/fake-harness.js";
import { PoolError } from "../errors/pool-error.js";
import { HarnessPool, type HarnessPoolOptions } from "./harness-pool.js";
import type { PoolLease } from "./pool-lease.js";

const pools: HarnessPool<FakeConfig, FakeConversation>[] = [];

function poolOver(harness: FakeHarness, options: Omit<HarnessPoolOptions<FakeConfig, FakeConversation>, "startProcess"> = {}) {
  const pool = new HarnessPool<FakeConfig, FakeConversation>({ healthCheckIntervalMs: 0, ...options, startProcess: harness.startProcess });
  pools.push(pool);
  return pool;
}

/** The holder's side of an offer: counts the calls, and releases the lease when it agrees. */
function offerBack(lease: PoolLease<FakeConversation>, agree = true): { calls: number } {
  const record = { calls: 0 };
  lease.setReclaimable(() => {
    record.calls += 1;
    if (agree) void lease.release();
    return agree;
  });
  return record;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close({ deadlineMs: 1_000 })));
});

describe("HarnessPool room under maxProcesses", () => {
  it("reclaims the conversation offered back longest ago when an acquire finds no room, and never one not offered", async () => {
    const pool = poolOver(new FakeHarness(), { maxProcesses: 1, maxConversationsPerProcess: 3 });
    const busy = await pool.acquire({ config: { name: "busy" } });
    const older = await pool.acquire({ config: { name: "older" } });
    const newer = await pool.acquire({ config: { name: "newer" } });
    const olderOffer = offerBack(older);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const newerOffer = offerBack(newer);
    expect(pool.hasRoomFor()).toBe(true);
    const lease = await pool.acquire({ config: { name: "new" } });
    expect(olderOffer.calls).toBe(1);
    expect(newerOffer.calls).toBe(0);
    expect(older.signal.aborted).toBe(true);
    expect(busy.signal.aborted).toBe(false);
    expect(pool.metrics().totals.reclaims).toBe(1);
    // An acquire that may not reclaim (a spare opened ahead of need) leaves the offer alone.
    expect(pool.hasRoomFor({}, { reclaim: false })).toBe(false);
    const patient = await pool.acquire({ config: { name: "patient" }, reclaim: false, signal: AbortSignal.timeout(30) }).catch((error: unknown) => error);
    expect(PoolError.isInstance(patient) && patient.code).toBe("ACQUIRE_ABORTED");
    expect(newerOffer.calls).toBe(0);
    // A withdrawn offer is not taken.
    newer.setReclaimable(undefined);
    expect(pool.hasRoomFor()).toBe(false);
    expect(lease.conversation.config.name).toBe("new");
  });

  it("takes a parked conversation only while more than maxParkedConversations are parked", async () => {
    const pool = poolOver(new FakeHarness(), { maxProcesses: 1, maxConversationsPerProcess: 2, maxParkedConversations: 1, maxRoomWaitMs: 50 });
    const first = await pool.acquire({ config: { name: "first" } });
    const second = await pool.acquire({ config: { name: "second" } });
    first.setParked(true);
    const firstOffer = offerBack(first);
    second.setReclaimable(() => false);
    // One parked, within the cap: nothing to take, the acquire gives up after maxRoomWaitMs.
    const refused = await pool.acquire({ config: { name: "third" } }).catch((error: unknown) => error);
    expect(PoolError.isInstance(refused) && refused.code).toBe("CAPACITY_EXHAUSTED");
    expect(firstOffer.calls).toBe(0);
    // Two parked, one over the cap: the one parked longest goes.
    second.setParked(true);
    const lease = await pool.acquire({ config: { name: "third" } });
    expect(firstOffer.calls).toBe(1);
    expect(lease.conversation.config.name).toBe("third");
  });

  it("fails an acquire that finds no room with CAPACITY_EXHAUSTED after maxRoomWaitMs, and says so in hasRoomFor", async () => {
    const pool = poolOver(new FakeHarness(), { maxProcesses: 1, maxConversationsPerProcess: 1, maxRoomWaitMs: 40 });
    await pool.acquire({ config: { name: "only" } });
    expect(pool.hasRoomFor()).toBe(false);
    const startedAt = Date.now();
    const error = await pool.acquire({ config: { name: "more" } }).catch((caught: unknown) => caught);
    expect(PoolError.isInstance(error) && error.code).toBe("CAPACITY_EXHAUSTED");
    expect((error as PoolError).retryAfterMs).toBeGreaterThan(0);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(30);
    expect(pool.metrics()).toMatchObject({ waitingAcquires: 0, totals: { capacityRefusals: 1 } });
  });

  it("asks one holder per waiting acquire, not one per wake-up", async () => {
    const pool = poolOver(new FakeHarness(), { maxProcesses: 1, maxConversationsPerProcess: 2 });
    const slow = await pool.acquire({ config: { name: "slow" } });
    const spare = await pool.acquire({ config: { name: "spare" } });
    // The holder agrees but lets go a little later.
    let calls = 0;
    slow.setReclaimable(() => {
      calls += 1;
      setTimeout(() => void slow.release(), 20);
      return true;
    });
    const spareOffer = offerBack(spare, false);
    const lease = await pool.acquire({ config: { name: "new" } });
    expect(calls).toBe(1);
    expect(spareOffer.calls).toBe(0);
    expect(lease.conversation.config.name).toBe("new");
  });

  it("refuses invalid caps", () => {
    expect(() => poolOver(new FakeHarness(), { maxParkedConversations: -1 })).toThrow(/maxParkedConversations/);
    expect(() => poolOver(new FakeHarness(), { maxRoomWaitMs: Number.NaN })).toThrow(/maxRoomWaitMs/);
  });
});
