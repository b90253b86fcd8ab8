// One server process of benchmark 6 (bench/turn-cost.mjs): an `AntigravityAgent` behind the Express
// binding, and a bare relay on its own emulator, both in this process so the parent (a raw SSE
// client) measures the server from outside; last, when asked, a lean adapter on its own emulator
// (bench/lib/lean-adapter.mjs) and a WebSocket sink on another (bench/lib/websocket-sink.mjs). The
// packages come from `--root` (default this checkout), so the same script measures a baseline build
// beside the current one. Driven over IPC: the parent asks for CPU time, a CPU profile, an
// allocation sample or a turn timeline (bench/lib/turn-timeline.mjs) around the turns it times.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:http";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";
import { startBareRelay } from "./bare-relay.mjs";
import { startLeanAdapter } from "./lean-adapter.mjs";
import { startTurnTimeline } from "./turn-timeline.mjs";
import { startWebSocketSink } from "./websocket-sink.mjs";
import { benchModel, emulatorEnv, importStack, machineMs, repoRoot, tapWebSocketFrames, textFramesOf } from "./common.mjs";

const rootIndex = process.argv.indexOf("--root");
const root = rootIndex >= 0 ? process.argv[rootIndex + 1] : repoRoot;
const prewarm = process.argv.includes("--prewarm");
const { AntigravityAgent, createAntigravityApp } = await importStack(root);

/**
 * The adapter's app without client limits: turn-cost's crowd of new threads comes from one address,
 * past the default limits (8 runs at once), on purpose. A baseline build from before them refuses
 * the option, and has no limits anyway.
 */
function createBenchApp() {
  try {
    return createAntigravityApp({ bench: agent }, { clientLimits: false });
  } catch (error) {
    // CONFIG_INVALID; a baseline from before the codes were aligned says OPTIONS_INVALID.
    if (error?.code !== "CONFIG_INVALID" && error?.code !== "OPTIONS_INVALID") throw error;
    return createAntigravityApp({ bench: agent });
  }
}

const saveDir = mkdtempSync(join(tmpdir(), "bench-cost-"));
const agent = new AntigravityAgent({
  harness: "emulator",
  model: benchModel,
  saveDir,
  env: emulatorEnv,
  turnTimeoutMs: 120_000,
  pool: { healthCheckIntervalMs: 0 },
  sessions: { maxSessions: 2_000 },
  ...(prewarm ? { prewarm: { spares: 2 } } : {}),
});
const server = createServer(createBenchApp());
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const relay = await startBareRelay({ model: benchModel });
const inspector = new Session();
inspector.connect();

/** The ten functions with the most self time, from a V8 CPU profile, as shares of all samples. */
function topSelfTime(profile, count = 10) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const totals = new Map();
  for (const [id, samples] of hits) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^file:\/\//, "").replace(repoRoot, "").replace(root, "").replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "");
    const key = `${functionName || "(anonymous)"} ${file === "" ? "" : `${file}:${lineNumber + 1}`}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + samples);
  }
  const all = profile.samples.length;
  return [...totals].sort((left, right) => right[1] - left[1]).slice(0, count).map(([name, samples]) => ({ name, share: samples / all }));
}

/**
 * Bytes allocated while sampling (collected objects included), and the functions that allocated most.
 * What the inspector session itself allocates (its `post` handing the sampler's result back, a few
 * hundred KiB whatever was measured) is the measuring tool's, not the server's: it is left out.
 */
function allocations(profile) {
  let bytes = 0;
  const bySite = new Map();
  const walk = (node) => {
    if (node.callFrame.url === "node:inspector" || node.callFrame.url === "node:inspector/promises") return;
    bytes += node.selfSize;
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || "(anonymous)"} ${url.replace(/^file:\/\//, "").replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const sites = [...bySite].sort((left, right) => right[1] - left[1]).slice(0, 10).map(([name, siteBytes]) => ({ name, share: siteBytes / bytes }));
  return { bytes, sites };
}

// The `ws` of the build under test (its harness client's) and this checkout's (the relay's): one
// class when both builds resolve the same copy.
const harnessWebSocket = (await import(pathToFileURL(createRequire(join(root, "packages", "harness", "package.json")).resolve("ws")).href)).default;
const webSocketClasses = [...new Set([harnessWebSocket, WebSocket])];
// Taps on `ws` while a paced turn is measured ("tap-start" to "tap-stop"); off otherwise, so the
// other figures pay nothing for them.
let taps = [];

// The lean adapter, once "lean-start" asked for it. Started last, after every other figure, so that
// it moves none: its requests' garbage changes this process's heap, and with it what later bursts
// pay in collections.
let leanAdapter;

// The WebSocket sink (bench/lib/websocket-sink.mjs), once "sink-burst" asked for it: after the lean
// adapter, for the same reason.
let sink;

// The turn timeline (bench/lib/turn-timeline.mjs) between "timeline-start" and "timeline-stop".
let timeline;

// The longest the server's event loop was held between "loop-start" and "loop-stop" (ms): what every
// other request on this process waited for at worst.
let loopDelay;

const operations = {
  cpu: () => process.cpuUsage(),
  "loop-start": () => {
    loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
  },
  "loop-stop": () => {
    loopDelay.disable();
    return { maxMs: loopDelay.max / 1e6, p99Ms: loopDelay.percentile(99) / 1e6 };
  },
  rss: () => process.memoryUsage().rss,
  "lean-start": async () => {
    leanAdapter ??= await startLeanAdapter({ model: benchModel });
    return leanAdapter.url;
  },
  // One burst received by the sink: its frames and the CPU this process spent on them.
  "sink-burst": async () => {
    sink ??= await startWebSocketSink({ model: benchModel });
    return sink.turn("stream");
  },
  // Notes where each turn's time goes on the adapter, the relay and (once started) the lean adapter.
  "timeline-start": () => {
    timeline ??= startTurnTimeline({
      servers: { adapter: server, relay: relay.server, ...(leanAdapter === undefined ? {} : { lean: leanAdapter.server }) },
      webSocketClasses,
    });
  },
  "timeline-stop": () => {
    const summary = timeline?.stop();
    timeline = undefined;
    return summary;
  },
  "tap-start": () => {
    if (taps.length === 0) taps = webSocketClasses.map((WebSocketClass) => tapWebSocketFrames(WebSocketClass));
    for (const tap of taps) tap.reset();
  },
  // The text frames that reached this process since "tap-start", their times on the machine's clock.
  "tap-stop": () => {
    const offset = machineMs() - performance.now();
    const frames = taps.flatMap((tap) => tap.all()).sort((left, right) => left.at - right.at);
    for (const tap of taps) tap.remove();
    taps = [];
    return textFramesOf(frames).map((frame) => ({ at: frame.at + offset, cumulative: frame.cumulative }));
  },
  "profile-start": async () => {
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.setSamplingInterval", { interval: 200 });
    await inspector.post("Profiler.start");
  },
  "profile-stop": async () => topSelfTime((await inspector.post("Profiler.stop")).profile),
  "alloc-start": async () => {
    await inspector.post("HeapProfiler.enable");
    await inspector.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  },
  "alloc-stop": async () => allocations((await inspector.post("HeapProfiler.stopSampling")).profile),
  close: async () => {
    inspector.disconnect();
    await relay.close();
    await leanAdapter?.close();
    await sink?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await agent.close();
    rmSync(saveDir, { recursive: true, force: true });
  },
};

// The parent may stop on its time budget without asking for "close": go with it, never orphaned.
process.once("disconnect", () => process.exit(0));

process.on("message", async ({ id, op }) => {
  try {
    const value = await operations[op]();
    process.send({ id, value });
    if (op === "close") process.disconnect();
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true, adapterUrl: `http://127.0.0.1:${server.address().port}/bench`, relayUrl: relay.url });
