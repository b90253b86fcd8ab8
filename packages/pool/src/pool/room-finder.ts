// Finding a slot for an acquire: a process of its partition with room, else a new process, else
// room made under `maxProcesses` (an idle process of another partition stopped, a conversation its
// holder offered back reclaimed), else a bounded wait for a slot to come free. It owns the count
// of acquires waiting for room and of reclaims under way; it is apart from the pool so the capacity
// rules read in one place, and apart from the fleet because it decides who gets a slot, not which
// processes run.
import { PoolError } from "../errors/pool-error.js";
import type { ChangeSignal } from "../internal/change-signal.js";
import { raceAbort } from "../internal/race-abort.js";
import type { Partition } from "../partition/partition.js";
import { choosePlacement } from "../placement/placement-policy.js";
import type { PooledConversation } from "../process/pooled-process.js";
import { acquireAbortedError, capacityExhaustedError, poolClosedError } from "./acquire-errors.js";
import type { PartitionRecord, PoolMember } from "./pool-member.js";
import type { ResolvedPoolSettings } from "./pool-options.js";
import type { PoolTally } from "./pool-tally.js";
import type { ProcessFleet } from "./process-fleet.js";
import { reclaimCandidates } from "./room-reclaim.js";

/** What the room finder needs from the pool. */
export interface RoomFinderOptions<TConfig, TConversation extends PooledConversation> {
  readonly settings: ResolvedPoolSettings;
  readonly fleet: ProcessFleet<TConfig, TConversation>;
  readonly tally: PoolTally;
  /** Notified whenever a slot may have come free; waiting acquires look again then. */
  readonly roomChanged: ChangeSignal;
  /** Aborted when the pool closes: waiting acquires fail with `POOL_CLOSED`. */
  readonly poolSignal: AbortSignal;
}

/** Places acquires on processes, makes room under the pool-wide cap, and runs the wait for room. */
export class RoomFinder<TConfig, TConversation extends PooledConversation> {
  readonly #settings: ResolvedPoolSettings;
  readonly #fleet: ProcessFleet<TConfig, TConversation>;
  readonly #tally: PoolTally;
  readonly #roomChanged: ChangeSignal;
  readonly #poolSignal: AbortSignal;
  #waitingAcquires = 0;
  /** Conversations reclaimed for waiting acquires whose slots are not free yet: one per waiting acquire is enough. */
  #reclaiming = 0;

  constructor(options: RoomFinderOptions<TConfig, TConversation>) {
    this.#settings = options.settings;
    this.#fleet = options.fleet;
    this.#tally = options.tally;
    this.#roomChanged = options.roomChanged;
    this.#poolSignal = options.poolSignal;
  }

  /** Acquires waiting for room under `maxProcesses` now. */
  get waitingAcquires(): number {
    return this.#waitingAcquires;
  }

  /**
   * Takes a slot for one acquire: on a process with room, else on a new process. Synchronous, so
   * concurrent acquires see each other's reservations and never overfill a process. Returns
   * undefined when the pool-wide process cap leaves no room yet.
   */
  reserve(record: PartitionRecord<TConfig, TConversation>, reclaim: boolean): PoolMember<TConfig, TConversation> | undefined {
    const placed = choosePlacement(record.members, {
      strategy: this.#settings.placement,
      capacity: this.#settings.maxConversationsPerProcess,
    });
    if (placed !== undefined) {
      placed.reservations += 1;
      placed.clearIdleTimer();
      placed.idleSince = undefined;
      // The process may have been a warm spare; start its successor now rather than at the next acquire.
      this.#fleet.ensureWarm(record);
      return placed;
    }
    const retryAfterMs = record.backoff.remainingMs(Date.now());
    if (retryAfterMs > 0) {
      this.#tally.count("backoffRefusals");
      this.#settings.logger.warn({
        partitionKey: record.key,
        retryAfterMs,
        consecutiveFailures: record.backoff.consecutiveFailures,
      }, "refusing to start a harness process during crash back-off");
      throw new PoolError(
        "SPAWN_BACKOFF",
        `harness processes of this partition keep failing (${record.backoff.consecutiveFailures} in a row); retry in ${retryAfterMs} ms`,
        { retryAfterMs, partitionKey: record.key },
      );
    }
    if (this.#fleet.size >= this.#settings.maxProcesses) {
      if (!this.#fleet.stopAnIdleProcessForRoom() && reclaim) this.#reclaimForRoom(record);
      return undefined;
    }
    const member = this.#fleet.spawn(record);
    member.reservations += 1;
    return member;
  }

  /** Waits for a slot to come free, until `deadline`: then the acquire fails with `CAPACITY_EXHAUSTED`. */
  async waitForRoom(callerSignal: AbortSignal | undefined, deadline: number): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw this.#capacityError();
    // A timer of this wait's own (not AbortSignal.timeout): cleared as soon as room comes.
    const expiry = new AbortController();
    const timer = Number.isFinite(remaining) ? setTimeout(() => expiry.abort(), remaining) : undefined;
    timer?.unref();
    this.#waitingAcquires += 1;
    try {
      await raceAbort(this.#roomChanged.next(), [callerSignal, this.#poolSignal, expiry.signal], (signal) =>
        signal === this.#poolSignal ? poolClosedError() : signal === expiry.signal ? this.#capacityError() : acquireAbortedError(signal),
      );
    } finally {
      clearTimeout(timer);
      this.#waitingAcquires -= 1;
    }
  }

  /**
   * Whether an acquire in the partition would find room now without waiting (see
   * `HarnessPool.hasRoomFor`): a free slot in the partition, room for another process (or an empty
   * one to stop for it), or, with `reclaim`, a conversation whose holder offers it back.
   */
  hasRoomFor(partition: Partition, reclaim: boolean): boolean {
    const record = this.#fleet.find(partition);
    const capacity = this.#settings.maxConversationsPerProcess;
    for (const member of record?.members ?? []) if (member.state !== "stopping" && member.occupied < capacity) return true;
    if (this.#fleet.size < this.#settings.maxProcesses) return true;
    for (const member of this.#fleet) if (member.state === "stopping" || (member.state === "ready" && member.occupied === 0)) return true;
    return reclaim && record !== undefined && reclaimCandidates(record.members, this.#reclaimLimits()).length > 0;
  }

  /**
   * Under the pool-wide cap with no slot free in the partition: asks the holder of a conversation
   * it offered back (see `reclaimCandidates`) to let it go, one per waiting acquire; the acquire
   * then waits for that slot like any other.
   */
  #reclaimForRoom(record: PartitionRecord<TConfig, TConversation>): void {
    if (this.#reclaiming > this.#waitingAcquires) return;
    for (const lease of reclaimCandidates(record.members, this.#reclaimLimits())) {
      const offer = lease.reclaimOffer;
      if (offer === undefined || !offer.reclaim()) continue;
      this.#tally.count("reclaims");
      this.#reclaiming += 1;
      void lease.closed.then(() => {
        this.#reclaiming -= 1;
      });
      this.#settings.logger.info({ processId: lease.processId, partitionKey: record.key, parked: lease.parked }, "reclaimed a conversation its holder offered back, to make room under maxProcesses");
      return;
    }
  }

  #reclaimLimits(): { parkedInPool: number; maxParked: number } {
    let parkedInPool = 0;
    for (const member of this.#fleet) parkedInPool += member.parked;
    return { parkedInPool, maxParked: this.#settings.maxParkedConversations };
  }

  #capacityError(): PoolError {
    this.#tally.count("capacityRefusals");
    return capacityExhaustedError(this.#settings);
  }
}
