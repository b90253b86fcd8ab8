import type { BaseEvent } from "@ag-ui/core";
import type { EventEncoder } from "@ag-ui/encoder";

/**
 * What `encoder.encodeSSE(event)` returns, without its walk over the event when that walk could
 * change nothing. @ag-ui/encoder drops optional `null` fields before it serialises, and to find
 * them it copies its way through the whole event: for RUN_STARTED that is the run's input, the
 * thread's whole message history, on every turn. An event whose JSON holds no `null` has no such
 * field, so its JSON is already what the encoder would write; any other event (or a `null` inside
 * a string) takes the encoder's own path.
 */
export function encodeSseEvent(encoder: EventEncoder, event: BaseEvent): string {
  const json = JSON.stringify(event);
  return json.includes("null") ? encoder.encodeSSE(event) : `data: ${json}\n\n`;
}
