import { setMaxListeners } from "node:events";
import type { Conversation, ConversationConfig } from "@ag-ui-antigravity/harness";
import { PoolError } from "../errors/pool-error.js";
import { ChangeSignal } from "../internal/change-signal.js";
import { brandClass, hasBrand, linkSignals, pause } from "@ag-ui-antigravity/foundation";
import { raceAbort } from "../internal/race-abort.js";
import type { PoolMetrics } from "../metrics/pool-metrics.js";
import type { Partition } from "../partition/partition.js";
import { choosePlacement } from "../placement/placement-policy.js";
import { reclaimCandidates } from "./room-reclaim.js";
import { acquireAbortedError, acquireError, capacityExhaustedError, poolClosedError } from "./acquire-errors.js";
import {
  startHarnessProcess,
  type HarnessStartOptions,
} from "../process/harness-process-adapter.js";
import type { PooledConversation, PooledProcess, StartProcess } from "../process/pooled-process.js";
import { PooledLease, type LeaseOwner, type PoolLease } from "./pool-lease.js";
import type { PoolMember, PartitionRecord } from "./pool-member.js";
import { snapshotMetrics } from "./metrics-snapshot.js";
import { PoolTally } from "./pool-tally.js";
import { ProcessFleet } from "./process-fleet.js";
import { IdleHealthChecks } from "./idle-health-checks.js";
import { resolvePoolSettings, type HarnessPoolSettings, type ResolvedPoolSettings } from "./pool-options.js";

/** The pool's options: its settings, and how it starts processes. */
export interface HarnessPoolOptions<TConfig, TConversation extends PooledConversation> extends HarnessPoolSettings {
  /**
   * Starts a process for a partition. Default: `HarnessProcess.start` from `@ag-ui-antigravity/harness`
   * with the partition's storage directory and env, plus `harness`.
   */
  readonly startProcess?: StartProcess<TConfig, TConversation>;
  /** Options of the default `startProcess` that do not depend on the partition (binary path, …). */
  readonly harness?: HarnessStartOptions;
}

/** What `acquire` needs: the conversation's config and the partition it belongs to. */
export interface AcquireOptions<TConfig> {
  /** The per-conversation config (model, tools, instructions, workspaces, conversation id to resume, …). */
  readonly config: TConfig;
  /** Decides which processes it may share. Default: the client's storage directory, no extra env. */
  readonly partition?: Partition;
  /**
   * Gives up the acquire: it rejects with `ACQUIRE_ABORTED` (the abort reason as `cause`) and lets go
   * of the slot and of a conversation opened for it. Only until the lease is handed out; the lease's
   * own `signal` and `release()` take over from there.
   */
  readonly signal?: AbortSignal;
  /**
   * False: this acquire never asks a holder to give its conversation back (one opened ahead of
   * need, such as a spare, must not take a thread's). Default true.
   */
  readonly reclaim?: boolean;
}

/** What `warm` needs. */
export interface WarmOptions {
  /** The partition to start processes for. Default: the client's storage directory, no extra env. */
  readonly partition?: Partition;
  /** Empty processes this partition keeps ready from now on. Default: the pool's `minIdleProcesses`, at least 1. */
  readonly minIdleProcesses?: number;
  /**
   * Stops the wait only: `warm()` rejects with `PoolError` `ACQUIRE_ABORTED`, while the processes
   * keep starting and the partition keeps its new minimum.
   */
  readonly signal?: AbortSignal;
}

/** What `close` and `drain` take. */
export interface PoolCloseOptions {
  /** How long conversations get to close (and, for `drain`, holders to release them) before processes are stopped anyway. */
  readonly deadlineMs?: number;
  /** Aborting it skips the remaining wait and goes straight to stopping the processes. */
  readonly signal?: AbortSignal;
}

/**
 * Hands out harness conversations on shared processes. Conversations only share a process inside
 * one partition (same storage directory and env); each process holds at most
 * `maxConversationsPerProcess`. Processes start on demand (several at once when acquires arrive
 * together, never more than the slots they fill), are stopped after `idleGraceMs` empty, are
 * probed while idle, and are replaced when they die, with an exponential pause when they keep dying.
 *
 * @example
 * const pool = new HarnessPool({ maxConversationsPerProcess: 8, minIdleProcesses: 1 });
 * const lease = await pool.acquire({ config: { model: "gemini-3.6-flash" }, partition: { storageDirectory: "/var/lib/my-agent" } });
 * try {
 *   const turn = lease.conversation.send("What is in this directory?");
 *   for await (const step of turn) if (step.kind === "text") process.stdout.write(step.textDelta);
 * } finally {
 *   await lease.release();
 * }
 * await pool.close({ deadlineMs: 10_000 });
 */
export class HarnessPool<TConfig = ConversationConfig, TConversation extends PooledConversation = Conversation> {
  static {
    brandClass(this, "HarnessPool");
  }

  /** True for a HarnessPool from any copy of this package (its ESM or CJS build, a duplicated install), where `instanceof` is not. */
  static isInstance<TConfig = ConversationConfig, TConversation extends PooledConversation = Conversation>(
    value: unknown,
  ): value is HarnessPool<TConfig, TConversation> {
    return hasBrand(value, "HarnessPool");
  }

  /** Resolves when `close()` (or `drain()`) has stopped every process. */
  readonly closed: Promise<void>;
  readonly #settings: ResolvedPoolSettings;
  readonly #fleet: ProcessFleet<TConfig, TConversation>;
  /** Conversations being closed after their lease ended; `close()` waits for them. */
  readonly #closingConversations = new Set<Promise<void>>();
  readonly #controller = new AbortController();
  readonly #roomChanged = new ChangeSignal();
  readonly #tally = new PoolTally();
  readonly #detachOwnerSignal: () => void;
  readonly #healthChecks: IdleHealthChecks<TConfig, TConversation>;
  #accepting = true;
  #waitingAcquires = 0;
  /** Conversations reclaimed for waiting acquires whose slots are not free yet: one per waiting acquire is enough. */
  #reclaiming = 0;
  #closePromise: Promise<void> | undefined;
  #resolveClosed: () => void = () => undefined;

  constructor(options: HarnessPoolOptions<TConfig, TConversation> = {}) {
    this.#settings = resolvePoolSettings(options);
    // Every acquire in flight listens for the pool closing; a hundred at once is normal, not a leak.
    setMaxListeners(0, this.#controller.signal);
    // The processes report to the pool's logger unless told otherwise: both speak the same four levels.
    const harnessOptions = { logger: this.#settings.logger, ...options.harness };
    const startProcess: StartProcess<TConfig, TConversation> =
      options.startProcess ??
      // Without a factory the pool runs real harness processes, whose config and conversation
      // types are the defaults of this class's type parameters.
      ((partition, startOptions) =>
        startHarnessProcess(partition, { ...harnessOptions, signal: startOptions.signal }) as unknown as Promise<
          PooledProcess<TConfig, TConversation>
        >);
    this.#fleet = new ProcessFleet({
      settings: this.#settings,
      startProcess,
      tally: this.#tally,
      roomChanged: this.#roomChanged,
      isAccepting: () => this.#accepting,
      hasWaitingAcquires: () => this.#waitingAcquires > 0,
    });
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#healthChecks = new IdleHealthChecks({
      intervalMs: this.#settings.healthCheckIntervalMs,
      timeoutMs: this.#settings.healthCheckTimeoutMs,
      poolSignal: this.#controller.signal,
      members: () => this.#fleet,
      onFailure: (member, process, error) => this.#fleet.replaceUnhealthy(member, process, error),
    });
    const ownerSignal = options.signal;
    if (ownerSignal === undefined) {
      this.#detachOwnerSignal = () => undefined;
    } else {
      const onOwnerAbort = (): void => void this.close();
      ownerSignal.addEventListener("abort", onOwnerAbort, { once: true });
      this.#detachOwnerSignal = () => ownerSignal.removeEventListener("abort", onOwnerAbort);
      if (ownerSignal.aborted) void this.close();
    }
  }

  /** Aborted as soon as the pool starts closing (reason: `PoolError` `POOL_CLOSED`). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * A conversation on a process of the partition, spawning a process when none has room.
   * Rejects with `PoolError`: `POOL_CLOSED`, `ACQUIRE_ABORTED`, `SPAWN_FAILED`, `SPAWN_BACKOFF` or
   * `OPEN_FAILED`. A process that dies while the acquire waits on it is replaced transparently.
   */
  async acquire(options: AcquireOptions<TConfig>): Promise<PoolLease<TConversation>> {
    const callerSignal = options.signal;
    this.#assertAccepting();
    if (callerSignal?.aborted) throw acquireAbortedError(callerSignal);
    const record = this.#fleet.partitionFor(options.partition ?? {});
    this.#tally.count("acquires");
    let roomDeadline: number | undefined;
    for (;;) {
      const member = this.#reserve(record, options.reclaim ?? true);
      if (member === undefined) {
        roomDeadline ??= Date.now() + this.#settings.maxRoomWaitMs;
        await this.#waitForRoom(callerSignal, roomDeadline);
        this.#assertAccepting();
        continue;
      }
      const lease = await this.#openOn(member, options);
      if (lease !== undefined) return lease;
    }
  }

  /**
   * Starts processes for a partition ahead of need and keeps that many empty ones ready from now
   * on, so the next conversations do not wait for a spawn. Resolves when they are up.
   */
  async warm(options: WarmOptions = {}): Promise<void> {
    this.#assertAccepting();
    const minimum = options.minIdleProcesses ?? Math.max(1, this.#settings.minIdleProcesses);
    if (!Number.isInteger(minimum) || minimum < 0) {
      throw new PoolError("CONFIG_INVALID", `minIdleProcesses must be an integer >= 0, got ${String(minimum)}`);
    }
    const record = this.#fleet.partitionFor(options.partition ?? {});
    record.minIdleProcesses = minimum;
    this.#fleet.ensureWarm(record);
    const starting = [...record.members].filter((member) => member.isIdle).map((member) => member.started);
    await raceAbort(Promise.all(starting), [options.signal, this.signal], (signal) =>
      signal === this.signal ? poolClosedError() : acquireAbortedError(signal),
    );
  }

  /**
   * Whether an acquire in this partition would find room now without waiting: a process of the
   * partition with a free slot, room to start another process (or an empty one to stop for it), or
   * a conversation whose holder offers it back (unless `reclaim` is false). A caller that must not wait (a run that has not
   * told its client anything yet) refuses instead; an acquire still waits at most `maxRoomWaitMs`.
   */
  hasRoomFor(partition: Partition = {}, options: { reclaim?: boolean } = {}): boolean {
    if (!this.#accepting) return true;
    const record = this.#fleet.find(partition);
    const capacity = this.#settings.maxConversationsPerProcess;
    for (const member of record?.members ?? []) if (member.state !== "stopping" && member.occupied < capacity) return true;
    if (this.#fleet.size < this.#settings.maxProcesses) return true;
    for (const member of this.#fleet) if (member.state === "stopping" || (member.state === "ready" && member.occupied === 0)) return true;
    return (options.reclaim ?? true) && record !== undefined && reclaimCandidates(record.members, this.#reclaimLimits()).length > 0;
  }

  /** A point-in-time view for a `/metrics` route. */
  metrics(): PoolMetrics {
    return snapshotMetrics(
      {
        members: this.#fleet,
        partitions: this.#fleet.partitions(),
        closed: !this.#accepting,
        waitingAcquires: this.#waitingAcquires,
        tally: this.#tally,
      },
      Date.now(),
    );
  }

  /**
   * Stops handing out conversations, waits until every holder has released theirs (or the
   * deadline passes), then closes like `close()` with what is left of the deadline.
   */
  async drain(options: PoolCloseOptions = {}): Promise<void> {
    if (this.#closePromise !== undefined) return this.#closePromise;
    this.#stopAccepting();
    const deadline = Date.now() + (options.deadlineMs ?? this.#settings.closeDeadlineMs);
    while (this.#openLeaseCount() > 0 && Date.now() < deadline && options.signal?.aborted !== true) {
      if (this.#closePromise !== undefined) return this.#closePromise;
      const wake = new AbortController();
      await Promise.race([
        this.#roomChanged.next(),
        pause(deadline - Date.now(), options.signal ?? wake.signal),
      ]);
      wake.abort();
    }
    const remaining = Math.max(0, deadline - Date.now());
    return this.close(options.signal === undefined ? { deadlineMs: remaining } : { deadlineMs: remaining, signal: options.signal });
  }

  /**
   * Closes the pool: refuses new acquires, closes every conversation gracefully (lease signals
   * abort with `POOL_CLOSED`), waits for that up to the deadline, then stops every process with the
   * client's ladder (stdin end, grace, SIGTERM, SIGKILL). Idempotent.
   */
  close(options: PoolCloseOptions = {}): Promise<void> {
    if (this.#closePromise === undefined) {
      this.#stopAccepting();
      this.#closePromise = this.#shutdown(options).finally(() => this.#resolveClosed());
    }
    return this.#closePromise;
  }

  async #shutdown(options: PoolCloseOptions): Promise<void> {
    const deadline = Date.now() + (options.deadlineMs ?? this.#settings.closeDeadlineMs);
    const reason = poolClosedError();
    this.#controller.abort(reason);
    this.#detachOwnerSignal();
    this.#healthChecks.stop();
    this.#fleet.stopWarming();
    for (const member of this.#fleet) {
      member.clearIdleTimer();
      for (const lease of [...member.leases]) lease.end(reason);
    }
    const skip = linkSignals([options.signal]);
    try {
      await Promise.race([Promise.all(this.#closingConversations), pause(deadline - Date.now(), skip.signal)]);
    } finally {
      skip.unlink();
    }
    const remaining = Math.max(0, deadline - Date.now());
    const gracePeriodMs = Math.min(this.#settings.processGracePeriodMs ?? remaining, remaining);
    const stops = [...this.#fleet].map((member) => this.#fleet.stop(member, reason, { gracePeriodMs }));
    await Promise.all(stops);
    this.#settings.logger.info({ totals: this.#tally.totals() }, "harness pool closed");
  }

  #stopAccepting(): void {
    if (!this.#accepting) return;
    this.#accepting = false;
    // Waiting acquires look again and find the pool closed.
    this.#roomChanged.notify();
  }

  /**
   * Takes a slot for one acquire: on a process with room, else on a new process. Synchronous, so
   * concurrent acquires see each other's reservations and never overfill a process. Returns
   * undefined when the pool-wide process cap leaves no room yet.
   */
  #reserve(record: PartitionRecord<TConfig, TConversation>, reclaim: boolean): PoolMember<TConfig, TConversation> | undefined {
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

  /**
   * Waits for the reserved process, opens the conversation and turns the reservation into a lease.
   * Returns undefined when the process died meanwhile, so the acquire places itself again.
   */
  async #openOn(
    member: PoolMember<TConfig, TConversation>,
    options: AcquireOptions<TConfig>,
  ): Promise<PoolLease<TConversation> | undefined> {
    const callerSignal = options.signal;
    let process: PooledProcess<TConfig, TConversation>;
    try {
      process = await raceAbort(member.started, [callerSignal, this.signal], (signal) =>
        signal === this.signal ? poolClosedError() : acquireAbortedError(signal),
      );
    } catch (error) {
      this.#unreserve(member);
      throw acquireError(error, { callerSignal, accepting: this.#accepting });
    }
    if (!member.isReady()) {
      this.#unreserve(member);
      this.#assertAccepting();
      return undefined;
    }
    const open = linkSignals([callerSignal, this.signal]);
    let conversation: TConversation;
    try {
      conversation = await process.openConversation(options.config, { signal: open.signal });
    } catch (error) {
      // The open may have failed because the process just exited; learn of the death now.
      if (process.hasExited === true) this.#fleet.processGone(member);
      this.#unreserve(member);
      if (!member.isReady() && this.#accepting && callerSignal?.aborted !== true) return undefined;
      throw acquireError(error, { callerSignal, accepting: this.#accepting, partitionKey: member.partition.key });
    } finally {
      open.unlink();
    }
    member.reservations -= 1;
    if (!member.isReady() || !this.#accepting || callerSignal?.aborted === true) {
      // Opened too late to hand out: the process died, the pool closed or the caller gave up.
      this.#closeUnwanted(member, conversation);
      if (!member.isReady() && this.#accepting && callerSignal?.aborted !== true) return undefined;
      throw acquireError(undefined, { callerSignal, accepting: this.#accepting });
    }
    const lease = new PooledLease<TConversation>({
      conversation,
      processId: member.id,
      pid: process.pid,
      partitionKey: member.partition.key,
      owner: this.#leaseOwner(member),
      logError: (message, error) => this.#settings.logger.warn({ processId: member.id, error }, message),
    });
    member.leases.add(lease);
    this.#settings.logger.debug({
      processId: member.id,
      partitionKey: member.partition.key,
      conversations: member.leases.size,
    }, "conversation placed");
    return lease;
  }

  #leaseOwner(member: PoolMember<TConfig, TConversation>): LeaseOwner {
    return {
      ending: (lease, settled) => {
        member.leases.delete(lease as PooledLease<TConversation>);
        member.closingConversations += 1;
        this.#tally.count("releases");
        const freed = settled.then(() => {
          member.closingConversations -= 1;
          this.#slotFreed(member);
        });
        this.#trackClosing(freed);
        return freed;
      },
    };
  }

  #closeUnwanted(member: PoolMember<TConfig, TConversation>, conversation: TConversation): void {
    member.closingConversations += 1;
    const closing = (async () => {
      try {
        await conversation.close();
      } catch (error) {
        this.#settings.logger.warn({ processId: member.id, error }, "closing an unwanted conversation failed");
      }
      member.closingConversations -= 1;
      this.#slotFreed(member);
    })();
    this.#trackClosing(closing);
  }

  #trackClosing(closing: Promise<void>): void {
    this.#closingConversations.add(closing);
    void closing.finally(() => this.#closingConversations.delete(closing));
  }

  #unreserve(member: PoolMember<TConfig, TConversation>): void {
    member.reservations -= 1;
    this.#slotFreed(member);
  }

  /** A slot came free: wake waiting acquires, and start the idle grace if the process is now empty. */
  #slotFreed(member: PoolMember<TConfig, TConversation>): void {
    this.#roomChanged.notify();
    if (member.state === "ready" && member.occupied === 0) this.#fleet.becameIdle(member);
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

  /** Waits for a slot to come free, until `deadline`: then the acquire fails with `CAPACITY_EXHAUSTED`. */
  async #waitForRoom(callerSignal: AbortSignal | undefined, deadline: number): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw this.#capacityError();
    // A timer of this wait's own (not AbortSignal.timeout): cleared as soon as room comes.
    const expiry = new AbortController();
    const timer = Number.isFinite(remaining) ? setTimeout(() => expiry.abort(), remaining) : undefined;
    timer?.unref();
    this.#waitingAcquires += 1;
    try {
      await raceAbort(this.#roomChanged.next(), [callerSignal, this.signal, expiry.signal], (signal) =>
        signal === this.signal ? poolClosedError() : signal === expiry.signal ? this.#capacityError() : acquireAbortedError(signal),
      );
    } finally {
      clearTimeout(timer);
      this.#waitingAcquires -= 1;
    }
  }

  #capacityError(): PoolError {
    this.#tally.count("capacityRefusals");
    return capacityExhaustedError(this.#settings);
  }

  #openLeaseCount(): number {
    let count = 0;
    for (const member of this.#fleet) count += member.leases.size + member.reservations;
    return count;
  }

  #assertAccepting(): void {
    if (!this.#accepting) throw poolClosedError();
  }

}
