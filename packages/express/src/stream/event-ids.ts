import { EventType, type BaseEvent, type RunStartedEvent } from "@ag-ui/core";

/** Where a client's stream broke off: the run and the position of the last event it received. */
export interface EventCursor {
  readonly runId: string;
  readonly index: number;
  /** The event was the run's terminal one (its id ends `:end`): the client saw the whole run. */
  readonly ended: boolean;
}

/** The suffix of a run's terminal event's id: a client that got it has nothing of that run to resume. */
const TERMINAL_SUFFIX = ":end";

/** Longest accepted `Last-Event-ID`; an id this binding writes is a run id, a colon and a number. */
const MAX_EVENT_ID_LENGTH = 512;

/** Parses an SSE event id this binding wrote (`<runId>:<index>`); undefined when it is not one. */
export function parseEventCursor(value: string): EventCursor | undefined {
  if (value.length === 0 || value.length > MAX_EVENT_ID_LENGTH) return undefined;
  const ended = value.endsWith(TERMINAL_SUFFIX);
  const id = ended ? value.slice(0, -TERMINAL_SUFFIX.length) : value;
  const colon = id.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const digits = id.slice(colon + 1);
  if (!/^\d{1,9}$/.test(digits)) return undefined;
  return { runId: id.slice(0, colon), index: Number(digits), ended };
}

/**
 * Numbers the events of a stream for SSE `id:` lines: `<runId>:<n>`, n counting from the run's
 * RUN_STARTED (0), and `<runId>:<n>:end` for its terminal event. The numbering depends only on the run's own event sequence, which an agent's
 * `connect` replays from the start; so a client that comes back with `Last-Event-ID` is sent only
 * the events after it, and no event twice. Events outside a run (a refusal) get no id.
 */
export class EventIdSequence {
  readonly #resumeAfter: EventCursor | undefined;
  #runId: string | undefined;
  #index = 0;

  constructor(resumeAfter?: EventCursor) {
    this.#resumeAfter = resumeAfter;
  }

  /** The event's id, and whether the client already has the event (it should not be sent again). */
  next(event: BaseEvent): { id: string | undefined; alreadySeen: boolean } {
    if (event.type === EventType.RUN_STARTED) {
      this.#runId = (event as RunStartedEvent).runId;
      this.#index = 0;
    } else if (this.#runId !== undefined) {
      this.#index += 1;
    }
    const runId = this.#runId;
    if (runId === undefined) return { id: undefined, alreadySeen: false };
    const resumeAfter = this.#resumeAfter;
    const alreadySeen = resumeAfter !== undefined && resumeAfter.runId === runId && this.#index <= resumeAfter.index;
    const terminal = event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
    const id = terminal ? `${runId}:${this.#index}${TERMINAL_SUFFIX}` : `${runId}:${this.#index}`;
    if (terminal) this.#runId = undefined;
    return { id, alreadySeen };
  }
}
