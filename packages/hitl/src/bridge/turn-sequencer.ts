import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import { TurnScope } from "../turn/turn-scope.js";

/**
 * The bridge's one port back into its host: start a harness turn for queued user input, and return
 * its steps. The bridge decides when (a run's new input, input queued behind a parked turn); the
 * host decides how (the agent wraps `conversation.send`, adding `preamble`, the bridge's note of
 * what the user answered or abandoned, before the input). `signal` aborts when the bridge halts the
 * turn.
 */
export type TurnStarter<TInput> = (input: TInput, context: { preamble: string | undefined; signal: AbortSignal }) => AsyncIterable<NormalizedStep>;

/** What a `TurnSequencer` is given by its bridge. */
export interface TurnSequencerOptions {
  /** The bridge's signal: once aborted, no turn starts. */
  signal: AbortSignal;
  /** What the next turn's input starts with (`TurnStarter`'s `preamble`), read as the turn starts. */
  preamble: () => string | undefined;
}

/**
 * The harness turns of one thread, one at a time: the turn in progress (which may be parked across
 * runs), the halted turn still draining, the user input queued behind them, the latest way to start
 * a turn, and who hears when a turn is retired. Separate from the bridge because the order of turns
 * is a state machine of its own: the harness runs one turn per conversation, so a turn starts only
 * once the one before it has drained, and every turn is retired exactly once, whoever ends it.
 */
export class TurnSequencer {
  readonly #options: TurnSequencerOptions;
  #current: TurnScope | undefined;
  #draining: Promise<void> | undefined;
  #pendingInputs: unknown[] = [];
  #startTurn: TurnStarter<unknown> | undefined;
  readonly #turnEndListeners = new Set<() => void>();

  constructor(options: TurnSequencerOptions) {
    this.#options = options;
  }

  /** The turn in progress, if one is (possibly parked across runs). */
  current(): TurnScope | undefined {
    return this.#current;
  }

  /** Calls `listener` whenever a turn is retired; returns the unsubscribe function. */
  onTurnEnd(listener: () => void): () => void {
    this.#turnEndListeners.add(listener);
    return () => this.#turnEndListeners.delete(listener);
  }

  /** How turns start from now on: the latest run's starter is used. */
  useStarter(startTurn: TurnStarter<unknown>): void {
    this.#startTurn = startTurn;
  }

  /** Queues user input for a turn of its own, after the input queued before it. */
  queue(input: unknown): void {
    this.#pendingInputs.push(input);
  }

  /** Starts the next queued input as a turn, or returns undefined when none is queued (or the bridge closed). */
  async startNext(): Promise<TurnScope | undefined> {
    if (this.#pendingInputs.length === 0 || this.#startTurn === undefined || this.#options.signal.aborted) return undefined;
    // The harness runs one turn per conversation: a halted turn must finish draining first.
    if (this.#draining !== undefined) await this.#draining;
    const input = this.#pendingInputs.shift();
    const preamble = this.#options.preamble();
    const controller = new AbortController();
    const turn = new TurnScope(controller);
    turn.onRetire(() => {
      for (const listener of this.#turnEndListeners) listener();
    });
    this.#current = turn;
    try {
      turn.attach(this.#startTurn(input, { preamble, signal: controller.signal }));
    } catch (error) {
      this.retire(turn);
      throw error;
    }
    return turn;
  }

  /** Retires a turn that has ended; it stops being the current one. */
  retire(turn: TurnScope): void {
    if (this.#current === turn) this.#current = undefined;
    turn.retire();
  }

  /** Halts a turn that nobody waits on and retires it; the next turn starts once it has drained. */
  halt(turn: TurnScope): void {
    const draining = turn.halt();
    this.#draining = draining;
    // Once drained it is forgotten, so later turns start at once rather than a microtask later.
    void draining.then(() => {
      if (this.#draining === draining) this.#draining = undefined;
    });
    this.retire(turn);
  }

  /**
   * The bridge's close: drops the queued input and halts the current turn. Resolves when the halted
   * turn (or one halted before) has drained.
   */
  close(): Promise<void> | undefined {
    const turn = this.#current;
    this.#current = undefined;
    this.#pendingInputs = [];
    // A halted turn drains without rejecting (TurnScope swallows its CANCELLED end).
    return turn === undefined ? this.#draining : turn.halt();
  }
}
