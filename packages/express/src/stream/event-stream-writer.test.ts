import { EventEmitter } from "node:events";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EventStreamWriter, KEEP_ALIVE_COMMENT } from "./event-stream-writer.js";

/** Just enough of a Response: records writes and reports a full buffer while `full` is set. */
class FakeResponse extends EventEmitter {
  readonly writes: string[] = [];
  /** How each end() was called. */
  readonly ends: string[] = [];
  readonly headers = new Map<string, string>();
  full = false;
  destroyed = false;
  writableEnded = false;
  statusCode = 0;
  flushed = false;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string): void {
    this.headers.set(name.toLowerCase(), value);
  }
  flushHeaders(): void {
    this.flushed = true;
  }
  write(chunk: string | Uint8Array): boolean {
    this.writes.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("hex"));
    return !this.full;
  }
  end(chunk?: string | Uint8Array): void {
    if (chunk !== undefined) this.write(chunk);
    this.ends.push(chunk === undefined ? "" : "with the last chunk");
    this.writableEnded = true;
  }
}

const event = (delta: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta }) as BaseEvent;

function writerFor(response: FakeResponse, options: { keepAliveIntervalMs?: number; maxBufferedBytes?: number } = {}) {
  return new EventStreamWriter(response as unknown as Response, new EventEncoder(), {
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? 0,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
  });
}

/** The deltas of the SSE events written, however they were split into chunks. */
const deltasOf = (writes: string[]): string[] =>
  writes
    .join("")
    .split("\n\n")
    .filter((text) => text.startsWith("data: "))
    .map((text) => (JSON.parse(text.slice(6)) as { delta: string }).delta);

afterEach(() => {
  vi.useRealTimers();
});

describe("EventStreamWriter", () => {
  it("sends the streaming headers and flushes them at start", () => {
    const response = new FakeResponse();
    writerFor(response).start();
    expect(response.statusCode).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    expect(response.flushed).toBe(true);
  });

  it("waits for 'drain' after a write that filled the buffer, then writes the rest in order", async () => {
    const response = new FakeResponse();
    const writer = writerFor(response);
    writer.start();
    response.full = true;
    writer.enqueue(event("one"));
    writer.enqueue(event("two"));
    writer.enqueue(event("three"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(response.writes).toHaveLength(1);

    response.full = false;
    response.emit("drain");
    await writer.end();
    expect(deltasOf(response.writes)).toEqual(["one", "two", "three"]);
    expect(response.writableEnded).toBe(true);
    expect(response.listenerCount("drain")).toBe(0);
    expect(response.listenerCount("close")).toBe(0);
  });

  it("stops waiting when the response closes instead of draining", async () => {
    const response = new FakeResponse();
    const writer = writerFor(response);
    writer.start();
    response.full = true;
    writer.enqueue(event("one"));
    writer.enqueue(event("two"));
    response.destroyed = true;
    response.emit("close");
    await writer.end();
    expect(response.writes).toHaveLength(1);
    expect(writer.enqueue(event("late"))).toBe("closed");
  });

  it("writes the first event of a tick at once and the rest of the tick as one chunk at its end", async () => {
    const response = new FakeResponse();
    const writer = writerFor(response);
    writer.start();
    for (const delta of ["a", "b", "c", "d"]) writer.enqueue(event(delta));
    expect(deltasOf(response.writes)).toEqual(["a"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(response.writes).toHaveLength(2);
    writer.enqueue(event("e"));
    expect(response.writes).toHaveLength(3);
    writer.enqueue(event("f"));
    await writer.end();
    expect(deltasOf(response.writes)).toEqual(["a", "b", "c", "d", "e", "f"]);
    // What the tick still held goes with the end: one call, not a write and then an end.
    expect(response.ends).toEqual(["with the last chunk"]);
    expect(response.writes).toHaveLength(4);
    expect(response.writableEnded).toBe(true);
  });

  it("reports overflow once a slow reader leaves more than maxBufferedBytes queued", () => {
    const response = new FakeResponse();
    const writer = writerFor(response, { maxBufferedBytes: 200 });
    writer.start();
    response.full = true;
    expect(writer.enqueue(event("first is written at once"))).toBe("queued");
    expect(writer.enqueue(event("x".repeat(100)))).toBe("queued");
    expect(writer.enqueue(event("y".repeat(150)))).toBe("overflow");
    writer.abort();
  });

  it("writes a keep-alive only after an idle interval, and none after end", async () => {
    vi.useFakeTimers();
    const response = new FakeResponse();
    const writer = writerFor(response, { keepAliveIntervalMs: 1_000 });
    writer.start();
    vi.advanceTimersByTime(600);
    writer.enqueue(event("activity"));
    vi.advanceTimersByTime(600);
    expect(response.writes.filter((chunk) => chunk === KEEP_ALIVE_COMMENT)).toHaveLength(0);
    vi.advanceTimersByTime(500);
    expect(response.writes.filter((chunk) => chunk === KEEP_ALIVE_COMMENT)).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(response.writes.filter((chunk) => chunk === KEEP_ALIVE_COMMENT)).toHaveLength(2);
    await writer.end();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("writes no keep-alives on a protobuf stream", () => {
    vi.useFakeTimers();
    const response = new FakeResponse();
    const writer = new EventStreamWriter(response as unknown as Response, new EventEncoder({ accept: "application/vnd.ag-ui.event+proto" }), {
      keepAliveIntervalMs: 10,
      maxBufferedBytes: 1024,
    });
    writer.start();
    vi.advanceTimersByTime(100);
    expect(response.writes).toEqual([]);
    expect(response.headers.get("content-type")).toBe("application/vnd.ag-ui.event+proto");
    writer.abort();
  });
});
