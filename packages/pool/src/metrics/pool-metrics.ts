/** The state of a process as the pool sees it. */
export type PooledProcessState = "starting" | "ready" | "stopping";

/** One process in a metrics snapshot. */
export interface ProcessMetrics {
  /** The pool's id for the process; stable for its lifetime, never reused. */
  readonly id: number;
  readonly pid: number | undefined;
  readonly partitionKey: string;
  readonly state: PooledProcessState;
  /** Conversations open on it (including parked ones). */
  readonly conversations: number;
  /** Of those, the ones marked parked. */
  readonly parkedConversations: number;
  /** Acquires that hold a slot and are still waiting for the process or for their conversation to open. */
  readonly reservations: number;
  readonly ageMs: number;
  /** How long it has had nothing on it; undefined while it has. */
  readonly idleForMs: number | undefined;
}

/** One partition in a metrics snapshot. */
export interface PartitionMetrics {
  readonly key: string;
  /** The partition's storage directory (or undefined for the client's default). */
  readonly storageDirectory: string | undefined;
  /** The names of its env variables; the values stay out of metrics because they may be secrets. */
  readonly envNames: readonly string[];
  /** The partition's placement group, when it has one. */
  readonly group: string | undefined;
  readonly processes: number;
  readonly conversations: number;
  readonly spawns: number;
  readonly crashes: number;
  /** Failures in the current crash-loop series. */
  readonly consecutiveFailures: number;
  /** How long new processes are still refused in this partition; 0 when spawns may start. */
  readonly backoffRemainingMs: number;
}

/** A point-in-time view of the pool, cheap enough to serve from a `/metrics` route. */
export interface PoolMetrics {
  readonly closed: boolean;
  readonly processes: number;
  readonly conversations: number;
  /** Acquires queued because the pool-wide process cap is reached. */
  readonly waitingAcquires: number;
  readonly partitions: readonly PartitionMetrics[];
  readonly processDetails: readonly ProcessMetrics[];
  /** Counters since the pool was created. */
  readonly totals: {
    readonly acquires: number;
    readonly releases: number;
    readonly spawns: number;
    readonly spawnFailures: number;
    /** Processes that exited without the pool asking, plus those stopped for failing a health check. */
    readonly crashes: number;
    readonly healthCheckFailures: number;
    /** Processes stopped because they stayed empty past the idle grace (or to make room under the cap). */
    readonly idleStops: number;
    /** Acquires refused with `SPAWN_BACKOFF`. */
    readonly backoffRefusals: number;
    /** Conversations reclaimed from holders that offered them back, to make room under `maxProcesses`. */
    readonly reclaims: number;
    /** Acquires that found no room within `maxRoomWaitMs` (`CAPACITY_EXHAUSTED`). */
    readonly capacityRefusals: number;
  };
  /** Time from asking for a process to its being ready, over the last 256 spawns. */
  readonly spawnLatencyMs: { readonly count: number; readonly p50: number | undefined; readonly p95: number | undefined };
}
