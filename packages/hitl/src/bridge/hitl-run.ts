import type { Interrupt } from "@ag-ui/core";
import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import type { ParkingLot } from "../parking/parking-lot.js";
import type { TurnScope } from "../turn/turn-scope.js";
import type { HitlNotification, RunItem } from "./notifications.js";

/** How a run must end, decided by what is still parked when it stops. */
export type RunConclusion =
  /** RUN_FINISHED with `outcome: { type: "interrupt", interrupts }`, after a STATE_SNAPSHOT of `stateSnapshot` when present. */
  | { type: "interrupt"; interrupts: Interrupt[]; pendingToolCallIds: string[]; stateSnapshot?: Record<string, unknown> }
  /** RUN_FINISHED without an outcome: the client owes ToolMessages for these calls. */
  | { type: "pending-tools"; pendingToolCallIds: string[] }
  /** RUN_FINISHED: nothing waits on the client. */
  | { type: "completed" };

/** What a run's answers settled, for logging and for the agent's own bookkeeping. */
export interface RunStart {
  /** Interrupts this run's `resume` settled (answered or cancelled); they are no longer pending. */
  resolvedInterruptIds: string[];
  /** Parked frontend tool calls this run's ToolMessages settled (with a result or an error). */
  resolvedToolCallIds: string[];
  /** Parked requests released because the run brought new input instead of answers. */
  abandonedIds: string[];
  /** Harmless answers that settled nothing (replays), with why. */
  ignored: string[];
  /** True when this run continues a turn that was already in progress. */
  continuesTurn: boolean;
}

/** What a run needs from its bridge. */
export interface RunHost {
  readonly lot: ParkingLot;
  readonly settleMs: number;
  currentTurn(): TurnScope | undefined;
  /** Starts the next queued input as a turn, or returns undefined when none is queued. */
  startNextTurn(): Promise<TurnScope | undefined>;
  turnEnded(turn: TurnScope): void;
  /** What the run yields for a harness step: the step, a refusal it reports, or nothing (a mirror of the bridge's own call). */
  itemOfStep(step: NormalizedStep): RunItem | undefined;
  haltTurn(turn: TurnScope): void;
  conclude(run: HitlRun): RunConclusion;
}

type Race =
  | { kind: "read"; result: IteratorResult<NormalizedStep> }
  | { kind: "read-failed"; error: unknown }
  | { kind: "wake" }
  | { kind: "settled" }
  | { kind: "aborted" };

const WAKE: Race = { kind: "wake" };
const SETTLED: Race = { kind: "settled" };
const ABORTED: Race = { kind: "aborted" };

/**
 * One AG-UI run attached to a thread's bridge. `items()` yields the turn's steps interleaved with the
 * bridge's notifications and stops when the turn ends or parks on a human; `finish()` says how the
 * run must end and detaches it, after which notifications wait for the next run.
 *
 * @example
 * const run = bridge.beginRun(input, { newInput: text, startTurn });
 * for await (const item of run.items({ signal })) forward(item);
 * const conclusion = run.finish();
 * emit({ type: EventType.RUN_FINISHED, threadId, runId, ...(conclusion.type === "interrupt" ? { outcome: { type: "interrupt", interrupts: conclusion.interrupts } } : {}) });
 */
export class HitlRun {
  /** What this run's answers settled when it began. */
  readonly start: RunStart;
  readonly #host: RunHost;
  readonly #queue: HitlNotification[] = [];
  // Resolves the race `#next` is waiting on (a read, a wake, the settle window, the run's signal), if one is.
  #resolveRace: ((race: Race) => void) | undefined;
  #settleTimer: NodeJS.Timeout | undefined;
  // One pair of read handlers for the whole run rather than a pair (and a race object) per step. A
  // handler left from a race that a wake ended can only fire for the read the current race waits on
  // too (a read is consumed only once it has settled, and its handlers run in the order they were
  // attached), so it settles that race with the right step and the later handler finds none to settle.
  readonly #onRead = (result: IteratorResult<NormalizedStep>): void => this.#settleRace({ kind: "read", result });
  readonly #onReadFailed = (error: unknown): void => this.#settleRace({ kind: "read-failed", error });
  readonly #onSettleWindow = (): void => this.#settleRace(SETTLED);
  #finished = false;
  #conclusion: RunConclusion | undefined;
  // The turn `startTurn()` began (or its failure), for `items()` to take up.
  #earlyStart: Promise<TurnScope | undefined> | undefined;
  readonly #unsubscribePark: () => void;

  /** @internal Runs come from `HitlBridge.beginRun`. */
  constructor(host: RunHost, start: RunStart) {
    this.#host = host;
    this.start = start;
    this.#unsubscribePark = host.lot.onPark(() => this.#settleRace(WAKE));
  }

  /** True once `finish()` was called (or a failed read ended the run): the run is detached and gets no more notifications. */
  get finished(): boolean {
    return this.#finished;
  }

  /**
   * Starts the run's queued input as a turn now rather than on the first pull of `items()`, so the
   * harness works on it while the caller writes its first events (RUN_STARTED); the turn's steps
   * still come only from `items()`. A start that fails is thrown by `items()`, where it would have
   * been. Does nothing when a turn is running already or the run has finished.
   */
  startTurn(): void {
    if (this.#finished || this.#earlyStart !== undefined || this.#host.currentTurn() !== undefined) return;
    const starting = this.#host.startNextTurn();
    // Rejections are taken up by `items()`; a run that never reads its items must not leave one unhandled.
    starting.catch(() => undefined);
    this.#earlyStart = starting;
  }

  /** Queues a notification for this run's stream. */
  push(notification: HitlNotification): void {
    this.#queue.push(notification);
    this.#settleRace(WAKE);
  }

  /**
   * The run's items. Ends when the turn is over (and no queued input starts another), when something
   * is parked and the turn has been quiet for the settle window, or when `signal` aborts. On abort the
   * turn is halted unless it waits on a human, in which case it stays parked for a later run; a read
   * that is in flight is never cancelled, the next run receives it.
   */
  async *items(options: { signal?: AbortSignal } = {}): AsyncGenerator<RunItem, void, undefined> {
    const signal = options.signal;
    // One listener for the whole run, not one per step.
    const onAbort = (): void => this.#settleRace(ABORTED);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const current = this.#host.currentTurn();
        if (this.#queue[0]?.type === "tool-denied") {
          // A denial goes before buffered steps: they may be the harness's own report of the call it
          // refused (produced because of the denial), which must not settle the call first.
          yield this.#queue.shift() as HitlNotification;
          continue;
        }
        let turn: TurnScope;
        let race: Race;
        if (this.#queue.length > 0) {
          // Steps the harness produced before these notifications may already be buffered: they go first.
          const ready = current === undefined ? undefined : await this.#readyRead(current);
          if (ready === undefined || current === undefined) {
            while (this.#queue.length > 0) yield this.#queue.shift() as HitlNotification;
            continue;
          }
          turn = current;
          race = ready;
        } else {
          if (this.#finished) return;
          const next = current ?? (await this.#startNextTurn());
          if (next === undefined) return;
          turn = next;
          // Starting the turn may already have queued notifications (a tool called before send returned).
          if (this.#queue.length > 0) continue;
          race = await this.#next(turn, this.#host.lot.size > 0, signal);
        }
        // Yielded here rather than through a nested generator, which costs each item a few more promises.
        if (race.kind === "read") {
          turn.consume();
          if (race.result.done !== true) {
            const item = this.#host.itemOfStep(race.result.value);
            if (item !== undefined) yield item;
            continue;
          }
          while (this.#queue.length > 0) yield this.#queue.shift() as HitlNotification;
          this.#host.turnEnded(turn);
          yield { type: "turn-ended" };
        } else if (race.kind === "read-failed") {
          turn.consume();
          this.#host.turnEnded(turn);
          // The run ends in RUN_ERROR; detach it now so the thread's next run is not refused.
          this.finish();
          throw race.error;
        } else if (race.kind === "settled") {
          return;
        } else if (race.kind === "aborted") {
          if (this.#host.lot.size === 0) this.#host.haltTurn(turn);
          return;
        }
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The turn `startTurn()` began, unless it has already run its course; else the next queued input's. */
  // Not async: an async function returning the host's promise would add two promise jobs to every
  // run's end, between the turn's end and RUN_FINISHED.
  #startNextTurn(): Promise<TurnScope | undefined> {
    const early = this.#earlyStart;
    if (early === undefined) return this.#host.startNextTurn();
    this.#earlyStart = undefined;
    return early.then((turn) => (turn === undefined || turn.retired ? this.#host.startNextTurn() : turn));
  }

  /** The turn's next read if it settles within the current macrotask (a buffered step), else undefined. */
  async #readyRead(turn: TurnScope): Promise<Extract<Race, { kind: "read" | "read-failed" }> | undefined> {
    const read = turn.read().then(
      (result): Race => ({ kind: "read", result }),
      (error: unknown): Race => ({ kind: "read-failed", error }),
    );
    const later = new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)));
    const first = await Promise.race([read, later]);
    return first === undefined || (first.kind !== "read" && first.kind !== "read-failed") ? undefined : first;
  }

  /** How the run must end. Detaches the run; idempotent. */
  finish(): RunConclusion {
    if (this.#conclusion !== undefined) return this.#conclusion;
    this.#finished = true;
    this.#unsubscribePark();
    this.#settleRace(WAKE);
    this.#conclusion = this.#host.conclude(this);
    return this.#conclusion;
  }

  /** Notifications queued but not yet yielded when the run finished; the bridge hands them to the next run. */
  takeUndelivered(): HitlNotification[] {
    return this.#queue.splice(0);
  }

  /**
   * The turn's next read, or what ends the wait first: a wake (a notification, a park), the settle
   * window while something is parked, or the run's signal. Cheap per step: one promise; the read
   * handlers and the signal's listener live as long as the run.
   */
  #next(turn: TurnScope, parked: boolean, signal: AbortSignal | undefined): Promise<Race> {
    if (signal?.aborted === true) return Promise.resolve(ABORTED);
    const race = new Promise<Race>((resolve) => {
      this.#resolveRace = resolve;
    });
    turn.read().then(this.#onRead, this.#onReadFailed);
    if (parked) {
      this.#settleTimer = setTimeout(this.#onSettleWindow, this.#host.settleMs);
      this.#settleTimer.unref();
    }
    return race;
  }

  #settleRace(race: Race): void {
    const resolve = this.#resolveRace;
    if (resolve === undefined) return;
    this.#resolveRace = undefined;
    if (this.#settleTimer !== undefined) {
      clearTimeout(this.#settleTimer);
      this.#settleTimer = undefined;
    }
    resolve(race);
  }
}
