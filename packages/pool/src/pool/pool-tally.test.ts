import { describe, expect, it } from "vitest";
import { PoolTally } from "./pool-tally.js";

describe("PoolTally", () => {
  it("counts each event on its own counter and hands out copies a later count does not change", () => {
    const tally = new PoolTally();
    tally.count("spawns");
    tally.count("spawns");
    tally.count("crashes");
    const before = tally.totals();
    tally.count("spawns");
    expect(before).toMatchObject({ spawns: 2, crashes: 1, acquires: 0 });
    expect(tally.totals().spawns).toBe(3);
  });

  it("reports spawn latency percentiles once spawns were timed", () => {
    const tally = new PoolTally();
    expect(tally.spawnLatency()).toEqual({ count: 0, p50: undefined, p95: undefined });
    for (const latencyMs of [10, 20, 30, 40]) tally.recordSpawnLatency(latencyMs);
    expect(tally.spawnLatency()).toEqual({ count: 4, p50: 20, p95: 40 });
  });
});
