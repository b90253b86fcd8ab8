#!/usr/bin/env node
// Benchmark 1, adapter overhead: one turn of 10 000 one-character deltas from the emulator, through
// the harness client → translator → AntigravityAgent → Express SSE → HttpAgent, against the bare
// relay (the same emulator's frames piped to an SSE response). Both run in this process, rounds
// alternating, so they share the machine's noise. Per event, the latency is the time from the
// frame's arrival in this process (a tap on `ws`) to the event's arrival at the client. The paced
// turn is then measured again with the server (adapter and relay) in its own process.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAntigravityApp } from "@ag-ui-antigravity/express";
import { readRelayDeltas, startBareRelay } from "./lib/bare-relay.mjs";
import { benchModel, emulatorEnv, latenciesOf, limitRuntime, median, percentile, report, repoRoot, tapWebSocketFrames } from "./lib/common.mjs";
import { pacedStackTurn } from "./lib/paced-turn.mjs";
import { rawAdapterTurn } from "./lib/raw-sse-client.mjs";
import { startStack } from "./lib/stack-process.mjs";

limitRuntime(420_000, "overhead");
const rounds = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 9);
const pacedRounds = Number(process.env.BENCH_PACED_ROUNDS ?? 1);
const tap = tapWebSocketFrames();

const saveDir = mkdtempSync(join(tmpdir(), "bench-overhead-"));
const agent = new AntigravityAgent({ harness: "emulator", model: benchModel, saveDir, env: emulatorEnv, turnTimeoutMs: 120_000, pool: { healthCheckIntervalMs: 0 } });
const server = createServer(createAntigravityApp({ bench: agent }, { keepAliveIntervalMs: 0 }));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const adapterUrl = `http://127.0.0.1:${server.address().port}/bench`;
const relay = await startBareRelay({ model: benchModel });

const client = new HttpAgent({ url: adapterUrl, threadId: randomUUID() });
/**
 * One turn read by `HttpAgent`. Between turns the client keeps only the thread's user messages
 * (what the server compares a history by): `HttpAgent` clones its whole message list for every
 * event it applies (`structuredClone`, in @ag-ui/client 1.0.0's apply step), so with each
 * 10 000-character reply kept every burst cost the client more than the one before (two runs of
 * this script: 669 and 665 ms in round 1, 877 and 825 ms in round 9, while the relay's rounds
 * stayed flat), so the rounds measured the client's history, not the adapter.
 */
async function adapterTurn(text) {
  client.addMessage({ id: randomUUID(), role: "user", content: text });
  const deltas = [];
  let cumulative = 0;
  let lastDelta = 0;
  const started = performance.now();
  await client.runAgent({}, {
    onEvent: ({ event }) => {
      if (event.type !== "TEXT_MESSAGE_CONTENT") return;
      const at = performance.now();
      cumulative += event.delta.length;
      deltas.push({ at, cumulative });
      lastDelta = at;
    },
  });
  const ended = performance.now();
  client.setMessages(client.messages.filter((message) => message.role === "user"));
  return { started, ended, lastDelta, deltas };
}

/**
 * The same adapter read by a raw SSE client (bench/lib/raw-sse-client.mjs), so the paced latency
 * can be told apart from `HttpAgent`'s own work and allocations in this process.
 */
const rawThread = { id: randomUUID(), messages: [] };
const rawTurn = (text) => rawAdapterTurn(adapterUrl, rawThread, text);
const relayTurn = (text) => readRelayDeltas(relay.url, text);

// Warm both paths up (conversation open, JIT), then alternate measured rounds. One burst each too:
// a burst runs code an echo turn does not (the cut of long text frames, the SSE writer's joins and
// backpressure, HttpAgent's parsing at volume), and the adapter has far more of it for V8 to
// compile than the relay, so a first burst measured cold charged the compiles to the adapter. Run
// alone twice each, this script read 1.31x and 1.32x the relay's burst without this burst, 1.28x
// and 1.23x with it.
for (const text of ["hello", "stream"]) {
  await adapterTurn(text);
  await rawTurn(text);
  await relayTurn(text);
}
const samples = { adapter: [], relay: [], pacedAdapter: [], pacedRelay: [], pacedRawAdapter: [] };
const plan = [
  ...Array.from({ length: rounds }, () => [["adapter", adapterTurn, "stream"], ["relay", relayTurn, "stream"]]).flat(),
  // Paced at a delta per millisecond, neither path falls behind: the latency is the path's own.
  ...Array.from({ length: pacedRounds }, () => [["pacedAdapter", adapterTurn, "paced"], ["pacedRelay", relayTurn, "paced"], ["pacedRawAdapter", rawTurn, "paced"]]).flat(),
];
for (const [name, turn, text] of plan) {
  {
    tap.reset();
    const result = await turn(text);
    const { latencies, textFrames } = latenciesOf(tap.all(), result.deltas);
    samples[name].push({
      wallMs: result.ended - result.started,
      toLastDeltaMs: result.lastDelta - result.started,
      deltas: result.deltas.length,
      textFrames,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
    });
  }
}

await relay.close();
server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
await agent.close();
rmSync(saveDir, { recursive: true, force: true });
tap.remove();

// The same paced turns with the server in its own process (bench/lib/stack-server.mjs: the same
// agent and relay), read by a raw client here: the client's garbage is no longer in the server's heap.
const stack = await startStack("current", repoRoot, { prewarm: false });
const stackThread = { id: randomUUID(), messages: [] };
samples.pacedProcessAdapter = [];
samples.pacedProcessRelay = [];
try {
  await rawAdapterTurn(stack.adapterUrl, stackThread, "hello");
  await readRelayDeltas(stack.relayUrl, "hello");
  for (let round = 0; round < pacedRounds; round += 1) {
    samples.pacedProcessAdapter.push(await pacedStackTurn(stack, "adapter", stackThread));
    samples.pacedProcessRelay.push(await pacedStackTurn(stack, "relay", stackThread));
  }
} finally {
  await stack.close();
}

const summary = (name) => ({
  wallMs: median(samples[name].map((sample) => sample.wallMs)),
  toLastDeltaMs: median(samples[name].map((sample) => sample.toLastDeltaMs)),
  deltas: median(samples[name].map((sample) => sample.deltas)),
  textFrames: median(samples[name].map((sample) => sample.textFrames)),
  latencyP50Ms: median(samples[name].map((sample) => sample.p50)),
  latencyP99Ms: median(samples[name].map((sample) => sample.p99)),
});
report({
  rounds,
  pacedRounds,
  adapter: summary("adapter"),
  relay: summary("relay"),
  pacedAdapter: summary("pacedAdapter"),
  pacedRelay: summary("pacedRelay"),
  pacedRawAdapter: summary("pacedRawAdapter"),
  pacedProcessAdapter: summary("pacedProcessAdapter"),
  pacedProcessRelay: summary("pacedProcessRelay"),
});
