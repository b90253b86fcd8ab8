import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One SSE message: its `data`, and its `id` when the server gave one. */
export type SseMessage = Pick<EventSourceMessage, "data" | "id">;

/**
 * Reads an SSE response body message by message, ids included (`@ag-ui/client`'s own SSE parser
 * drops them, and resuming needs them). Stops when the body ends or `signal` aborts.
 */
export async function readSseMessages(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void, signal: AbortSignal): Promise<void> {
  const parser = createParser({ onEvent: (message) => onMessage({ data: message.data, id: message.id }) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}
