import type { Server } from "node:http";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { startTurnTimeline as startTurnTimelineUntyped } from "../../bench/lib/turn-timeline.mjs";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { readRelayTurn as readRelayTurnUntyped, startBareRelay as startBareRelayUntyped } from "../../bench/lib/bare-relay.mjs";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { benchModel } from "../../bench/lib/common.mjs";

interface PathTimeline {
  turns: number;
  sentMs: number;
  firstFrameMs: number;
  lastFrameMs: number;
  endedMs: number;
  harnessReactionMs: number;
  lastFrameToEndMs: number;
}
interface TurnTimeline {
  stop(): Record<string, PathTimeline>;
}
interface BareRelay {
  url: string;
  server: Server;
  close(): Promise<void>;
}
const startTurnTimeline = startTurnTimelineUntyped as (options: { servers: Record<string, Server>; webSocketClasses: (typeof WebSocket)[] }) => TurnTimeline;
const startBareRelay = startBareRelayUntyped as (options: { model: string }) => Promise<BareRelay>;
const readRelayTurn = readRelayTurnUntyped as (url: string, request: string) => Promise<unknown>;

// Benchmark 6 reads where a warm turn's time goes off these moments: each turn's own, in the order
// a turn lives them, and nothing left patched on `ws` or the server once the timeline stops.
describe("the benchmarks' turn timeline", () => {
  let relay: BareRelay;
  beforeAll(async () => {
    relay = await startBareRelay({ model: benchModel as string });
  });
  afterAll(async () => {
    await relay.close();
  });

  it("notes each turn's send, first and final frame and end, in that order, and takes its taps off", async () => {
    const { send, emit } = WebSocket.prototype;
    const listeners = relay.server.listenerCount("request");
    const timeline = startTurnTimeline({ servers: { relay: relay.server }, webSocketClasses: [WebSocket] });
    await readRelayTurn(relay.url, "hello");
    await readRelayTurn(relay.url, "hello");
    const { relay: noted } = timeline.stop();

    expect(noted?.turns).toBe(2);
    expect(noted?.sentMs).toBeGreaterThan(0);
    expect(noted?.firstFrameMs).toBeGreaterThan(noted?.sentMs ?? Infinity);
    expect(noted?.lastFrameMs).toBeGreaterThan(noted?.firstFrameMs ?? Infinity);
    expect(noted?.endedMs).toBeGreaterThanOrEqual(noted?.lastFrameMs ?? Infinity);
    expect(noted?.harnessReactionMs).toBeGreaterThan(0);
    expect(noted?.lastFrameToEndMs).toBeGreaterThanOrEqual(0);
    expect(WebSocket.prototype.send).toBe(send);
    expect(WebSocket.prototype.emit).toBe(emit);
    expect(relay.server.listenerCount("request")).toBe(listeners);
  });
});
