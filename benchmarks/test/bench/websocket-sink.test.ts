import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { startWebSocketSink as startWebSocketSinkUntyped } from "../../bench/lib/websocket-sink.mjs";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { benchModel } from "../../bench/lib/common.mjs";

interface WebSocketSink {
  turn(text: string): Promise<{ frames: number; cpuMs: number }>;
  close(): Promise<void>;
}
const startWebSocketSink = startWebSocketSinkUntyped as (options: { model: string }) => Promise<WebSocketSink>;

// Benchmark 6 divides the sink's CPU by the frames it counted: the count must be the turn's, each
// turn's alone (its listener gone when the turn ends), and a burst must be the 10 000 deltas it names.
describe("the benchmarks' WebSocket sink", () => {
  let sink: WebSocketSink;
  beforeAll(async () => {
    sink = await startWebSocketSink({ model: benchModel as string });
  });
  afterAll(async () => {
    await sink.close();
  });

  it("counts each turn's frames up to its final idle, with the CPU spent on them", async () => {
    const first = await sink.turn("hello");
    const second = await sink.turn("hello");
    expect(first.frames).toBeGreaterThan(2);
    expect(second.frames).toBe(first.frames);
    expect(second.cpuMs).toBeGreaterThan(0);
    const burst = await sink.turn("stream");
    expect(burst.frames).toBeGreaterThan(10_000);
  });
});
