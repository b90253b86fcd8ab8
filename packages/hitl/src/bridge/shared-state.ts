import type { Context } from "@ag-ui/core";
import { isPlainObject } from "../json/json-value.js";
import { turnSummary } from "../turn/turn-summary.js";
import type { HitlRun } from "./hitl-run.js";

/** The part of a run the shared state delivers to. */
type StateReceiver = Pick<HitlRun, "push">;

/**
 * What the client shares with the agent of one thread: the shared state, which server tools read and
 * write, and the latest run's context. It owns both, and the one rule that makes the state more than
 * a field: a write made while no run is attached (the turn parked between runs) has not reached the
 * client yet, so it wins over the state the next run brings and is delivered first in that run.
 * Separate from the bridge, which only says when a run begins and which run is attached.
 */
export class SharedState {
  readonly #attachedRun: () => StateReceiver | undefined;
  #state: unknown;
  #undelivered = false;
  #context: Context[] = [];

  /** `attachedRun`: the run a write is delivered to now, or undefined while none is attached (or it finished). */
  constructor(attachedRun: () => StateReceiver | undefined) {
    this.#attachedRun = attachedRun;
  }

  /** Takes what a beginning run shares: its context always, its state unless a write of ours is newer. */
  adopt(context: Context[], clientState: unknown): void {
    this.#context = context;
    // Until a write made while parked has reached the client, this bridge's copy is the newer one.
    if (this.#undelivered) return;
    if (clientState !== undefined && clientState !== null) this.#state = structuredClone(clientState);
  }

  /** A server tool's write (already a copy): delivered to the attached run now, else kept for the next. */
  write(state: Record<string, unknown>): void {
    this.#state = state;
    const run = this.#attachedRun();
    if (run === undefined) {
      this.#undelivered = true;
      return;
    }
    this.#push(run);
  }

  /** Delivers a write the client has not had yet to `run`, the run that has just begun. */
  deliverPending(run: StateReceiver): void {
    if (this.#undelivered && isPlainObject(this.#state)) this.#push(run);
  }

  /** A copy of the state when it is an object, for the STATE_SNAPSHOT before an interrupt outcome. */
  snapshot(): Record<string, unknown> | undefined {
    return isPlainObject(this.#state) ? structuredClone(this.#state) : undefined;
  }

  /** The state as it is, for `ServerToolScope.readState`: its readers copy it before handing it out. */
  readState(): unknown {
    return this.#state;
  }

  /** The latest run's context as it is, for `ServerToolScope.readContext`: its readers copy it too. */
  readContext(): Context[] {
    return this.#context;
  }

  /** The bounded summary of context and state a turn's input may start with (`turnSummary` option). */
  summary(maxChars: number): string | undefined {
    return turnSummary({ context: this.#context, state: this.#state, maxChars });
  }

  #push(run: StateReceiver): void {
    this.#undelivered = false;
    run.push({ type: "state", state: structuredClone(this.#state as Record<string, unknown>) });
  }
}
