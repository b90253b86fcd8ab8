import type { BaseEvent } from "@ag-ui/core";
import type { EventEncoder } from "@ag-ui/encoder";

/**
 * One SSE event as this binding writes it: an `id:` line when `id` is given (left out when it could
 * break the line), then what `encoder.encodeSSE(event)` returns, without its walk over the event
 * when that walk could change nothing. @ag-ui/encoder drops optional `null` fields before it
 * serialises, and to find them it copies its way through the whole event: for RUN_STARTED that is
 * the run's input, the thread's whole message history, on every turn. An event whose JSON holds no
 * `null` has no such field, so its JSON is already what the encoder would write; any other event
 * (or a `null` inside a string, or in the id) takes the encoder's own path.
 *
 * The whole chunk is built before it is searched: V8 hands JSON.stringify's result over in pieces,
 * and searching it flattens it into one string; searched whole, the one flattening is the one the
 * socket write would make anyway, instead of a copy of the JSON and then another of the chunk.
 */
export function encodeSseEvent(encoder: EventEncoder, event: BaseEvent, id?: string): string {
  const idLine = id === undefined || /[\r\n\0]/.test(id) ? "" : `id: ${id}\n`;
  const chunk = `${idLine}data: ${JSON.stringify(event)}\n\n`;
  return chunk.includes("null") ? `${idLine}${encoder.encodeSSE(event)}` : chunk;
}
