// The pool's running counts: how many acquires, spawns, crashes, refusals … since it was created,
// and the recent spawn latencies. Each event is counted where it happens (the lifecycle, the room
// logic, the lease desk), so the counters live in one object those pieces share, and only the
// metrics snapshot and the closing log line read them, as copies.
import { LatencyWindow } from "../metrics/latency-window.js";
import type { PoolMetrics } from "../metrics/pool-metrics.js";

/** The names of the pool's lifetime counters, as in `PoolMetrics.totals`. */
export type PoolCounter = keyof PoolMetrics["totals"];

/** Counts the pool's events and keeps the spawn latencies of the last 256 spawns. */
export class PoolTally {
  readonly #totals: Record<PoolCounter, number> = {
    acquires: 0,
    releases: 0,
    spawns: 0,
    spawnFailures: 0,
    crashes: 0,
    healthCheckFailures: 0,
    idleStops: 0,
    backoffRefusals: 0,
    reclaims: 0,
    capacityRefusals: 0,
  };
  readonly #spawnLatency = new LatencyWindow(256);

  /** One more of `counter`. */
  count(counter: PoolCounter): void {
    this.#totals[counter] += 1;
  }

  /** A process took `latencyMs` from being asked for to being ready. */
  recordSpawnLatency(latencyMs: number): void {
    this.#spawnLatency.record(latencyMs);
  }

  /** A copy of the counters: later events do not change it. */
  totals(): PoolMetrics["totals"] {
    return { ...this.#totals };
  }

  /** How many spawns were timed, and the p50 and p95 of the recent ones. */
  spawnLatency(): PoolMetrics["spawnLatencyMs"] {
    return {
      count: this.#spawnLatency.count,
      p50: this.#spawnLatency.percentile(50),
      p95: this.#spawnLatency.percentile(95),
    };
  }
}
