import type { Logger } from "@ag-ui-antigravity/foundation";
import { AsyncQueue } from "../internal/async-queue.js";
import type { InputEvent, OutputEvent, StepUpdate, TrajectoryStateUpdate } from "../protocol/messages.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import { StepNormalizer } from "../steps/step-normalizer.js";
import type { ResolvedConversationConfig } from "./conversation-config.js";
import type { TokenUsage } from "./token-usage.js";
import { TriggerScheduler, type ScheduledTrigger } from "./trigger-scheduler.js";
import type { Turn } from "./turn.js";
import { TurnTracker } from "./turn-tracker.js";

const MAX_BACKGROUND_TURNS = 100;
/** Steps that arrived after a turn's end, kept for the next turn; past this the oldest are dropped. */
const MAX_LATE_STEPS = 1_000;

/** What the turns need from their conversation. */
export interface ConversationTurnsHost {
  readonly config: ResolvedConversationConfig;
  readonly logger: Logger;
  conversationId(): string;
  currentUsage(): TokenUsage;
  /** True while the init response has not come: a step then belongs to no turn. */
  initializing(): boolean;
  /** True once the conversation is closing or gone: no trigger or queued turn starts. */
  ending(): boolean;
  /** True once the connection is gone: a stray step starts no turn. */
  terminated(): boolean;
  /** True when the conversation resumed a history (a trigger into an empty conversation crashes 0.1.10). */
  hasHistory(): boolean;
  /** Sends a turn's input or its halt. */
  send(message: InputEvent, messageKey: string): Promise<void>;
  /** A step was delivered: its questions and confirmations may need answers. */
  onStep(step: NormalizedStep): void;
}

/** Options of one user turn (`Conversation.send`). */
export interface SendOptions {
  /** Aborting it cancels the turn. */
  signal?: AbortSignal;
  /** Overrides the conversation's turnTimeoutMs for this turn; false turns the timeout off. */
  timeoutMs?: number | false;
}

/**
 * The turns of one conversation (docs/protocol.md, "Turn end"): the user's, the triggers' and those
 * the harness starts on its own; which one a step or a trajectory state belongs to; the turn a user
 * started while a trigger's ran, queued behind it; steps that come after their turn ended, kept for
 * the next. It owns every turn tracker of the conversation.
 */
export class ConversationTurns {
  readonly #host: ConversationTurnsHost;
  readonly #normalizer = new StepNormalizer();
  readonly #background: AsyncQueue<Turn>;
  readonly #backgroundListeners = new Set<(turn: Turn) => void>();
  readonly #triggers: TriggerScheduler;
  #active: TurnTracker | undefined;
  #queued: { tracker: TurnTracker; message: InputEvent } | undefined;
  #hasCompletedTurn = false;
  /**
   * The main trajectory of the last user turn, while steps arriving on it with no turn running are
   * still that turn's (the harness has not gone RUNNING again): they wait in `#lateSteps` and open
   * the next user turn, instead of holding every turn open in case they come.
   */
  #endedTurnTrajectory: string | undefined;
  readonly #lateSteps: NormalizedStep[] = [];

  constructor(host: ConversationTurnsHost) {
    this.#host = host;
    this.#background = new AsyncQueue<Turn>({
      maxItems: MAX_BACKGROUND_TURNS,
      onDrop: (dropped) => {
        if (dropped === 1) host.logger.warn({}, "trigger turns are not being read; dropping the oldest unread ones");
      },
    });
    this.#triggers = new TriggerScheduler(host.config.triggers, (trigger) => this.#deliverTrigger(trigger));
  }

  /** True while a turn runs or waits to run. */
  get busy(): boolean {
    return (this.#active !== undefined && !this.#active.settled) || this.#queued !== undefined;
  }

  /** The running turn's stop signal, if a turn runs. */
  get stopSignal(): AbortSignal | undefined {
    return this.#active?.stopSignal;
  }

  /** Trigger- and harness-started turns, in order (single consumer). */
  get background(): AsyncIterable<Turn> {
    return this.#background;
  }

  onBackgroundTurn(listener: (turn: Turn) => void): () => void {
    this.#backgroundListeners.add(listener);
    return () => this.#backgroundListeners.delete(listener);
  }

  /** Starts (or queues behind a running trigger turn) a user turn; `undefined` when another user turn runs. */
  startUserTurn(message: InputEvent, options: SendOptions): Turn | undefined {
    const active = this.#active !== undefined && !this.#active.settled ? this.#active : undefined;
    if (this.#queued !== undefined || active?.origin === "user") return undefined;
    const tracker = this.#newTracker("user", options);
    if (options.signal?.aborted) {
      tracker.cancel();
      return tracker.turn;
    }
    if (active?.origin === "harness") active.complete();
    if (active?.origin === "trigger") this.#queued = { tracker, message };
    else this.#start(tracker, message);
    return tracker.turn;
  }

  cancel(): void {
    this.#queued?.tracker.cancel();
    this.#active?.cancel();
  }

  /** The harness asked for the post-turn hook: the running turn ends once it is answered. */
  notePostTurnHook(): void {
    this.#active?.notePostTurnHook();
  }

  /** Runs host code that may wait on a human; the running turn's timeout does not run meanwhile. */
  async parked<T>(work: () => Promise<T>): Promise<T> {
    const tracker = this.#active;
    tracker?.park();
    try {
      return await work();
    } finally {
      tracker?.unpark();
    }
  }

  /** Fails the turn a frame the harness could not parse belonged to (the queued one first); false when none runs. */
  failCurrent(error: unknown): boolean {
    const tracker = this.#queued?.tracker ?? this.#active;
    if (tracker === undefined || tracker.settled) return false;
    tracker.fail(error);
    return true;
  }

  observeStep(update: StepUpdate, event: OutputEvent): void {
    const ended = this.#endedTurnTrajectory;
    if (ended !== undefined && (update.trajectoryId ?? "") === ended && (this.#active === undefined || this.#active.settled)) {
      const late = this.#normalizer.normalize(update, { mainTrajectoryId: ended, event });
      if (this.#lateSteps.length >= MAX_LATE_STEPS) this.#lateSteps.shift();
      this.#lateSteps.push(late);
      this.#host.onStep(late);
      return;
    }
    const tracker = this.#turnForStep();
    const mainTrajectoryId = tracker?.adoptMainTrajectory(update) ?? this.#host.conversationId();
    const step = this.#normalizer.normalize(update, { mainTrajectoryId, event });
    tracker?.observeStep(step);
    this.#host.onStep(step);
  }

  observeTrajectoryState(update: TrajectoryStateUpdate): void {
    const tracker = this.#active;
    if (tracker !== undefined && !tracker.settled) {
      tracker.observeTrajectoryState(update);
      return;
    }
    // The harness going RUNNING again after a turn ended starts new work: later steps are a turn of their own.
    const state = update.state;
    if ((state === "STATE_RUNNING" || state === 1) && update.trajectoryId === this.#endedTurnTrajectory) this.#endedTurnTrajectory = undefined;
    this.#host.logger.debug({ update }, "trajectory state with no turn running");
  }

  /** The connection is gone: every turn fails with `error`, triggers stop, background readers end. */
  end(error: unknown): void {
    this.#triggers.stop();
    this.#queued?.tracker.fail(error);
    this.#queued = undefined;
    this.#active?.fail(error);
    this.#active = undefined;
    this.#background.end();
    this.#backgroundListeners.clear();
  }

  /** Stops the triggers (the conversation is closing). */
  stopTriggers(): void {
    this.#triggers.stop();
  }

  #newTracker(origin: "user" | "trigger" | "harness", options: SendOptions = {}): TurnTracker {
    const config = this.#host.config;
    return new TurnTracker({
      origin,
      logger: this.#host.logger,
      conversationId: () => this.#host.conversationId(),
      // Harness-started turns were not ours to start, so they are not ours to halt on a clock.
      timeoutMs: origin === "harness" ? false : (options.timeoutMs ?? config.turnTimeoutMs),
      timings: config.timings,
      currentUsage: () => this.#host.currentUsage(),
      sendHalt: () => this.#host.send({ haltRequest: true }, "haltRequest"),
      onSettled: (tracker) => this.#onSettled(tracker),
      awaitsPostTurnHook: origin !== "harness" && config.hooks.postTurn !== undefined,
      signal: options.signal,
    });
  }

  #start(tracker: TurnTracker, message: InputEvent | undefined): void {
    this.#active = tracker;
    if (message !== undefined) this.#normalizer.reset();
    this.#endedTurnTrajectory = undefined;
    tracker.begin(this.#host.currentUsage());
    // Steps of the previous turn that came after its end are this run's first.
    if (tracker.origin === "user") for (const step of this.#lateSteps.splice(0)) tracker.observeStep(step);
    if (message === undefined || tracker.settled) return;
    const messageKey = message.automatedTrigger === undefined ? (message.userInput === undefined ? "complexUserInput" : "userInput") : "automatedTrigger";
    this.#host.send(message, messageKey).catch((error: unknown) => tracker.fail(error));
  }

  #onSettled(tracker: TurnTracker): void {
    if (this.#active === tracker) this.#active = undefined;
    if (tracker.origin === "user" && tracker.started) {
      this.#hasCompletedTurn = true;
      // Only a turn the harness finished can have steps still on their way; a halted one's are not wanted.
      this.#endedTurnTrajectory = tracker.endedOnIdle ? tracker.mainTrajectoryId : undefined;
    }
    // Deferred: the next turn must not start inside the previous one's settle path. A resolved
    // promise's reaction rather than queueMicrotask, which builds an AsyncResource every turn.
    void Promise.resolve().then(() => {
      if (this.#host.ending()) return;
      const queued = this.#queued;
      // A queued turn cancelled before it started leaves the queue at once, so `send` is free again.
      if (queued?.tracker.settled === true) this.#queued = undefined;
      else if (queued !== undefined && (this.#active === undefined || this.#active.settled)) {
        this.#queued = undefined;
        this.#start(queued.tracker, queued.message);
        return;
      }
      this.#triggers.flush();
    });
  }

  #deliverTrigger(trigger: ScheduledTrigger): boolean {
    // 0.1.10 crashes on a trigger into a conversation with no history, so triggers wait for a first turn.
    if (this.#host.ending()) return false;
    if (!this.#hasCompletedTurn && !this.#host.hasHistory()) return false;
    if (this.#queued !== undefined) return false;
    const active = this.#active;
    if (active !== undefined && !active.settled) {
      if (active.origin !== "harness") return false;
      active.complete();
    }
    const tracker = this.#newTracker("trigger");
    this.#publish(tracker.turn);
    this.#start(tracker, { automatedTrigger: trigger.message });
    return true;
  }

  #publish(turn: Turn): void {
    this.#background.push(turn);
    for (const listener of this.#backgroundListeners) {
      try {
        listener(turn);
      } catch (error) {
        this.#host.logger.warn({ error: String(error) }, "onTriggerTurn listener threw; ignoring");
      }
    }
  }

  /** The turn a step belongs to; a step with no turn running starts a harness-originated one, so nothing is lost. */
  #turnForStep(): TurnTracker | undefined {
    const active = this.#active;
    if (active !== undefined && !active.settled) return active;
    if (this.#host.initializing() || this.#host.terminated()) return undefined;
    const tracker = this.#newTracker("harness");
    this.#publish(tracker.turn);
    this.#start(tracker, undefined);
    return tracker;
  }
}
