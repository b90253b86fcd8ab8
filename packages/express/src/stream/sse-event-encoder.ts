import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";

/**
 * Turns one AG-UI event into one SSE event, the text this binding writes for it. The one way an
 * event becomes SSE text in this package: whatever writes a stream encodes through it.
 */
export interface SseEventEncoder {
  /**
   * `event` as an SSE event: an `id:` line when `id` is given (left out when it could break the
   * line), then a `data:` line holding what `@ag-ui/encoder` writes for the event, then a blank line.
   * Throws what `JSON.stringify` throws (a BigInt, a cycle).
   */
  encode(event: BaseEvent, id?: string): string;
}

/**
 * The SSE encoder: byte for byte what `encoder.encodeSSE(event)` writes, without its walk over the
 * event when that walk can change nothing. @ag-ui/encoder drops optional `null` fields before it
 * serialises, and to find them it walks the event's known fields, RUN_STARTED's input and the
 * thread's whole message history among them, on every turn. An event whose JSON holds no `null`
 * has no such field, so its JSON is already what the encoder would write; any other event (a
 * `null` inside a string included) takes the encoder's own path. stream/sse-event-encoder.test.ts
 * checks the two against each other over generated events of every type.
 *
 * The whole chunk is built before it is searched: V8 hands JSON.stringify's result over in pieces,
 * and searching it flattens it into one string; searched whole, the one flattening is the one the
 * socket write would make anyway.
 */
export function createSseEventEncoder(encoder: EventEncoder = new EventEncoder()): SseEventEncoder {
  return {
    encode(event, id) {
      const idLine = sseIdLine(id);
      const chunk = `${idLine}data: ${JSON.stringify(event)}\n\n`;
      return chunk.includes("null") ? `${idLine}${encoder.encodeSSE(event)}` : chunk;
    },
  };
}

/** An SSE `id:` line, or nothing for an id a line break or NUL would cut short (the SSE parser would read another field). */
function sseIdLine(id: string | undefined): string {
  return id === undefined || /[\r\n\0]/.test(id) ? "" : `id: ${id}\n`;
}
