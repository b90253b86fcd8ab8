// Which harness processes run: starting them (and keeping a partition's warm spares), noticing
// when they die or fail a health check, stopping them after their idle grace or to make room under
// `maxProcesses`, and forgetting them once gone. The fleet owns the pool's books of processes and
// partitions; the pool decides who gets a slot on them (room, leases, closing) and asks the fleet
// for processes, so the process lifecycle reads on its own, apart from the acquire path.
import { SpawnBackoff } from "../backoff/spawn-backoff.js";
import { PoolError } from "../errors/pool-error.js";
import type { ChangeSignal } from "../internal/change-signal.js";
import { partitionKeyOf, type Partition } from "../partition/partition.js";
import type { PooledConversation, PooledProcess, StartProcess } from "../process/pooled-process.js";
import { poolClosedError } from "./acquire-errors.js";
import { PoolMember, type PartitionRecord } from "./pool-member.js";
import type { ResolvedPoolSettings } from "./pool-options.js";
import type { PoolTally } from "./pool-tally.js";

/** What the fleet needs from the pool. */
export interface ProcessFleetOptions<TConfig, TConversation extends PooledConversation> {
  readonly settings: ResolvedPoolSettings;
  readonly startProcess: StartProcess<TConfig, TConversation>;
  readonly tally: PoolTally;
  /** Notified when a process is gone, so acquires waiting for room look again. */
  readonly roomChanged: ChangeSignal;
  /** False once the pool is closing: no spare is started and no idle grace begins. */
  readonly isAccepting: () => boolean;
  /** True while acquires wait for room under the cap: they come before spares. */
  readonly hasWaitingAcquires: () => boolean;
}

/** The pool's processes and partitions, and their lifecycle. Iterating it yields every process the pool still owns. */
export class ProcessFleet<TConfig, TConversation extends PooledConversation> implements Iterable<PoolMember<TConfig, TConversation>> {
  readonly #settings: ResolvedPoolSettings;
  readonly #startProcess: StartProcess<TConfig, TConversation>;
  readonly #tally: PoolTally;
  readonly #roomChanged: ChangeSignal;
  readonly #isAccepting: () => boolean;
  readonly #hasWaitingAcquires: () => boolean;
  readonly #partitions = new Map<string, PartitionRecord<TConfig, TConversation>>();
  /** Every process the pool still owns, stopping ones included: they count against `maxProcesses` until gone. */
  readonly #members = new Set<PoolMember<TConfig, TConversation>>();
  #nextMemberId = 1;

  constructor(options: ProcessFleetOptions<TConfig, TConversation>) {
    this.#settings = options.settings;
    this.#startProcess = options.startProcess;
    this.#tally = options.tally;
    this.#roomChanged = options.roomChanged;
    this.#isAccepting = options.isAccepting;
    this.#hasWaitingAcquires = options.hasWaitingAcquires;
  }

  /** Processes the pool owns now, in every state: what `maxProcesses` caps. */
  get size(): number {
    return this.#members.size;
  }

  [Symbol.iterator](): Iterator<PoolMember<TConfig, TConversation>> {
    return this.#members.values();
  }

  /** Every partition named since the pool was created. */
  partitions(): Iterable<PartitionRecord<TConfig, TConversation>> {
    return this.#partitions.values();
  }

  /** The books of `partition`, when an acquire or `warm()` named it before. */
  find(partition: Partition): PartitionRecord<TConfig, TConversation> | undefined {
    return this.#partitions.get(partitionKeyOf(partition));
  }

  /** The pool is closing: no partition retries its pre-warm any more. */
  stopWarming(): void {
    for (const record of this.#partitions.values()) {
      if (record.warmRetryTimer !== undefined) clearTimeout(record.warmRetryTimer);
      record.warmRetryTimer = undefined;
    }
  }

  /** The books of `partition`, opened on first use with the pool's defaults (its own crash back-off, `minIdleProcesses`). */
  partitionFor(partition: Partition): PartitionRecord<TConfig, TConversation> {
    const key = partitionKeyOf(partition);
    let record = this.#partitions.get(key);
    if (record === undefined) {
      record = {
        key,
        partition: { ...partition },
        members: new Set(),
        backoff: new SpawnBackoff(this.#settings.spawnBackoff),
        minIdleProcesses: this.#settings.minIdleProcesses,
        spawns: 0,
        crashes: 0,
        warmRetryTimer: undefined,
      };
      this.#partitions.set(key, record);
    }
    return record;
  }

  /** Keeps the partition's warm spares: empty processes, started or starting. */
  ensureWarm(record: PartitionRecord<TConfig, TConversation>): void {
    // Acquires waiting under the cap come before spares.
    if (!this.#isAccepting() || record.minIdleProcesses === 0 || this.#hasWaitingAcquires()) return;
    let idle = [...record.members].filter((member) => member.isIdle).length;
    while (idle < record.minIdleProcesses) {
      const retryAfterMs = record.backoff.remainingMs(Date.now());
      if (retryAfterMs > 0) {
        if (record.warmRetryTimer === undefined) {
          record.warmRetryTimer = setTimeout(() => {
            record.warmRetryTimer = undefined;
            this.ensureWarm(record);
          }, retryAfterMs);
          record.warmRetryTimer.unref();
        }
        return;
      }
      if (this.#members.size >= this.#settings.maxProcesses) return;
      this.spawn(record);
      idle += 1;
    }
  }

  /** Asks for one more process for the partition; it counts against `maxProcesses` from now on. */
  spawn(record: PartitionRecord<TConfig, TConversation>): PoolMember<TConfig, TConversation> {
    const member = new PoolMember<TConfig, TConversation>(this.#nextMemberId, record, Date.now());
    this.#nextMemberId += 1;
    record.members.add(member);
    this.#members.add(member);
    record.spawns += 1;
    this.#tally.count("spawns");
    this.#settings.logger.debug({ processId: member.id, partitionKey: record.key }, "starting a harness process");
    member.started = this.#start(member);
    // Spares have no acquire awaiting them; their failure is logged and counted in #start.
    member.started.catch(() => undefined);
    return member;
  }

  async #start(member: PoolMember<TConfig, TConversation>): Promise<PooledProcess<TConfig, TConversation>> {
    const record = member.partition;
    const startedAt = performance.now();
    let process: PooledProcess<TConfig, TConversation>;
    try {
      process = await this.#startProcess(record.partition, { signal: member.startController.signal });
    } catch (error) {
      this.#forget(member);
      if (member.startController.signal.aborted) throw poolClosedError();
      this.#tally.count("spawnFailures");
      const retryAfterMs = record.backoff.recordFailure(Date.now());
      this.#settings.logger.error({
        processId: member.id,
        partitionKey: record.key,
        consecutiveFailures: record.backoff.consecutiveFailures,
        retryAfterMs,
        error,
      }, "a harness process failed to start");
      this.ensureWarm(record);
      throw new PoolError("SPAWN_FAILED", "the harness process failed to start", { cause: error, partitionKey: record.key });
    }
    member.process = process;
    if (member.state === "stopping") {
      // The pool stopped wanting it while it started (it is closing): stop it right away.
      await this.#closeProcess(member, {});
      this.#forget(member);
      throw poolClosedError();
    }
    const latencyMs = performance.now() - startedAt;
    this.#tally.recordSpawnLatency(latencyMs);
    member.state = "ready";
    this.#settings.logger.info({
      processId: member.id,
      pid: process.pid,
      partitionKey: record.key,
      spawnLatencyMs: Math.round(latencyMs),
    }, "harness process ready");
    if (process.signal.aborted) this.processGone(member);
    else process.signal.addEventListener("abort", () => this.processGone(member), { once: true });
    if (member.state === "ready" && member.occupied === 0) this.becameIdle(member);
    return process;
  }

  /** The process went away without the pool asking: fail its conversations at once and count the crash. */
  processGone(member: PoolMember<TConfig, TConversation>): void {
    if (member.state === "stopping") return;
    const record = member.partition;
    record.crashes += 1;
    this.#tally.count("crashes");
    const retryAfterMs = record.backoff.recordFailure(Date.now());
    const stderrTail = member.process?.stderrTail?.() ?? [];
    this.#settings.logger.error({
      processId: member.id,
      pid: member.process?.pid,
      partitionKey: record.key,
      conversations: member.leases.size,
      consecutiveFailures: record.backoff.consecutiveFailures,
      retryAfterMs,
    }, "a harness process died");
    const reason = new PoolError(
      "PROCESS_DIED",
      `harness process ${String(member.process?.pid)} died with ${member.leases.size} conversation(s) on it`,
      { cause: member.process?.signal.reason, partitionKey: record.key, stderrTail },
    );
    void this.stop(member, reason);
  }

  /**
   * An idle process failed its health check. Only an idle process that is still ours is stopped:
   * a conversation opened on it meanwhile proves it answers.
   */
  replaceUnhealthy(member: PoolMember<TConfig, TConversation>, process: PooledProcess<TConfig, TConversation>, error: unknown): void {
    if (!this.#isAccepting() || member.state !== "ready" || member.occupied > 0) return;
    const record = member.partition;
    this.#tally.count("healthCheckFailures");
    this.#tally.count("crashes");
    record.crashes += 1;
    const retryAfterMs = record.backoff.recordFailure(Date.now());
    this.#settings.logger.warn({
      processId: member.id,
      pid: process.pid,
      partitionKey: record.key,
      retryAfterMs,
      error,
    }, "an idle harness process failed its health check; replacing it");
    void this.stop(
      member,
      new PoolError("PROCESS_DIED", "the process failed its health check", { cause: error, partitionKey: record.key }),
      { gracePeriodMs: 0 },
    );
  }

  /** The process has nothing on it any more: its idle grace starts (unless the pool is closing). */
  becameIdle(member: PoolMember<TConfig, TConversation>): void {
    member.idleSince = Date.now();
    member.clearIdleTimer();
    if (!this.#isAccepting()) return;
    member.idleTimer = setTimeout(() => this.#idleGraceEnded(member), this.#settings.idleGraceMs);
    member.idleTimer.unref();
  }

  #idleGraceEnded(member: PoolMember<TConfig, TConversation>): void {
    member.idleTimer = undefined;
    if (member.state !== "ready" || member.occupied > 0) return;
    const record = member.partition;
    const idle = [...record.members].filter((candidate) => candidate.isIdle).length;
    if (idle <= record.minIdleProcesses) {
      // A warm spare the partition asked to keep; look again later, as `warm()` may lower the target.
      member.idleTimer = setTimeout(() => this.#idleGraceEnded(member), this.#settings.idleGraceMs);
      member.idleTimer.unref();
      return;
    }
    this.#tally.count("idleStops");
    this.#settings.logger.info({
      processId: member.id,
      pid: member.process?.pid,
      partitionKey: record.key,
      idleGraceMs: this.#settings.idleGraceMs,
    }, "stopping an idle harness process");
    void this.stop(member, new PoolError("PROCESS_DIED", "the process was stopped after its idle grace", { partitionKey: record.key }));
  }

  /** Under the pool-wide cap, an empty process elsewhere gives way to an acquire that needs one; true when a stop is under way. */
  stopAnIdleProcessForRoom(): boolean {
    let stopping = false;
    let oldestIdle: PoolMember<TConfig, TConversation> | undefined;
    for (const member of this.#members) {
      if (member.state === "stopping") stopping = true;
      else if (member.state === "ready" && member.occupied === 0) {
        if (oldestIdle === undefined || (member.idleSince ?? 0) < (oldestIdle.idleSince ?? 0)) oldestIdle = member;
      }
    }
    // A stop already under way frees the room this acquire is waiting for.
    if (stopping) return true;
    if (oldestIdle === undefined) return false;
    this.#tally.count("idleStops");
    this.#settings.logger.info({
      processId: oldestIdle.id,
      partitionKey: oldestIdle.partition.key,
      maxProcesses: this.#settings.maxProcesses,
    }, "stopping an idle harness process to make room under maxProcesses");
    void this.stop(
      oldestIdle,
      new PoolError("PROCESS_DIED", "the process was stopped to make room for another partition", {
        partitionKey: oldestIdle.partition.key,
      }),
    );
    return true;
  }

  /** Takes the process out of placement, ends its leases with `reason` and stops it. */
  stop(
    member: PoolMember<TConfig, TConversation>,
    reason: PoolError,
    options: { gracePeriodMs?: number } = {},
  ): Promise<void> {
    if (member.stopped !== undefined) return member.stopped;
    member.state = "stopping";
    member.clearIdleTimer();
    member.partition.members.delete(member);
    member.startController.abort(reason);
    for (const lease of [...member.leases]) lease.end(reason);
    member.stopped = (async () => {
      if (member.process === undefined) {
        // Still starting: #start sees the stop when the start settles and closes what it got.
        await member.started.then(
          () => undefined,
          () => undefined,
        );
      } else {
        await this.#closeProcess(member, options);
      }
      this.#forget(member);
      this.ensureWarm(member.partition);
    })();
    return member.stopped;
  }

  async #closeProcess(member: PoolMember<TConfig, TConversation>, options: { gracePeriodMs?: number }): Promise<void> {
    const gracePeriodMs = options.gracePeriodMs ?? this.#settings.processGracePeriodMs;
    try {
      await member.process?.close(gracePeriodMs === undefined ? {} : { gracePeriodMs });
    } catch (error) {
      this.#settings.logger.warn({ processId: member.id, pid: member.process?.pid, error }, "stopping a harness process failed");
    }
  }

  /** Drops every record of the process and wakes acquires waiting for room. */
  #forget(member: PoolMember<TConfig, TConversation>): void {
    member.state = "stopping";
    member.clearIdleTimer();
    member.partition.members.delete(member);
    this.#members.delete(member);
    this.#roomChanged.notify();
  }
}
