import { type AbstractAgent, type BaseEvent, defaultApplyEvents, type Interrupt, type Message, type RunAgentInput, type State } from "@ag-ui/client";
import { Observable, type Subscriber } from "rxjs";
import { approximateSize } from "./approximate-size.js";
import { coalesceDeltas } from "./coalesced-deltas.js";

/** Why a transcript lacks messages it once had. */
export type TranscriptOmission = "thread_limit" | "evicted";

/** The thread as a client that saw every run would hold it, within the transcript's bounds. */
export interface TranscriptView {
  /** The newest messages of the thread that fit the transcript's bounds, oldest first. */
  readonly messages: Message[];
  /** The thread's state; undefined when it was dropped (it alone outgrew the bounds, or evicted). */
  readonly state: State | undefined;
  /** The interrupts the last run ended on, unanswered. */
  readonly interrupts: Interrupt[];
  /** How many older messages are no longer held, and why; undefined when the transcript is whole. */
  readonly omitted: { readonly messages: number; readonly reason: TranscriptOmission } | undefined;
}

export interface ThreadTranscriptOptions {
  /** Characters the transcript keeps (messages and state): the oldest messages go first. */
  maxBytes: number;
  /** Hears every change of the characters held, so the owner can bound the sum over threads. */
  onResize(deltaBytes: number): void;
}

const EMPTY_VIEW: TranscriptView = { messages: [], state: {}, interrupts: [], omitted: undefined };

/**
 * The thread's transcript as the agent knows it, kept by `@ag-ui/client`'s own reducer
 * (`defaultApplyEvents`) applied to each run's events, starting from that run's input. So a
 * snapshot sent on `connect` is what a client that never disconnected would hold, by construction.
 * Bounded: past `maxBytes` the oldest messages are dropped (the view says how many), and `evict`
 * drops everything but the pending interrupts. Text lives only here, in memory: the thread store
 * keeps digests.
 */
export class ThreadTranscript {
  readonly #options: ThreadTranscriptOptions;
  #view: TranscriptView = EMPTY_VIEW;
  #sizeBytes = 0;
  #settled: Promise<void> = Promise.resolve();
  #known = false;
  #closed = false;

  constructor(options: ThreadTranscriptOptions) {
    this.#options = options;
  }

  /** Whether any run of the thread was seen (only then does a snapshot say something). */
  get known(): boolean {
    return this.#known;
  }

  get view(): TranscriptView {
    return this.#view;
  }

  get sizeBytes(): number {
    return this.#sizeBytes;
  }

  /** Resolves once every run given to `follow` so far has been applied. */
  settled(): Promise<void> {
    return this.#settled;
  }

  /**
   * Applies one run's events as they come; `onError` hears of events the reducer refused. A run the
   * server started begins from this transcript's own messages, so what was omitted stays omitted.
   */
  follow(input: RunAgentInput, events: Observable<BaseEvent>, options: { serverInitiated: boolean; onError(error: unknown): void }): void {
    this.#known = true;
    // Subscribed now: the previous run may still be being applied, and this run's events are live.
    const held = heldUntilSubscribed(events);
    const previous = this.#settled;
    this.#settled = (async () => {
      await previous;
      const carried = options.serverInitiated ? this.#view.omitted : undefined;
      // A server-started run began from `{}` when the thread's state was dropped: what it ends with is not the thread's state either.
      const stateLost = options.serverInitiated && this.#view.state === undefined;
      // The reducer reads the starting messages and writes pending interrupts on the agent it is
      // given; this stand-in is all of an agent it touches. The reducer copies what it changes, so
      // the input is read, never written.
      const mirror = { messages: input.messages, pendingInterrupts: [] as Interrupt[] };
      let messages = mirror.messages;
      let state: State = input.state ?? {};
      await new Promise<void>((resolve) => {
        defaultApplyEvents(input, coalesceDeltas(held), mirror as unknown as AbstractAgent, []).subscribe({
          next: (mutation) => {
            if (mutation.messages !== undefined) messages = mutation.messages;
            if (mutation.state !== undefined) state = mutation.state;
          },
          error: (error: unknown) => {
            options.onError(error);
            resolve();
          },
          complete: resolve,
        });
      });
      this.#adopt(messages, stateLost ? undefined : state, mirror.pendingInterrupts, carried);
    })();
  }

  /** Drops the messages and state (the agent needs the room); pending interrupts stay. */
  evict(): void {
    const view = this.#view;
    if (view.messages.length === 0 && view.state === undefined) return;
    const omitted = (view.omitted?.messages ?? 0) + view.messages.length;
    this.#set({ messages: [], state: undefined, interrupts: view.interrupts, omitted: { messages: omitted, reason: "evicted" } }, approximateSize(view.interrupts));
  }

  /** Forgets the transcript for good (its thread's channel closed): the characters it held are given back. */
  close(): void {
    this.#set(EMPTY_VIEW, 0);
    this.#closed = true;
  }

  /** Keeps the newest messages (and the state) that fit `maxBytes`. */
  #adopt(messages: Message[], state: State | undefined, interrupts: Interrupt[], carried: TranscriptView["omitted"]): void {
    const sizes = messages.map((message) => approximateSize(message));
    const interruptsSize = approximateSize(interrupts);
    let stateSize = state === undefined ? 0 : approximateSize(state);
    let total = sizes.reduce((sum, size) => sum + size, interruptsSize + stateSize);
    let dropped = 0;
    while (total > this.#options.maxBytes && dropped < messages.length) {
      total -= sizes[dropped] ?? 0;
      dropped += 1;
    }
    let keptState: State | undefined = state;
    if (total > this.#options.maxBytes) {
      total -= stateSize;
      stateSize = 0;
      keptState = undefined;
    }
    const omitted = (carried?.messages ?? 0) + dropped;
    this.#set(
      {
        messages: dropped === 0 ? messages : messages.slice(dropped),
        state: keptState,
        interrupts,
        omitted: omitted === 0 && keptState !== undefined ? undefined : { messages: omitted, reason: carried?.reason ?? "thread_limit" },
      },
      total,
    );
  }

  #set(view: TranscriptView, sizeBytes: number): void {
    if (this.#closed) return;
    this.#view = view;
    const delta = sizeBytes - this.#sizeBytes;
    this.#sizeBytes = sizeBytes;
    if (delta !== 0) this.#options.onResize(delta);
  }
}

/**
 * Subscribes to a live stream at once and holds what it emits until the one subscriber arrives,
 * then hands over: nothing is missed, and nothing is held once delivered.
 */
function heldUntilSubscribed<T>(source: Observable<T>): Observable<T> {
  const held: Array<(subscriber: Subscriber<T>) => void> = [];
  let target: Subscriber<T> | undefined;
  const deliver = (notify: (subscriber: Subscriber<T>) => void): void => {
    if (target === undefined) held.push(notify);
    else notify(target);
  };
  source.subscribe({
    next: (value) => deliver((subscriber) => subscriber.next(value)),
    error: (error: unknown) => deliver((subscriber) => subscriber.error(error)),
    complete: () => deliver((subscriber) => subscriber.complete()),
  });
  return new Observable<T>((subscriber) => {
    for (const notify of held.splice(0)) notify(subscriber);
    target = subscriber;
  });
}
