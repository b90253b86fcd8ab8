import type { AnswerPlan } from "../answers/match-answers.js";
import type { AbandonCause, InterruptAnswer } from "../interrupts/interrupt-answer.js";
import type { ParkedInterrupt, ParkedItem } from "../parking/parked-item.js";
import type { ParkingLot } from "../parking/parking-lot.js";
import type { RunStart } from "./hitl-run.js";

/** What a `ParkingDesk` works with; the bridge owns each of them. */
export interface ParkingDeskOptions {
  /** The thread's parked items. */
  lot: ParkingLot;
  /** The bridge's signal: once aborted, nothing parks any more. */
  signal: AbortSignal;
  now: () => number;
  /** How long a parked request waits before it is released as abandoned. */
  parkTimeoutMs: number;
}

/** When a request parked now is released unanswered, as milliseconds and as the interrupt's `expiresAt`. */
export interface Deadline {
  expiresAtMs: number;
  expiresAt: string;
}

/**
 * How a request waits on the client and how it stops waiting: parking a promise in the lot (with its
 * deadline, and released when the harness aborts the handler's signal), settling what a run's
 * answers resolve, and releasing what nobody will answer. The one primitive every human request
 * (frontend tool, question, approval, server-tool interrupt) goes through, so it is written once,
 * apart from what each kind tells the client. It keeps no state: the lot holds what is parked.
 */
export class ParkingDesk {
  readonly #options: ParkingDeskOptions;

  constructor(options: ParkingDeskOptions) {
    this.#options = options;
  }

  /** The deadline of a request parked now. */
  deadline(): Deadline {
    const expiresAtMs = this.#options.now() + this.#options.parkTimeoutMs;
    return { expiresAtMs, expiresAt: new Date(expiresAtMs).toISOString() };
  }

  /** Parks an interrupt until a run answers it, it expires, `signal` aborts or the bridge closes. */
  park(item: Omit<ParkedInterrupt, "settle" | "fail" | "expiresAtMs">, expiresAtMs: number, signal: AbortSignal | undefined): Promise<InterruptAnswer> {
    return this.parkWith<InterruptAnswer>((settle, fail) => ({ ...item, expiresAtMs, settle, fail }), signal);
  }

  /** Parks the item `build` makes around the promise's settle and fail, with the same releases as `park`. */
  parkWith<T>(build: (settle: (value: T) => void, fail: (error: unknown) => void) => ParkedItem, signal: AbortSignal | undefined): Promise<T> {
    const { lot, signal: closing } = this.#options;
    if (closing.aborted) return Promise.reject(closing.reason);
    return new Promise<T>((resolve, reject) => {
      const item = build(
        (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
      // The harness aborts a handler's signal when the conversation closes or the turn is cancelled.
      const onAbort = (): void => {
        if (lot.take(item.id, "abandoned") !== undefined) item.fail(signal?.reason);
      };
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      lot.park(item);
    });
  }

  /** Settles what a run's answers resolve (all of them are taken from the lot first), for the run's `RunStart`. */
  settle(plan: AnswerPlan): Omit<RunStart, "continuesTurn"> {
    const lot = this.#options.lot;
    for (const { item } of plan.interrupts) lot.take(item.id);
    for (const { item } of plan.frontendTools) lot.take(item.id);
    for (const { item, answer } of plan.interrupts) item.settle(answer);
    for (const { item, outcome } of plan.frontendTools) item.settle(outcome);
    return {
      resolvedInterruptIds: plan.interrupts.map(({ item }) => item.id),
      resolvedToolCallIds: plan.frontendTools.map(({ item }) => item.id),
      abandonedIds: [],
      ignored: plan.ignored,
    };
  }

  /** Releases everything parked as abandoned for `cause`; returns their ids. */
  abandonAll(cause: AbandonCause): string[] {
    const lot = this.#options.lot;
    const items: ParkedItem[] = [...lot.interrupts(), ...lot.frontendTools()];
    for (const item of items) lot.take(item.id, "abandoned");
    for (const item of items) releaseParked(item, cause);
    return items.map((item) => item.id);
  }
}

/** Settles an item that left the lot unanswered: the caller's promise resolves as abandoned for `cause`. */
export function releaseParked(item: ParkedItem, cause: AbandonCause): void {
  if (item.kind === "frontend-tool") item.settle({ type: "abandoned", cause });
  else item.settle({ status: "abandoned", cause });
}
