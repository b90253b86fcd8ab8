// A paced turn (one delta per millisecond) through a stack server (bench/lib/stack-server.mjs) in
// its own process, read by a raw SSE client in this one: the server's latency per event without
// the client's work and garbage in the same heap.
import { readRelayDeltas } from "./bare-relay.mjs";
import { latenciesOfTextFrames, machineMs, percentile } from "./common.mjs";
import { rawAdapterTurn } from "./raw-sse-client.mjs";

/**
 * One paced turn through the stack's adapter (`path` "adapter", on `thread`) or its bare relay
 * ("relay"). An event's latency is its arrival here minus its frame's arrival in the server (a tap
 * on `ws` there, on for this turn only), both on the machine's monotonic clock.
 */
export async function pacedStackTurn(stack, path, thread) {
  await stack.call("tap-start");
  const turn = path === "adapter" ? await rawAdapterTurn(stack.adapterUrl, thread, "paced", machineMs) : await readRelayDeltas(stack.relayUrl, "paced", machineMs);
  const textFrames = await stack.call("tap-stop");
  const { latencies } = latenciesOfTextFrames(textFrames, turn.deltas);
  return {
    wallMs: turn.ended - turn.started,
    toLastDeltaMs: turn.lastDelta - turn.started,
    deltas: turn.deltas.length,
    textFrames: textFrames.length,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}
