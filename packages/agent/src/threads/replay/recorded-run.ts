import { EventType, type BaseEvent, type RunStartedEvent } from "@ag-ui/client";
import { Observable, type Subscriber, type TeardownLogic } from "rxjs";
import { loggedId } from "@ag-ui-antigravity/foundation";
import { AgentError } from "../../errors/agent-error.js";
import { approximateSize } from "./approximate-size.js";

/** Events one run keeps for late and returning clients, by default. */
export const DEFAULT_MAX_REPLAY_EVENTS = 10_000;
/** Characters of events one run in flight keeps for replay, by default. */
export const DEFAULT_MAX_REPLAY_BYTES = 8 * 1024 * 1024;

export interface RecordedRunOptions {
  maxEvents: number;
  /** Characters of events (RUN_STARTED's input aside) the run keeps; past either bound it cannot be replayed. */
  maxBytes: number;
  /** Started by the server (a trigger or `notify`), not by a client's run. */
  serverInitiated: boolean;
}

/**
 * The events of one run, kept so that a client that lost its connection (or a second tab) can
 * `connect` and see the run from its first event, then follow it live. Bounded in events and in
 * size: past either bound the run goes on and is still followed live, but can no longer be replayed
 * from the start. RUN_STARTED's input is not counted while the run is in flight (the run holds that
 * input anyway) and is dropped from the kept copy when the run ends (`trimForGrace`).
 */
export class RecordedRun {
  readonly runId: string;
  readonly serverInitiated: boolean;
  #events: BaseEvent[] = [];
  /**
   * Who follows the run live. Replaced, never changed in place, so a delivery goes on over the
   * followers it began with; kept by hand rather than in an rxjs Subject, whose `next` allocates a
   * closure and an iterator for every event of the run.
   */
  #followers: readonly Subscriber<BaseEvent>[] = [];
  readonly #options: RecordedRunOptions;
  #sizeBytes = 0;
  #overflowed = false;
  #discarded = false;
  #ended = false;

  constructor(runId: string, options: RecordedRunOptions) {
    this.runId = runId;
    this.serverInitiated = options.serverInitiated;
    this.#options = options;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get eventCount(): number {
    return this.#events.length;
  }

  /** Characters the kept events hold (RUN_STARTED's input aside). */
  get sizeBytes(): number {
    return this.#sizeBytes;
  }

  /** Whether a client can still get the run from its first event. */
  get replayable(): boolean {
    return !this.#overflowed && !this.#discarded;
  }

  /** Appends one event; a terminal event (RUN_FINISHED, RUN_ERROR) ends the run. */
  record(event: BaseEvent): void {
    if (this.#ended) return;
    if (this.replayable) {
      const size = event.type === EventType.RUN_STARTED ? 0 : approximateSize(event);
      if (this.#events.length < this.#options.maxEvents && this.#sizeBytes + size <= this.#options.maxBytes) {
        this.#events.push(event);
        this.#sizeBytes += size;
      } else {
        this.#overflowed = true;
        this.#events = [];
        this.#sizeBytes = 0;
      }
    }
    const followers = this.#followers;
    for (let index = 0; index < followers.length; index += 1) followers[index]!.next(event);
    if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) this.end();
  }

  /** Ends the run without a terminal event (the agent shut down under it): followers complete. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const followers = this.#followers;
    this.#followers = [];
    for (let index = 0; index < followers.length; index += 1) followers[index]!.complete();
  }

  /**
   * Makes the ended run fit for its grace period: RUN_STARTED loses its input (a client resuming
   * after the end already has it, and a returning page gets the thread's snapshot). Returns false
   * when the run cannot be replayed or holds more than `maxBytes`: it is then dropped at once.
   */
  trimForGrace(maxBytes: number): boolean {
    if (!this.replayable || this.#sizeBytes > maxBytes) {
      this.discard();
      return false;
    }
    const first = this.#events[0];
    if (first?.type === EventType.RUN_STARTED) {
      const { input: _input, ...started } = first as RunStartedEvent;
      this.#events[0] = started;
    }
    return true;
  }

  /** Frees the kept events; the run can no longer be replayed. */
  discard(): void {
    this.#discarded = true;
    this.#events = [];
    this.#sizeBytes = 0;
  }

  /** The run's events from now on, as they are recorded (nothing replayed). */
  live(): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => this.#follow(subscriber));
  }

  /** Adds a live follower (one that comes after the end completes at once); returns its removal. */
  #follow(subscriber: Subscriber<BaseEvent>): TeardownLogic {
    if (this.#ended) {
      subscriber.complete();
      return undefined;
    }
    this.#followers = [...this.#followers, subscriber];
    return () => {
      this.#followers = this.#followers.filter((follower) => follower !== subscriber);
    };
  }

  /**
   * Every event of the run from its first, then the live ones until it ends. Replay and hand-over
   * to the live followers happen in one synchronous step, so no event is missed or seen twice.
   */
  replay(): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      if (!this.replayable) {
        const reason = this.#overflowed
          ? `outgrew its replay buffer (${this.#options.maxEvents} events, ${this.#options.maxBytes} characters)`
          : "is no longer kept for replay";
        subscriber.error(new AgentError("REPLAY_UNAVAILABLE", `Run ${JSON.stringify(loggedId(this.runId))} ${reason}; it can only be followed by the client that started it.`));
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
      return this.#follow(subscriber);
    });
  }
}
