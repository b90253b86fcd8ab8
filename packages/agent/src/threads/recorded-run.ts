import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { Observable, Subject } from "rxjs";
import { AgentError } from "../errors/agent-error.js";

/** Events one run keeps for late and returning clients, by default. */
export const DEFAULT_MAX_REPLAY_EVENTS = 10_000;

/**
 * The events of one run, kept so that a client that lost its connection (or a second tab) can
 * `connect` and see the run from its first event, then follow it live. Bounded: past `maxEvents`
 * the run goes on and is still followed live, but can no longer be replayed from the start.
 */
export class RecordedRun {
  readonly runId: string;
  readonly input: RunAgentInput;
  /** Started by the server (a trigger or `notify`), not by a client's run. */
  readonly serverInitiated: boolean;
  readonly #events: BaseEvent[] = [];
  readonly #live = new Subject<BaseEvent>();
  readonly #maxEvents: number;
  #overflowed = false;
  #ended = false;

  constructor(input: RunAgentInput, options: { maxEvents: number; serverInitiated: boolean }) {
    this.runId = input.runId;
    this.input = input;
    this.serverInitiated = options.serverInitiated;
    this.#maxEvents = options.maxEvents;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get eventCount(): number {
    return this.#events.length;
  }

  /** Appends one event; a terminal event (RUN_FINISHED, RUN_ERROR) ends the run. */
  record(event: BaseEvent): void {
    if (this.#ended) return;
    if (this.#events.length < this.#maxEvents) this.#events.push(event);
    else this.#overflowed = true;
    this.#live.next(event);
    if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) this.end();
  }

  /** Ends the run without a terminal event (the agent shut down under it): followers complete. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#live.complete();
  }

  /**
   * Every event of the run from its first, then the live ones until it ends. Replay and hand-over
   * to the live subject happen in one synchronous step, so no event is missed or seen twice.
   */
  replay(): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      if (this.#overflowed) {
        subscriber.error(new AgentError("REPLAY_UNAVAILABLE", `Run ${JSON.stringify(this.runId)} outgrew its replay buffer (${this.#maxEvents} events); it can only be followed by the client that started it.`));
        return undefined;
      }
      for (const event of this.#events) {
        if (subscriber.closed) return undefined;
        subscriber.next(event);
      }
      if (this.#ended) {
        subscriber.complete();
        return undefined;
      }
      const subscription = this.#live.subscribe(subscriber);
      return () => subscription.unsubscribe();
    });
  }
}
