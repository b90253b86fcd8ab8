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
  const idLine = sseIdLine(id);
  const chunk = `${idLine}data: ${JSON.stringify(event)}\n\n`;
  return chunk.includes("null") ? `${idLine}${encoder.encodeSSE(event)}` : chunk;
}

/**
 * `encodeSseEvent` for an event whose `input` field is already JSON text (the request's own, see
 * run/input-echo.ts): the rest of the event is serialised and the text put in as is. Text of one
 * line with no `null` is the caller's to ensure; the rest of the event holding a `null` takes
 * `encodeSseEvent`'s path whole.
 */
export function encodeSseEventWithInputText(encoder: EventEncoder, event: BaseEvent, inputText: string, id?: string): string {
  const { input: _input, ...rest } = event as BaseEvent & { input?: unknown };
  const head = JSON.stringify(rest);
  if (head.includes("null")) return encodeSseEvent(encoder, event, id);
  return `${sseIdLine(id)}data: ${head.slice(0, -1)},"input":${inputText}}\n\n`;
}

function sseIdLine(id: string | undefined): string {
  return id === undefined || /[\r\n\0]/.test(id) ? "" : `id: ${id}\n`;
}
