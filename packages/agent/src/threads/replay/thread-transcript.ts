import { type AbstractAgent, type BaseEvent, defaultApplyEvents, EventType, type Interrupt, type Message, type RunAgentInput, type State } from "@ag-ui/client";
import { Observable, type Subscriber, type Subscription } from "rxjs";
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

/** Events of a run held back before it is applied; past it, the run is applied as it streams. */
const MAX_HELD_EVENTS = 1_000;

/** A run followed but not applied yet: its input, and its events (deltas joined) as they came. */
interface HeldRun {
  readonly input: RunAgentInput;
  readonly serverInitiated: boolean;
  readonly onError: (error: unknown) => void;
  readonly events: BaseEvent[];
  subscription: Subscription | undefined;
  /** How the events ended; undefined while they flow. */
  end: { readonly error: unknown } | "complete" | undefined;
  /** Queued to be applied: no longer superseded by a later run. */
  applying: boolean;
  /** The reducer, once it reads the run: later events go straight to it. */
  reader: Subscriber<BaseEvent> | undefined;
  /** Characters the held run was counted for (see `#hold`). */
  heldBytes: number;
  /** The transcript was evicted while the run was held: its outcome is evicted too once applied. */
  evicted: boolean;
}

/**
 * The thread's transcript as the agent knows it, kept by `@ag-ui/client`'s own reducer
 * (`defaultApplyEvents`) applied to each run's events, starting from that run's input. So a
 * snapshot sent on `connect` is what a client that never disconnected would hold, by construction.
 * Bounded: past `maxBytes` the oldest messages are dropped (the view says how many), and `evict`
 * drops everything but the pending interrupts. Text lives only here, in memory: the thread store
 * keeps digests.
 *
 * Applied when read, not per run: the reducer copies the whole message list after every event it
 * applies, and a client's run starts from the client's whole history, so a client run that follows
 * supersedes what the previous run would have produced. The latest run is held (its events, deltas
 * joined; counted against the bounds) until `settled()` asks for the transcript, a run the server
 * starts needs it as its base, or it is too large to hold; a run superseded first is never applied.
 */
export class ThreadTranscript {
  readonly #options: ThreadTranscriptOptions;
  #view: TranscriptView = EMPTY_VIEW;
  #viewBytes = 0;
  #heldBytes = 0;
  #held: HeldRun | undefined;
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

  /** The transcript as of the last `settled()`: read it after awaiting that. */
  get view(): TranscriptView {
    return this.#view;
  }

  /** Characters held: the view, and the run held back to be applied. */
  get sizeBytes(): number {
    return this.#viewBytes + this.#heldBytes;
  }

  /** Resolves once every run given to `follow` so far has been applied (a run in flight: once it ended). */
  settled(): Promise<void> {
    if (this.#held !== undefined) this.#apply(this.#held);
    return this.#settled;
  }

  /**
   * Follows one run's events as they come; `onError` hears of events the reducer refused. A run the
   * server started begins from this transcript's own messages, so what was omitted stays omitted.
   */
  follow(input: RunAgentInput, events: Observable<BaseEvent>, options: { serverInitiated: boolean; onError(error: unknown): void }): void {
    if (this.#closed) return;
    this.#known = true;
    const previous = this.#held;
    if (previous !== undefined) {
      // A server-started run begins from this transcript; a client's run from its client's whole history.
      if (options.serverInitiated) this.#apply(previous);
      else this.#drop(previous);
    }
    const run: HeldRun = {
      input,
      serverInitiated: options.serverInitiated,
      onError: options.onError,
      events: [],
      subscription: undefined,
      end: undefined,
      applying: false,
      reader: undefined,
      heldBytes: 0,
      evicted: false,
    };
    this.#held = run;
    // Subscribed now: this run's events are live.
    run.subscription = coalesceDeltas(events).subscribe({
      next: (event) => {
        if (run.reader !== undefined) return run.reader.next(event);
        run.events.push(event);
        if (!run.applying && run.events.length > MAX_HELD_EVENTS) this.#apply(run);
      },
      error: (error: unknown) => {
        if (run.reader !== undefined) return run.reader.error(error);
        run.end = { error };
        this.#hold(run);
      },
      complete: () => {
        if (run.reader !== undefined) return run.reader.complete();
        run.end = "complete";
        this.#hold(run);
      },
    });
  }

  /**
   * Starts from a transcript the thread store kept (the thread's before this process): `connect`
   * after a restart gets the thread back. Only a transcript that knows nothing yet is seeded; the
   * runs that follow build on it as on any other.
   */
  seed(stored: { messages: Message[]; state?: State; omittedMessages: number }): void {
    if (this.#closed || this.#known) return;
    this.#known = true;
    const omitted = stored.omittedMessages > 0 ? { messages: stored.omittedMessages, reason: "thread_limit" as const } : undefined;
    this.#adopt(stored.messages, stored.state, [], omitted);
  }

  /** Drops the messages and state (the agent needs the room); pending interrupts stay. */
  evict(): void {
    const held = this.#held;
    if (held !== undefined) {
      // Its outcome is evicted once applied; applied now, so what it holds is let go at once.
      held.evicted = true;
      this.#releaseHeld(held);
      this.#apply(held);
    }
    const view = this.#view;
    if (view.messages.length === 0 && view.state === undefined) return;
    const omitted = (view.omitted?.messages ?? 0) + view.messages.length;
    this.#set({ messages: [], state: undefined, interrupts: view.interrupts, omitted: { messages: omitted, reason: "evicted" } }, approximateSize(view.interrupts));
  }

  /** Forgets the transcript for good (its thread's channel closed): the characters it held are given back. */
  close(): void {
    if (this.#held !== undefined) this.#drop(this.#held);
    this.#view = EMPTY_VIEW;
    // Runs still being applied count for nothing from now on.
    this.#resize(-this.#viewBytes, -this.#heldBytes);
    this.#closed = true;
  }

  /** A run's events ended before it was applied: it is held, counted against the bounds, unless it alone outgrows them. */
  #hold(run: HeldRun): void {
    if (this.#held !== run || run.applying) return;
    // Sized one by one: a message or an event is most often a flat object, sized without a walk.
    // Indexed loops: this runs once per run, too rarely to be optimised, and an array iterator there
    // allocates a result object per message of the thread's whole history.
    let size = approximateSize(run.input.state ?? {});
    const messages = run.input.messages;
    for (let index = 0; index < messages.length; index += 1) size += approximateSize(messages[index]);
    const events = run.events;
    for (let index = 0; index < events.length; index += 1) {
      const event = events[index]!;
      if (event.type !== EventType.RUN_STARTED) size += approximateSize(event);
    }
    if (size > this.#options.maxBytes) {
      this.#apply(run);
      return;
    }
    run.heldBytes = size;
    this.#resize(0, size);
  }

  /** A held run that a client's run superseded: never applied. */
  #drop(run: HeldRun): void {
    if (this.#held === run) this.#held = undefined;
    run.subscription?.unsubscribe();
    run.events.length = 0;
    this.#releaseHeld(run);
  }

  #releaseHeld(run: HeldRun): void {
    if (run.heldBytes === 0) return;
    const released = run.heldBytes;
    run.heldBytes = 0;
    this.#resize(0, -released);
  }

  /** Queues the run to be applied after the runs queued before it. */
  #apply(run: HeldRun): void {
    if (run.applying) return;
    run.applying = true;
    if (this.#held === run) this.#held = undefined;
    const previous = this.#settled;
    this.#settled = (async () => {
      await previous;
      const carried = run.serverInitiated ? this.#view.omitted : undefined;
      // A server-started run began from `{}` when the thread's state was dropped: what it ends with is not the thread's state either.
      const stateLost = run.serverInitiated && this.#view.state === undefined;
      // The reducer reads the starting messages and writes pending interrupts on the agent it is
      // given; this stand-in is all of an agent it touches. The reducer copies what it changes, so
      // the input is read, never written.
      const mirror = { messages: run.input.messages, pendingInterrupts: [] as Interrupt[] };
      let messages = mirror.messages;
      let state: State = run.input.state ?? {};
      const source = new Observable<BaseEvent>((subscriber) => {
        for (const event of run.events.splice(0)) subscriber.next(event);
        if (run.end === "complete") subscriber.complete();
        else if (run.end !== undefined) subscriber.error(run.end.error);
        else run.reader = subscriber;
      });
      await new Promise<void>((resolve) => {
        defaultApplyEvents(run.input, source, mirror as unknown as AbstractAgent, []).subscribe({
          next: (mutation) => {
            if (mutation.messages !== undefined) messages = mutation.messages;
            if (mutation.state !== undefined) state = mutation.state;
          },
          error: (error: unknown) => {
            run.onError(error);
            resolve();
          },
          complete: resolve,
        });
      });
      this.#releaseHeld(run);
      if (run.evicted) {
        const omitted = (carried?.messages ?? 0) + messages.length;
        this.#set({ messages: [], state: undefined, interrupts: mirror.pendingInterrupts, omitted: { messages: omitted, reason: "evicted" } }, approximateSize(mirror.pendingInterrupts));
        return;
      }
      this.#adopt(messages, stateLost ? undefined : state, mirror.pendingInterrupts, carried);
    })();
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
    this.#resize(sizeBytes - this.#viewBytes, 0);
  }

  /** Changes the characters counted (the view's, the held run's) and tells the owner. */
  #resize(viewDelta: number, heldDelta: number): void {
    if (this.#closed) return;
    this.#viewBytes += viewDelta;
    this.#heldBytes += heldDelta;
    const delta = viewDelta + heldDelta;
    if (delta !== 0) this.#options.onResize(delta);
  }
}

