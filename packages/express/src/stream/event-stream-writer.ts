import type { BaseEvent } from "@ag-ui/core";
import type { EventEncoder } from "@ag-ui/encoder";
import type { Response } from "express";
import { createSseEventEncoder, type SseEventEncoder } from "./sse-event-encoder.js";
import { startEventStreamResponse } from "./sse-headers.js";
import { waitForDrain } from "./wait-for-drain.js";

/** An SSE comment: clients and the AG-UI parser skip it, proxies see traffic on an idle stream. */
export const KEEP_ALIVE_COMMENT = ": keep-alive\n\n";

const SSE_CONTENT_TYPE = "text/event-stream";
/** Queued size past which a tick's events are written before the tick ends. */
const FLUSH_WITHIN_TICK_BYTES = 64 * 1024;

export interface EventStreamWriterOptions {
  /** Idle time after which a keep-alive comment is written; 0 turns keep-alives off. SSE only. */
  keepAliveIntervalMs: number;
  /** Encoded bytes the writer may hold for a slow reader before it gives up on the response. */
  maxBufferedBytes: number;
}

export type EnqueueResult = "queued" | "overflow" | "closed";

/**
 * Writes encoded events to one response in order. The events of one tick (a harness read and the
 * promise jobs it sets off) are joined and written as one chunk once that tick's microtasks are
 * over, before the event loop turns to I/O again: a burst costs one socket write, and an echo turn's
 * TEXT_MESSAGE_START goes out with what follows it rather than alone. Whenever `write` says the
 * socket buffer is full, it waits for 'drain'; the agent's observable cannot be paused, so events
 * wait in a bounded buffer meanwhile. Owns the keep-alive timer and the end-of-tick flush, and clears
 * both on end/abort.
 */
export class EventStreamWriter {
  readonly #response: Response;
  readonly #encoder: EventEncoder;
  readonly #sse: SseEventEncoder;
  readonly #options: EventStreamWriterOptions;
  readonly #binary: boolean;
  // Events waiting for the end of the tick or for 'drain': SSE text is joined as it comes; binary
  // frames are kept apart and concatenated at the flush.
  #pendingText = "";
  readonly #pendingBinary: Uint8Array[] = [];
  // While a drain is awaited, the exact encoded bytes waiting (what `maxBufferedBytes` bounds). While
  // none is, only the 64 KiB flush reads it, and a text chunk counts by its length: sizing each event
  // in bytes would flatten its string once more before the write flattens the joined chunk.
  // Whichever way it counts, it is 0 whenever `#draining` flips (the queue was just taken).
  #queuedBytes = 0;
  #started = false;
  #closed = false;
  // `#draining` flips synchronously, so an event queued right after a write that filled the buffer
  // waits in the buffer instead of writing past the backpressure.
  #draining = false;
  #drained: Promise<void> = Promise.resolve();
  #keepAliveTimer: NodeJS.Timeout | undefined;
  #flushScheduled = false;
  // A microtask, then a tick: a tick queued from a microtask runs only once the microtask queue is
  // empty, so the flush follows every promise job of this turn of the event loop (a tick queued
  // directly from a synchronous callback would run before that callback's promise jobs), and still
  // precedes the next I/O, so an event never waits for the next read or timer.
  readonly #flushAfterMicrotasks = (): void => {
    process.nextTick(this.#flushAtEndOfTick);
  };
  readonly #flushAtEndOfTick = (): void => {
    if (!this.#flushScheduled) return;
    this.#flushScheduled = false;
    if (!this.#draining) this.#flushPending();
  };

  constructor(response: Response, encoder: EventEncoder, options: EventStreamWriterOptions) {
    this.#response = response;
    this.#encoder = encoder;
    this.#sse = createSseEventEncoder(encoder);
    this.#options = options;
    this.#binary = encoder.getContentType() !== SSE_CONTENT_TYPE;
  }

  get started(): boolean {
    return this.#started;
  }

  /**
   * Sends the stream's headers and arms the keep-alive timer. Idempotent. With `firstEventFollows`
   * (an event is enqueued right after, in the same tick), the headers wait for it and go out in its write.
   */
  start(options: { firstEventFollows?: boolean } = {}): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    startEventStreamResponse(this.#response, this.#encoder.getContentType(), options);
    // Protobuf framing has no comment syntax, so a binary stream gets no keep-alives.
    if (!this.#binary && this.#options.keepAliveIntervalMs > 0) {
      this.#keepAliveTimer = setTimeout(() => this.#writeKeepAlive(), this.#options.keepAliveIntervalMs);
      this.#keepAliveTimer.unref();
    }
  }

  /**
   * Encodes and queues one event, with an SSE `id:` line when `id` is given (SSE only; an id that
   * could break the line is left out). Throws what the encoder throws (an event the chosen
   * transport cannot carry), so the caller can end the run with a RUN_ERROR it can carry.
   */
  enqueue(event: BaseEvent, id?: string): EnqueueResult {
    if (this.#closed) return "closed";
    const chunk = this.#binary ? this.#encoder.encodeBinary(event) : this.#sse.encode(event, id);
    if (this.#draining) {
      const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      // An event is taken when nothing else waits, however large (RUN_STARTED carries the thread's whole history).
      if (this.#queuedBytes > 0 && this.#queuedBytes + size > this.#options.maxBufferedBytes) return "overflow";
      this.#queue(chunk, size);
      return "queued";
    }
    this.#queue(chunk, chunk.length);
    // A tick that produces a lot is written as it goes, so the socket's backpressure still bounds it.
    if (this.#queuedBytes >= FLUSH_WITHIN_TICK_BYTES) this.#flushPending();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      queueMicrotask(this.#flushAfterMicrotasks);
    }
    return "queued";
  }

  /** Writes what is queued, then ends the response: the last chunk goes with the end, in one call. */
  async end(): Promise<void> {
    this.#cancelEndOfTick();
    while (this.#draining) await this.#drained;
    this.#stopKeepAlive();
    if (this.#closed) return;
    this.#closed = true;
    if (this.#response.writableEnded) return;
    const last = this.#response.destroyed ? undefined : this.#takePending();
    if (last === undefined) this.#response.end();
    else this.#response.end(last);
  }

  /** Drops what is queued and stops writing; used when the client has gone. */
  abort(): void {
    this.#closed = true;
    this.#takePending();
    this.#cancelEndOfTick();
    this.#stopKeepAlive();
  }

  #queue(chunk: string | Uint8Array, size: number): void {
    if (typeof chunk === "string") this.#pendingText += chunk;
    else this.#pendingBinary.push(chunk);
    this.#queuedBytes += size;
  }

  /** What waits in the buffer, as one chunk (undefined when nothing does); the buffer is emptied. */
  #takePending(): string | Uint8Array | undefined {
    this.#queuedBytes = 0;
    if (this.#binary) {
      if (this.#pendingBinary.length === 0) return undefined;
      const chunks = this.#pendingBinary.splice(0);
      return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    }
    if (this.#pendingText === "") return undefined;
    const text = this.#pendingText;
    this.#pendingText = "";
    return text;
  }

  #flushPending(): void {
    if (this.#closed) return;
    const chunk = this.#takePending();
    if (chunk !== undefined) this.#write(chunk);
  }

  #write(chunk: string | Uint8Array): void {
    if (this.#response.destroyed) {
      this.abort();
      return;
    }
    this.#keepAliveTimer?.refresh();
    if (!this.#response.write(chunk)) {
      this.#draining = true;
      this.#drained = this.#drainThenFlush();
    }
  }

  /** After a write that filled the socket buffer: waits for 'drain', writes what queued meanwhile, and again. */
  async #drainThenFlush(): Promise<void> {
    try {
      let full = true;
      while (full && !this.#closed) {
        await waitForDrain(this.#response);
        if (this.#response.destroyed) {
          this.abort();
          return;
        }
        const chunk = this.#takePending();
        if (chunk === undefined) return;
        this.#keepAliveTimer?.refresh();
        full = !this.#response.write(chunk);
      }
    } finally {
      this.#draining = false;
    }
  }

  #writeKeepAlive(): void {
    if (this.#closed) return;
    // While events are queued or a drain is awaited, the stream is not idle: skip this beat.
    if (!this.#draining && this.#queuedBytes === 0) this.#response.write(KEEP_ALIVE_COMMENT);
    this.#keepAliveTimer?.refresh();
  }

  #cancelEndOfTick(): void {
    this.#flushScheduled = false;
  }

  #stopKeepAlive(): void {
    if (this.#keepAliveTimer === undefined) return;
    clearTimeout(this.#keepAliveTimer);
    this.#keepAliveTimer = undefined;
  }
}
