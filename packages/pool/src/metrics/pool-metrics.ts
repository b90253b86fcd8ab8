/** The state of a process as the pool sees it. */
export type PooledProcessState = "starting" | "ready" | "stopping";

/** One process in a metrics snapshot. */
export interface ProcessMetrics {
  /** The pool's id for the process; stable for its lifetime, never reused. */
  readonly id: number;
  /** The OS pid; undefined while the process is still starting (or when a custom `startProcess` gives none). */
  readonly pid: number | undefined;
  /** The partition it serves: its `PartitionMetrics.key`. */
  readonly partitionKey: string;
  /**
   * `starting`: asked for, not yet ready; `ready`: takes conversations; `stopping`: being stopped
   * (idle grace, death, failed health check, room for another partition, pool closing) and takes no
   * new conversation.
   */
  readonly state: PooledProcessState;
  /** Conversations open on it (including parked ones). */
  readonly conversations: number;
  /** Of those, the ones marked parked. */
  readonly parkedConversations: number;
  /** Acquires that hold a slot and are still waiting for the process or for their conversation to open. */
  readonly reservations: number;
  /** Milliseconds since the pool asked for the process, its start-up included. */
  readonly ageMs: number;
  /** How long it has had nothing on it; undefined while it has. */
  readonly idleForMs: number | undefined;
}

/** One partition in a metrics snapshot. */
export interface PartitionMetrics {
  /**
   * The partition's key (`partition-` and 16 hex digits): a digest of its storage directory, env and
   * group, so env values never show; the same key as in logs and `PoolError.partitionKey`.
   */
  readonly key: string;
  /** The partition's storage directory (or undefined for the client's default). */
  readonly storageDirectory: string | undefined;
  /** The names of its env variables; the values stay out of metrics because they may be secrets. */
  readonly envNames: readonly string[];
  /** The partition's placement group, when it has one. */
  readonly group: string | undefined;
  /** Its processes now, in every state (starting, ready, and stopping until gone). */
  readonly processes: number;
  /** Conversations open on its processes now, parked ones included. */
  readonly conversations: number;
  /** Processes started for it since the pool was created, failed starts included. */
  readonly spawns: number;
  /** Its processes that exited without the pool asking or failed a health check, since the pool was created. */
  readonly crashes: number;
  /** Failures in the current crash-loop series. */
  readonly consecutiveFailures: number;
  /** How long new processes are still refused in this partition; 0 when spawns may start. */
  readonly backoffRemainingMs: number;
}

/** A point-in-time view of the pool, cheap enough to serve from a `/metrics` route. */
export interface PoolMetrics {
  /** True once `close()` or `drain()` began: no conversation is handed out any more. */
  readonly closed: boolean;
  /** Processes now, over all partitions and in every state; `maxProcesses` caps this number. */
  readonly processes: number;
  /** Conversations open now, over all processes, parked ones included. */
  readonly conversations: number;
  /** Acquires queued because the pool-wide process cap is reached. */
  readonly waitingAcquires: number;
  /** Every partition an acquire or `warm()` named since the pool was created, including those with no process now. */
  readonly partitions: readonly PartitionMetrics[];
  /** One entry per process now, in every state. */
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
