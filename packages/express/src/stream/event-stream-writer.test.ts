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

/**
 * Resolves after the writer's end-of-tick flush for what was enqueued before the call: the flush is
 * a tick queued from a microtask, and this resolves from a tick queued the same way, after it.
 */
const endOfTick = (): Promise<void> => new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));

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
    await endOfTick();
    expect(response.writes).toHaveLength(1);
    writer.enqueue(event("four"));
    await endOfTick();
    expect(response.writes).toHaveLength(1);

    response.full = false;
    response.emit("drain");
    await writer.end();
    expect(deltasOf(response.writes)).toEqual(["one", "two", "three", "four"]);
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
    await endOfTick();
    writer.enqueue(event("two"));
    response.destroyed = true;
    response.emit("close");
    await writer.end();
    expect(response.writes).toHaveLength(1);
    expect(writer.enqueue(event("late"))).toBe("closed");
  });

  it("writes the events of a tick, promise jobs included, as one chunk once its microtasks are over", async () => {
    const response = new FakeResponse();
    const writer = writerFor(response);
    writer.start();
    writer.enqueue(event("a"));
    void Promise.resolve()
      .then(() => writer.enqueue(event("b")))
      .then(() => writer.enqueue(event("c")))
      .then(() => writer.enqueue(event("d")));
    expect(response.writes).toHaveLength(0);
    await endOfTick();
    expect(deltasOf(response.writes)).toEqual(["a", "b", "c", "d"]);
    expect(response.writes).toHaveLength(1);
    // Before the next I/O: a timer set now fires after the flush.
    writer.enqueue(event("e"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(response.writes).toHaveLength(2);
    writer.enqueue(event("f"));
    await writer.end();
    expect(deltasOf(response.writes)).toEqual(["a", "b", "c", "d", "e", "f"]);
    // What the tick still held goes with the end: one call, not a write and then an end.
    expect(response.ends).toEqual(["with the last chunk"]);
    expect(response.writes).toHaveLength(3);
    expect(response.writableEnded).toBe(true);
  });

  it("writes a tick's events before its end once they pass 64 KiB", () => {
    const response = new FakeResponse();
    const writer = writerFor(response);
    writer.start();
    const delta = "x".repeat(1024);
    for (let index = 0; index < 70; index += 1) writer.enqueue(event(delta));
    expect(response.writes).toHaveLength(1);
    writer.abort();
  });

  it("reports overflow once a slow reader leaves more than maxBufferedBytes queued", async () => {
    const response = new FakeResponse();
    const writer = writerFor(response, { maxBufferedBytes: 200 });
    writer.start();
    response.full = true;
    // Not a slow reader yet: a tick's events are held for the flush, whatever their size.
    expect(writer.enqueue(event("z".repeat(300)))).toBe("queued");
    await endOfTick();
    expect(response.writes).toHaveLength(1);
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
    await endOfTick();
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
