import type { Logger } from "@ag-ui-antigravity/foundation";
import { HarnessError } from "../errors/harness-error.js";
import { AsyncQueue } from "../internal/async-queue.js";
import { PausableTimer } from "../internal/pausable-timer.js";
import { isTerminalIdleState, STOP_REASON_VALUES } from "../protocol/enums.js";
import type { StepUpdate, TrajectoryStateUpdate } from "../protocol/messages.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import { usageDifference, type TokenUsage } from "./token-usage.js";
import type { TurnTimings } from "./conversation-timings.js";
import { type SubagentEnd, Turn, type TurnOrigin, type TurnResult } from "./turn.js";

/** Unread steps kept per turn before the oldest are dropped. */
const MAX_BUFFERED_STEPS = 10_000;
const FATAL_HTTP_CODES = new Set([400, 401, 403]);
/** Waiting for tasks (0.1.10) or for subagents (0.1.21) is the main trajectory pausing, not ending. */
const NON_TERMINAL_STATES = new Set(["STATE_RUNNING", "STATE_WAITING_FOR_TASKS", "STATE_WAITING_FOR_SUBAGENTS", "STATE_UNSPECIFIED", 0, 1, 4, 5]);

export interface TurnTrackerOptions {
  origin: TurnOrigin;
  logger: Logger;
  conversationId: () => string;
  /** Milliseconds, or false for no timeout. */
  timeoutMs: number | false;
  timings: TurnTimings;
  currentUsage: () => TokenUsage;
  /** Sends haltRequest; failures are the connection's problem and surface elsewhere. */
  sendHalt: () => Promise<void>;
  /** Called once when the turn has settled. */
  onSettled: (tracker: TurnTracker) => void;
  /** The harness owes a post-turn hook call after the final idle (a `postTurn` hook is configured). */
  awaitsPostTurnHook?: boolean;
  signal?: AbortSignal | undefined;
}

type StopReason = "cancel" | "timeout";

/**
 * Decides when a turn ends and how, from the events of the main trajectory (docs/protocol.md,
 * "Turn end"): idle ends it (with `error` it failed), CANCELLED ends it as the harness's cancellation,
 * subagent trajectories never end it, and steps arriving just after an idle are still delivered.
 */
export class TurnTracker {
  readonly turn: Turn;
  readonly origin: TurnOrigin;
  #mainTrajectoryId: string | undefined;
  readonly #options: TurnTrackerOptions;
  readonly #subagentListeners = new Set<(end: SubagentEnd) => void>();
  readonly #queue: AsyncQueue<NormalizedStep>;
  readonly #timer: PausableTimer | undefined;
  #resolve!: (result: TurnResult) => void;
  #reject!: (error: unknown) => void;
  #settled = false;
  #started = false;
  #stopReason: StopReason | undefined;
  #fatalError: HarnessError | undefined;
  #settleTimer: NodeJS.Timeout | undefined;
  #drainTimer: NodeJS.Timeout | undefined;
  #earlyIdleTimer: NodeJS.Timeout | undefined;
  #parked = 0;
  /** Main-trajectory steps last seen active or waiting: while any is, an idle is not final. */
  readonly #openSteps = new Set<string>();
  /** The main trajectory went idle while a callback was being answered; decide when it is answered. */
  #idleWhileParked = false;
  #postTurnHookSeen = false;
  #endedOnIdle = false;
  #usageAtStart: TokenUsage | undefined;
  /**
   * Made when a tool handler or an answer first asks for `stopSignal`: most turns run no handler,
   * and they end without building a signal and an error (with its stack) that nobody would see.
   */
  #stopController: AbortController | undefined;
  /** Why `stopSignal` is (or, once made, would be) aborted; set once. */
  #stopSignalReason: (() => HarnessError) | undefined;
  readonly #stepIds = new Set<string>();
  // Made on first use: most turns have no error step and report no unknown state.
  #errorSteps: Map<string, NormalizedStep> | undefined;
  #warnedStates: Set<string | number> | undefined;
  #answerText: string | undefined;
  #partialText = "";
  #finish: { outputString: string; output?: unknown } | undefined;
  readonly #removeAbortListener: (() => void) | undefined;

  constructor(options: TurnTrackerOptions) {
    this.#options = options;
    this.origin = options.origin;
    this.#queue = new AsyncQueue<NormalizedStep>({
      maxItems: MAX_BUFFERED_STEPS,
      onDrop: (dropped) => {
        if (dropped === 1) options.logger.warn({ maxBuffered: MAX_BUFFERED_STEPS }, "turn steps are not being read; dropping the oldest unread steps");
      },
    });
    const result = new Promise<TurnResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Callers who only iterate get the error from the iterator; the result must not also crash them as unhandled.
    result.catch(() => undefined);
    this.#timer =
      options.timeoutMs === false ? undefined : new PausableTimer(options.timeoutMs, () => this.#stop("timeout"));
    this.turn = new Turn({
      origin: options.origin,
      steps: this.#queue,
      result,
      cancel: () => this.cancel(),
      onSubagentEnd: (listener) => {
        this.#subagentListeners.add(listener);
        return () => this.#subagentListeners.delete(listener);
      },
    });
    const signal = options.signal;
    if (signal !== undefined) {
      const onAbort = (): void => this.cancel();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#removeAbortListener = () => signal.removeEventListener("abort", onAbort);
    }
  }

  get settled(): boolean {
    return this.#settled;
  }

  get started(): boolean {
    return this.#started;
  }

  /** The turn ended as the harness finished it (not cancelled, timed out or failed). */
  get endedOnIdle(): boolean {
    return this.#endedOnIdle;
  }

  get mainTrajectoryId(): string | undefined {
    return this.#mainTrajectoryId;
  }

  /** Aborted when the turn is cancelled or times out; tool handlers of the turn see it. */
  get stopSignal(): AbortSignal {
    if (this.#stopController === undefined) {
      this.#stopController = new AbortController();
      if (this.#stopSignalReason !== undefined) this.#stopController.abort(this.#stopSignalReason());
    }
    return this.#stopController.signal;
  }

  /** The turn's input is being sent; the clock starts. An already-aborted signal cancels at once. */
  begin(usageAtStart: TokenUsage): void {
    this.#started = true;
    this.#usageAtStart = usageAtStart;
    if (this.#options.signal?.aborted) {
      this.cancel();
      return;
    }
    if (this.#parked === 0) this.#timer?.start();
  }

  /** The main trajectory is the trajectory of the turn's first step. */
  adoptMainTrajectory(step: StepUpdate): string {
    this.#mainTrajectoryId ??= step.trajectoryId ?? "";
    return this.#mainTrajectoryId;
  }

  /** Host code (a tool handler or hook) started waiting; the turn's clock stops meanwhile. */
  park(): void {
    this.#parked += 1;
    this.#timer?.pause();
    // An idle already seen is decided when the callback is answered, however long that takes.
    if (this.#settleTimer !== undefined) {
      this.#cancelSettle();
      this.#idleWhileParked = true;
    }
  }

  unpark(): void {
    this.#parked = Math.max(0, this.#parked - 1);
    if (this.#parked !== 0 || !this.#started || this.#settled) return;
    this.#timer?.start();
    if (!this.#idleWhileParked) return;
    this.#idleWhileParked = false;
    // The post-turn hook comes after the final idle: once it is answered, nothing else is owed.
    if (this.#postTurnHookSeen && this.#openSteps.size === 0) this.#finishWithResult(this.#stopReason === "cancel");
    // Otherwise the harness continues after our answer (RUNNING, more steps, another idle); if it
    // does not, the idle it already sent was the last.
    else this.#scheduleSettle();
  }

  /** The harness asked for the post-turn hook: the turn ends once it is answered. */
  notePostTurnHook(): void {
    this.#postTurnHookSeen = true;
  }

  observeStep(step: NormalizedStep): void {
    if (this.#settled) return;
    this.#cancelEarlyIdle();
    this.#stepIds.add(step.id);
    this.#queue.push(step);
    if (step.isMainTrajectory) {
      if (step.source === "model" && step.text !== "") {
        this.#partialText = step.text;
        if (step.status === "done" && step.target === "user") this.#answerText = step.text;
      }
      if (step.finish !== undefined) this.#finish = step.finish;
      if (step.status === "active" || step.status === "waiting") {
        this.#openSteps.add(step.id);
        // A step that is still working after an idle means the trajectory is not idle after all.
        if (this.#settleTimer !== undefined) this.#cancelSettle();
      } else if (step.status === "done" || step.status === "error") {
        this.#openSteps.delete(step.id);
      }
    }
    if (step.status === "error") {
      (this.#errorSteps ??= new Map()).set(step.id, step);
      const httpCode = step.error?.httpCode;
      if (step.source === "system" && httpCode !== undefined && FATAL_HTTP_CODES.has(httpCode) && this.#fatalError === undefined) {
        this.#fatalError = new HarnessError("TURN_FAILED", `the model request failed with HTTP ${httpCode}: ${step.error?.message ?? ""}`);
        this.#scheduleDrain(this.#options.timings.fatalDrainMs);
      }
    }
  }

  observeTrajectoryState(update: TrajectoryStateUpdate): void {
    if (this.#settled) return;
    const trajectoryId = update.trajectoryId ?? "";
    const state = update.state ?? "STATE_UNSPECIFIED";
    const terminal = isTerminalIdleState(state) || state === "STATE_CANCELLED" || state === 3;
    if (this.#mainTrajectoryId === undefined) {
      if (isTerminalIdleState(state) && !update.error && this.#stopReason === undefined) {
        this.#scheduleEarlyIdle();
        return;
      }
      // A terminal update before any step is the main trajectory's (e.g. a pre-turn hook denial).
      if (terminal || trajectoryId === this.#options.conversationId()) this.#mainTrajectoryId = trajectoryId;
    }
    if (trajectoryId === this.#mainTrajectoryId) this.#cancelEarlyIdle();
    if (trajectoryId !== this.#mainTrajectoryId) {
      if (update.error) this.#options.logger.warn({ trajectoryId, error: update.error }, "subagent trajectory reported an error");
      if (isTerminalIdleState(state) || state === "STATE_CANCELLED" || state === 3) {
        const end: SubagentEnd = update.error ? { trajectoryId, error: update.error } : { trajectoryId };
        for (const listener of this.#subagentListeners) listener(end);
      }
      return;
    }
    if (isTerminalIdleState(state)) {
      if (this.#stopReason === "timeout") return this.#finishWithError(this.#timeoutError());
      if (this.#fatalError !== undefined) return this.#finishWithError(this.#fatalError);
      const early = earlyStopOf(update);
      if (early !== undefined && this.#stopReason !== "cancel") return this.#finishWithError(this.#earlyStopError(early, update));
      if (update.error && this.#stopReason !== "cancel") {
        return this.#finishWithError(turnFailure(update.error, update.errorCode));
      }
      this.#onMainIdle();
      return;
    }
    if (state === "STATE_CANCELLED" || state === 3) {
      if (this.#stopReason === "cancel") return this.#finishWithResult(true);
      if (this.#stopReason === "timeout") return this.#finishWithError(this.#timeoutError());
      return this.#finishWithError(new HarnessError("CANCELLED", `the harness cancelled the turn${update.error ? `: ${update.error}` : ""}`));
    }
    if (NON_TERMINAL_STATES.has(state)) {
      if (this.#settleTimer !== undefined && state !== "STATE_UNSPECIFIED" && state !== 0) this.#cancelSettle();
      return;
    }
    // Unknown states are reported, never silently waited on; the turn timeout still bounds the wait.
    this.#warnedStates ??= new Set();
    if (!this.#warnedStates.has(state)) {
      this.#warnedStates.add(state);
      this.#options.logger.warn({
        trajectoryId,
        state,
      }, "main trajectory reported an unknown state; the turn continues until idle or its timeout");
    }
  }

  /** Halts the harness turn and ends this one with the partial output. Idempotent. */
  cancel(): void {
    this.#stop("cancel");
  }

  /** Ends the turn now with what it has (a harness-originated turn preempted by the caller). */
  complete(): void {
    this.#finishWithResult(this.#stopReason === "cancel");
  }

  /** The connection is gone: the turn fails at once. */
  fail(error: unknown): void {
    this.#finishWithError(error);
  }

  #stop(reason: StopReason): void {
    if (this.#settled || this.#stopReason !== undefined) return;
    this.#stopReason = reason;
    this.#abortStopSignal(() => new HarnessError(reason === "cancel" ? "CANCELLED" : "TIMEOUT", `the turn was ${reason === "cancel" ? "cancelled" : "timed out"}`));
    if (!this.#started) {
      // Never sent: nothing to halt.
      if (reason === "cancel") this.#finishWithResult(true);
      else this.#finishWithError(this.#timeoutError());
      return;
    }
    this.#options.sendHalt().catch((error: unknown) => this.#options.logger.debug({ error: String(error) }, "haltRequest could not be sent"));
    this.#scheduleDrain(this.#options.timings.haltDrainMs);
  }

  #scheduleDrain(milliseconds: number): void {
    if (this.#drainTimer !== undefined) return;
    this.#drainTimer = setTimeout(() => {
      this.#drainTimer = undefined;
      this.#options.logger.warn({ milliseconds }, "the harness did not end the trajectory in time; ending the turn anyway");
      if (this.#stopReason === "timeout") this.#finishWithError(this.#timeoutError());
      else if (this.#fatalError !== undefined) this.#finishWithError(this.#fatalError);
      else this.#finishWithResult(this.#stopReason === "cancel");
    }, milliseconds);
    this.#drainTimer.unref();
  }

  /**
   * A halt the harness confirmed, or an idle with nothing owed, ends the turn now. Owed work makes
   * the idle an interim one: a callback being answered (decided when it is answered), a step still
   * active or waiting (the settle timer, cancelled by RUNNING or an active step), or the post-turn
   * hook the harness calls after its final idle.
   */
  #onMainIdle(): void {
    if (this.#stopReason !== undefined) return this.#finishWithResult(this.#stopReason === "cancel");
    if (this.#parked > 0) {
      this.#idleWhileParked = true;
      return;
    }
    if (this.#openSteps.size > 0 || (this.#options.awaitsPostTurnHook === true && !this.#postTurnHookSeen)) {
      this.#scheduleSettle();
      return;
    }
    this.#finishWithResult(false);
  }

  #scheduleSettle(): void {
    if (this.#settleTimer !== undefined) return;
    this.#settleTimer = setTimeout(() => {
      this.#settleTimer = undefined;
      this.#finishWithResult(this.#stopReason === "cancel");
    }, this.#options.timings.idleSettleMs);
    this.#settleTimer.unref();
  }

  #scheduleEarlyIdle(): void {
    if (this.#earlyIdleTimer !== undefined) return;
    this.#earlyIdleTimer = setTimeout(() => {
      this.#earlyIdleTimer = undefined;
      this.#finishWithResult(this.#stopReason === "cancel");
    }, this.#options.timings.earlyIdleGraceMs);
    this.#earlyIdleTimer.unref();
  }

  #cancelEarlyIdle(): void {
    clearTimeout(this.#earlyIdleTimer);
    this.#earlyIdleTimer = undefined;
  }

  #cancelSettle(): void {
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
  }

  /** Aborts `stopSignal` with the first reason given (at once if it was made, else when it is). */
  #abortStopSignal(reason: () => HarnessError): void {
    if (this.#stopSignalReason !== undefined) return;
    this.#stopSignalReason = reason;
    this.#stopController?.abort(reason());
  }

  /** A budget or quota stop (0.1.11): never a normal end; what the turn said so far goes with the error. */
  #earlyStopError(stopReason: string, update: TrajectoryStateUpdate): HarnessError {
    const quota = stopReason === "STOP_REASON_QUOTA_EXHAUSTED";
    const limit = stopReason.replace(/^STOP_REASON_/, "").replace(/_EXCEEDED$/, "").toLowerCase().replace(/_/g, " ");
    const message = quota
      ? `the model quota is exhausted; the harness stopped the turn${update.error ? `: ${update.error}` : ""}`
      : `the turn's budget ran out (${limit}); the harness stopped the turn${update.error ? `: ${update.error}` : ""}`;
    return new HarnessError(quota ? "QUOTA_EXHAUSTED" : "BUDGET_EXCEEDED", message, { subject: stopReason, partialText: this.#answerText ?? this.#partialText });
  }

  #timeoutError(): HarnessError {
    const timeoutMs = this.#options.timeoutMs === false ? 0 : this.#options.timeoutMs;
    return new HarnessError("TIMEOUT", `the turn did not finish within ${timeoutMs} ms; it was halted`);
  }

  #result(cancelled: boolean): TurnResult {
    const cumulativeUsage = this.#options.currentUsage();
    return {
      origin: this.origin,
      text: this.#answerText ?? (cancelled ? this.#partialText : ""),
      ...(this.#finish?.output === undefined ? {} : { structuredOutput: this.#finish.output }),
      ...(this.#finish === undefined ? {} : { structuredOutputText: this.#finish.outputString }),
      cancelled,
      errorSteps: this.#errorSteps === undefined ? [] : [...this.#errorSteps.values()],
      stepCount: this.#stepIds.size,
      ...(this.#mainTrajectoryId === undefined ? {} : { trajectoryId: this.#mainTrajectoryId }),
      usage: usageDifference(cumulativeUsage, this.#usageAtStart ?? cumulativeUsage),
      cumulativeUsage,
    };
  }

  #finishWithResult(cancelled: boolean): void {
    if (this.#settled) return;
    this.#endedOnIdle = !cancelled;
    this.#cleanup();
    this.#resolve(this.#result(cancelled));
    this.#queue.end();
    this.#options.onSettled(this);
  }

  #finishWithError(error: unknown): void {
    if (this.#settled) return;
    this.#cleanup();
    this.#reject(error);
    this.#queue.fail(error);
    this.#options.onSettled(this);
  }

  #cleanup(): void {
    this.#settled = true;
    this.#abortStopSignal(() => new HarnessError("CANCELLED", "the turn ended"));
    this.#timer?.stop();
    this.#cancelSettle();
    this.#cancelEarlyIdle();
    clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
    this.#removeAbortListener?.();
  }
}

/** The harness ends a turn whose MCP server could not start with `MCP load failed for <name>: <reason>`. */
const mcpLoadFailure = /^MCP load failed for (.+?): ([\s\S]*)$/;

/** The error of a main trajectory that went idle with an error: an MCP load failure names its server; `errorCode` (0.1.20) is kept as the subject. */
function turnFailure(error: string, errorCode: string | undefined): HarnessError {
  const mcp = mcpLoadFailure.exec(error);
  if (mcp !== null) return new HarnessError("MCP_LOAD_FAILED", `MCP server "${mcp[1]}" failed to load: ${mcp[2]}`, { subject: mcp[1] ?? "" });
  return new HarnessError("TURN_FAILED", `the turn failed${errorCode ? ` (${errorCode})` : ""}: ${error}`, errorCode ? { subject: errorCode } : {});
}

/** The harness's reason for stopping a trajectory early (0.1.11), by name; undefined for a normal end. */
function earlyStopOf(update: TrajectoryStateUpdate): string | undefined {
  const reason = update.stopReason;
  if (reason === undefined || reason === "STOP_REASON_UNSPECIFIED" || reason === 0) return undefined;
  if (typeof reason === "number") return NUMBERED_STOP_REASONS[reason] ?? `STOP_REASON_${reason}`;
  return reason;
}

/** StopReason by number, for a harness sending enum numbers. */
const NUMBERED_STOP_REASONS: readonly string[] = STOP_REASON_VALUES;
