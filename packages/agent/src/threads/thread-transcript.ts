import { type AbstractAgent, defaultApplyEvents } from "@ag-ui/client";
import type { BaseEvent, Interrupt, Message, RunAgentInput, State } from "@ag-ui/core";
import type { Observable } from "rxjs";

/** The thread as a client that saw every run would hold it. */
export interface TranscriptView {
  readonly messages: Message[];
  readonly state: State;
  /** The interrupts the last run ended on, unanswered. */
  readonly interrupts: Interrupt[];
}

/**
 * The thread's transcript as the agent knows it, kept by `@ag-ui/client`'s own reducer
 * (`defaultApplyEvents`) applied to each run's events, starting from that run's input. So a
 * snapshot sent on `connect` is what a client that never disconnected would hold, by construction.
 */
export class ThreadTranscript {
  #view: TranscriptView = { messages: [], state: {}, interrupts: [] };
  #settled: Promise<void> = Promise.resolve();
  #known = false;

  /** Whether any run of the thread was seen (only then does a snapshot say something). */
  get known(): boolean {
    return this.#known;
  }

  get view(): TranscriptView {
    return this.#view;
  }

  /** Resolves once every run given to `follow` so far has been applied. */
  settled(): Promise<void> {
    return this.#settled;
  }

  /** Applies one run's events as they come; `onError` hears of events the reducer refused. */
  follow(input: RunAgentInput, events: Observable<BaseEvent>, onError: (error: unknown) => void): void {
    this.#known = true;
    const previous = this.#settled;
    this.#settled = (async () => {
      await previous;
      // The reducer reads the starting messages and writes pending interrupts on the agent it is
      // given; this stand-in is all of an agent it touches.
      const mirror = { messages: structuredClone(input.messages), pendingInterrupts: [] as Interrupt[] };
      let messages = mirror.messages;
      let state: State = structuredClone(input.state ?? {});
      await new Promise<void>((resolve) => {
        defaultApplyEvents(input, events, mirror as unknown as AbstractAgent, []).subscribe({
          next: (mutation) => {
            if (mutation.messages !== undefined) messages = mutation.messages;
            if (mutation.state !== undefined) state = mutation.state;
          },
          error: (error: unknown) => {
            onError(error);
            resolve();
          },
          complete: resolve,
        });
      });
      this.#view = { messages, state, interrupts: mirror.pendingInterrupts };
    })();
  }
}
