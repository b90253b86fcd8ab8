import type { SpawnBackoff } from "../backoff/spawn-backoff.js";
import type { PooledProcessState } from "../metrics/pool-metrics.js";
import type { Partition } from "../partition/partition.js";
import type { PlacementCandidate } from "../placement/placement-policy.js";
import type { PooledConversation, PooledProcess } from "../process/pooled-process.js";
import type { PooledLease } from "./pool-lease.js";

/** The pool's books for one partition. */
export interface PartitionRecord<TConfig, TConversation extends PooledConversation> {
  readonly key: string;
  readonly partition: Partition;
  /** Processes that can still take conversations (starting or ready); stopping ones are left out. */
  readonly members: Set<PoolMember<TConfig, TConversation>>;
  readonly backoff: SpawnBackoff;
  /** Idle processes this partition keeps ready (`minIdleProcesses`, or what `warm()` asked for). */
  minIdleProcesses: number;
  spawns: number;
  crashes: number;
  /** Retries the pre-warm once a back-off pause ends. */
  warmRetryTimer: NodeJS.Timeout | undefined;
}

/** The pool's books for one process: its slots, its leases and its timers. */
export class PoolMember<TConfig, TConversation extends PooledConversation> implements PlacementCandidate {
  readonly id: number;
  readonly partition: PartitionRecord<TConfig, TConversation>;
  readonly requestedAt: number;
  /** Aborted when the pool no longer wants a process that is still starting. */
  readonly startController = new AbortController();
  readonly leases = new Set<PooledLease<TConversation>>();
  state: PooledProcessState = "starting";
  process: PooledProcess<TConfig, TConversation> | undefined;
  /** Settles when the process is ready; rejects with a `PoolError` when it could not start. */
  started!: Promise<PooledProcess<TConfig, TConversation>>;
  /** Acquires placed here that do not hold a lease yet. */
  reservations = 0;
  /** Released leases whose conversation is still closing; they keep their slot until it is closed. */
  closingConversations = 0;
  idleSince: number | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  healthCheckInFlight = false;
  /** Set once the pool stops the process; settles when it is gone. */
  stopped: Promise<void> | undefined;

  constructor(id: number, partition: PartitionRecord<TConfig, TConversation>, now: number) {
    this.id = id;
    this.partition = partition;
    this.requestedAt = now;
  }

  get ready(): boolean {
    return this.state === "ready";
  }

  /** A method, not a getter, so callers re-read the state after an await instead of trusting a narrowing. */
  isReady(): boolean {
    return this.state === "ready";
  }

  get occupied(): number {
    return this.reservations + this.leases.size + this.closingConversations;
  }

  get parked(): number {
    let parked = 0;
    for (const lease of this.leases) if (lease.parked) parked += 1;
    return parked;
  }

  get isIdle(): boolean {
    return this.state !== "stopping" && this.occupied === 0;
  }

  clearIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
