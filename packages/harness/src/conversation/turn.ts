import type { NormalizedStep } from "../steps/normalized-step.js";
import type { TokenUsage } from "./token-usage.js";

/** Who started a turn: the caller's `send`, a configured trigger, or the harness on its own. */
export type TurnOrigin = "user" | "trigger" | "harness";

/** How a turn ended: its answer (and structured output), whether it was cancelled, its failed steps, its tokens. */
export interface TurnResult {
  /** Who started the turn (the same as `Turn.origin`). */
  origin: TurnOrigin;
  /** The answer: the last main-trajectory model step shown to the user; on cancel, the partial text so far. */
  text: string;
  /** Parsed structured output of a `finish` step (responseSchema), when it parsed. */
  structuredOutput?: unknown;
  /** The raw `finish` output string, when there was one. */
  structuredOutputText?: string;
  /** True when the turn was cancelled (cancel() or an aborted signal); text is then partial. */
  cancelled: boolean;
  /** Every error step seen (they were also yielded), last delivery of each. */
  errorSteps: NormalizedStep[];
  /** Distinct steps seen in this turn. */
  stepCount: number;
  /** The main trajectory of the turn, once known. */
  trajectoryId?: string;
  /** Tokens this turn used (difference of the harness's cumulative totals). */
  usage: TokenUsage;
  /** The conversation's cumulative usage after the turn. */
  cumulativeUsage: TokenUsage;
}

/** A subagent trajectory of the turn reached its end (idle, possibly with an error). */
export interface SubagentEnd {
  /** The subagent's trajectory: the `trajectoryId` its steps carry. */
  trajectoryId: string;
  /** The harness's error text when the subagent failed. */
  error?: string;
}

/** What a Turn needs from whoever drives it. */
export interface TurnDriver {
  readonly origin: TurnOrigin;
  readonly steps: AsyncIterable<NormalizedStep>;
  readonly result: Promise<TurnResult>;
  cancel(): void;
  onSubagentEnd(listener: (end: SubagentEnd) => void): () => void;
}

/**
 * One turn: iterate it for the normalized steps as they stream (each has the raw OutputEvent in
 * `event`), and await `result` for the outcome. Iterating is optional; the result settles either way.
 *
 * @example
 * const turn = conversation.send("What is in this directory?");
 * for await (const step of turn) if (step.kind === "text") process.stdout.write(step.textDelta);
 * const { text, usage } = await turn.result;
 */
export class Turn implements AsyncIterable<NormalizedStep> {
  /** Who started the turn: `user` (`send`), `trigger` (a configured trigger) or `harness` (steps sent with no turn running). */
  readonly origin: TurnOrigin;
  /** Settles when the turn ends: resolves on completion or cancellation, rejects with a HarnessError otherwise. */
  readonly result: Promise<TurnResult>;
  readonly #driver: TurnDriver;

  /** @internal Turns come from `Conversation.send` and trigger turns; the driver is the conversation's. */
  constructor(driver: TurnDriver) {
    this.#driver = driver;
    this.origin = driver.origin;
    this.result = driver.result;
  }

  /** Halts the harness turn; the turn ends with `cancelled: true` and the output produced so far. */
  cancel(): void {
    this.#driver.cancel();
  }

  /**
   * Calls `listener` when a subagent trajectory of this turn ends. Steps carry no such signal: the
   * harness reports it as a trajectory state, which a UI needs to close the subagent's block.
   * Returns an unsubscribe function.
   */
  onSubagentEnd(listener: (end: SubagentEnd) => void): () => void {
    return this.#driver.onSubagentEnd(listener);
  }

  /**
   * The turn's steps as they stream; it ends when the turn ends and throws the turn's HarnessError
   * when it fails. One iteration per turn (a second throws a TypeError); past 10 000 unread steps the
   * oldest are dropped, with a warning.
   */
  [Symbol.asyncIterator](): AsyncIterator<NormalizedStep> {
    return this.#driver.steps[Symbol.asyncIterator]();
  }
}
