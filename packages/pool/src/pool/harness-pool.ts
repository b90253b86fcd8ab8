// The pool's public face. HarnessPool owns whether it still accepts work, its signal, and the
// close and drain sequence, and wires the pieces that do the rest, each in a file of its own:
// ProcessFleet (which processes run), RoomFinder (who gets a slot, and the wait for one), LeaseDesk
// (opening conversations and handing out leases), IdleHealthChecks (probing idle processes),
// PoolTally and snapshotMetrics (counting, and the `/metrics` view).
import { setMaxListeners } from "node:events";
import type { Conversation, ConversationConfig } from "@ag-ui-antigravity/harness";
import { brandClass, hasBrand, linkSignals, pause } from "@ag-ui-antigravity/foundation";
import { PoolError } from "../errors/pool-error.js";
import { ChangeSignal } from "../internal/change-signal.js";
import { raceAbort } from "../internal/race-abort.js";
import type { PoolMetrics } from "../metrics/pool-metrics.js";
import type { Partition } from "../partition/partition.js";
import { startHarnessProcess, type HarnessStartOptions } from "../process/harness-process-adapter.js";
import type { PooledConversation, PooledProcess, StartProcess } from "../process/pooled-process.js";
import { acquireAbortedError, poolClosedError } from "./acquire-errors.js";
import { IdleHealthChecks } from "./idle-health-checks.js";
import { LeaseDesk } from "./lease-desk.js";
import { snapshotMetrics } from "./metrics-snapshot.js";
import type { PoolLease } from "./pool-lease.js";
import { resolvePoolSettings, type HarnessPoolSettings, type ResolvedPoolSettings } from "./pool-options.js";
import { PoolTally } from "./pool-tally.js";
import { ProcessFleet } from "./process-fleet.js";
import { RoomFinder } from "./room-finder.js";

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
  readonly #room: RoomFinder<TConfig, TConversation>;
  readonly #desk: LeaseDesk<TConfig, TConversation>;
  readonly #controller = new AbortController();
  readonly #roomChanged = new ChangeSignal();
  readonly #tally = new PoolTally();
  readonly #detachOwnerSignal: () => void;
  readonly #healthChecks: IdleHealthChecks<TConfig, TConversation>;
  #accepting = true;
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
      hasWaitingAcquires: () => this.#room.waitingAcquires > 0,
    });
    const shared = {
      settings: this.#settings,
      fleet: this.#fleet,
      tally: this.#tally,
      roomChanged: this.#roomChanged,
      poolSignal: this.#controller.signal,
    };
    this.#room = new RoomFinder(shared);
    this.#desk = new LeaseDesk({ ...shared, isAccepting: () => this.#accepting });
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
      const member = this.#room.reserve(record, options.reclaim ?? true);
      if (member === undefined) {
        roomDeadline ??= Date.now() + this.#settings.maxRoomWaitMs;
        await this.#room.waitForRoom(callerSignal, roomDeadline);
        this.#assertAccepting();
        continue;
      }
      const lease = await this.#desk.openOn(member, options);
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
    return this.#room.hasRoomFor(partition, options.reclaim ?? true);
  }

  /** A point-in-time view for a `/metrics` route. */
  metrics(): PoolMetrics {
    return snapshotMetrics(
      {
        members: this.#fleet,
        partitions: this.#fleet.partitions(),
        closed: !this.#accepting,
        waitingAcquires: this.#room.waitingAcquires,
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
      await Promise.race([this.#desk.closingSettled(), pause(deadline - Date.now(), skip.signal)]);
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

  #openLeaseCount(): number {
    let count = 0;
    for (const member of this.#fleet) count += member.leases.size + member.reservations;
    return count;
  }

  #assertAccepting(): void {
    if (!this.#accepting) throw poolClosedError();
  }
}
