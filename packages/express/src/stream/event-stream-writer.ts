import type { BaseEvent } from "@ag-ui/core";
import type { EventEncoder } from "@ag-ui/encoder";
import type { Response } from "express";
import { startEventStreamResponse } from "./sse-headers.js";
import { waitForDrain } from "./wait-for-drain.js";

/** An SSE comment: clients and the AG-UI parser skip it, proxies see traffic on an idle stream. */
export const KEEP_ALIVE_COMMENT = ": keep-alive\n\n";

const SSE_CONTENT_TYPE = "text/event-stream";

export interface EventStreamWriterOptions {
  /** Idle time after which a keep-alive comment is written; 0 turns keep-alives off. SSE only. */
  keepAliveIntervalMs: number;
  /** Encoded bytes the writer may hold for a slow reader before it gives up on the response. */
  maxBufferedBytes: number;
}

export type EnqueueResult = "queued" | "overflow" | "closed";

/**
 * Writes encoded events to one response in order, one chunk at a time, waiting for 'drain'
 * whenever `write` says the socket buffer is full. The agent's observable cannot be paused, so
 * events wait in a bounded queue meanwhile. Owns the keep-alive timer and clears it on end/abort.
 */
export class EventStreamWriter {
  readonly #response: Response;
  readonly #encoder: EventEncoder;
  readonly #options: EventStreamWriterOptions;
  readonly #binary: boolean;
  readonly #queue: { chunk: string | Uint8Array; size: number }[] = [];
  #queuedBytes = 0;
  #started = false;
  #closed = false;
  // `#draining` flips synchronously, so an event queued right after a write that did not block starts
  // a new drain instead of waiting on a promise that has already finished its loop.
  #draining = false;
  #drained: Promise<void> = Promise.resolve();
  #keepAliveTimer: NodeJS.Timeout | undefined;

  constructor(response: Response, encoder: EventEncoder, options: EventStreamWriterOptions) {
    this.#response = response;
    this.#encoder = encoder;
    this.#options = options;
    this.#binary = encoder.getContentType() !== SSE_CONTENT_TYPE;
  }

  get started(): boolean {
    return this.#started;
  }

  /** Sends the stream's headers and arms the keep-alive timer. Idempotent. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    startEventStreamResponse(this.#response, this.#encoder.getContentType());
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
    const chunk = this.#binary ? this.#encoder.encodeBinary(event) : `${sseIdLine(id)}${this.#encoder.encodeSSE(event)}`;
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (this.#queuedBytes + size > this.#options.maxBufferedBytes && this.#queue.length > 0) return "overflow";
    this.#queue.push({ chunk, size });
    this.#queuedBytes += size;
    this.#pump();
    return "queued";
  }

  /** Writes what is queued, then ends the response. */
  async end(): Promise<void> {
    while (this.#draining) await this.#drained;
    this.#stopKeepAlive();
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#response.writableEnded) this.#response.end();
  }

  /** Drops what is queued and stops writing; used when the client has gone. */
  abort(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#stopKeepAlive();
  }

  #pump(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#drained = this.#drainQueue();
  }

  async #drainQueue(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const { chunk, size } = this.#queue.shift() as { chunk: string | Uint8Array; size: number };
        this.#queuedBytes -= size;
        this.#keepAliveTimer?.refresh();
        if (!this.#response.write(chunk)) await waitForDrain(this.#response);
        if (this.#response.destroyed) this.abort();
      }
    } finally {
      this.#draining = false;
    }
  }

  #writeKeepAlive(): void {
    if (this.#closed) return;
    // While events are queued or a drain is awaited, the stream is not idle: skip this beat.
    if (!this.#draining) this.#response.write(KEEP_ALIVE_COMMENT);
    this.#keepAliveTimer?.refresh();
  }

  #stopKeepAlive(): void {
    if (this.#keepAliveTimer === undefined) return;
    clearTimeout(this.#keepAliveTimer);
    this.#keepAliveTimer = undefined;
  }
}

function sseIdLine(id: string | undefined): string {
  return id === undefined || /[\r\n\0]/.test(id) ? "" : `id: ${id}\n`;
}
