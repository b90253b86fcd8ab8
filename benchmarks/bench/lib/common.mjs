// Shared pieces of the benchmarks: paths, statistics, process memory, result hand-off to the
// orchestrator, and the timestamps of WebSocket frames as they reach this process.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { fileURLToPath, pathToFileURL } from "node:url";
import WebSocket from "ws";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const emulatorBinPath = join(repoRoot, "packages", "harness-emulator", "dist", "bin.js");
export const benchScenario = join(repoRoot, "fixtures", "scenarios", "bench.json");
export const benchModel = `emulator:${benchScenario}`;
/** Knobs every emulator of the benchmarks runs with: no artificial pacing between deltas. */
export const emulatorEnv = { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0" };

export function percentile(values, fraction) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

export const median = (values) => percentile(values, 0.5);

/** Resident set size of a process, in MiB (0 when it is gone). */
export function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match === null ? 0 : Number(match[1]) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Milliseconds on the machine's monotonic clock, which every process on it shares (unlike
 * `performance.now()`, which counts from its own process's start): times taken by a server and by
 * its client in another process can be subtracted.
 */
export const machineMs = () => Number(process.hrtime.bigint()) / 1e6;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Heap in use after full collections, in bytes (needs --expose-gc). */
export async function settledHeap() {
  for (let round = 0; round < 4; round += 1) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Hands a result to bench/run-benchmarks.mjs: the last stdout line that starts with `RESULT `. */
export function report(result) {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

/** Stops a benchmark that overruns its budget, so `pnpm bench` always ends. */
export function limitRuntime(ms, name) {
  setTimeout(() => {
    process.stderr.write(`${name}: over its ${ms / 1000} s budget, stopping\n`);
    process.exit(2);
  }, ms).unref();
}

/**
 * Records when each WebSocket message reaches this process, per socket, before any listener of
 * the harness client or the relay sees it. One `performance.now()` and one push per frame. Taps
 * `WebSocketClass`: this checkout's `ws` unless another build's is given.
 */
export function tapWebSocketFrames(WebSocketClass = WebSocket) {
  const frames = new Map();
  const originalEmit = WebSocketClass.prototype.emit;
  WebSocketClass.prototype.emit = function emit(event, ...args) {
    if (event === "message") {
      let list = frames.get(this);
      if (list === undefined) frames.set(this, (list = []));
      list.push({ at: performance.now(), data: args[0] });
    }
    return originalEmit.call(this, event, ...args);
  };
  return {
    /** Frames of every socket since the last `reset()`, oldest first. */
    all: () => [...frames.values()].flat().sort((left, right) => left.at - right.at),
    reset: () => frames.clear(),
    /** Takes the tap off again (nothing more is recorded). */
    remove: () => {
      WebSocketClass.prototype.emit = originalEmit;
      frames.clear();
    },
  };
}

/** Cumulative text length of a text-delta stepUpdate frame, or undefined for any other frame. */
export function cumulativeTextOf(data) {
  const text = typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  if (!text.includes('"textDelta"')) return undefined;
  const update = JSON.parse(text).stepUpdate;
  return typeof update?.text === "string" ? update.text.length : undefined;
}

/** The text frames among `frames`: when each arrived and the cumulative text length it carries. */
export function textFramesOf(frames) {
  const textFrames = [];
  for (const frame of frames) {
    const cumulative = cumulativeTextOf(frame.data);
    if (cumulative !== undefined) textFrames.push({ at: frame.at, cumulative });
  }
  return textFrames;
}

/**
 * For each client-side delta (its arrival time and the text length it completes), the time its
 * frame reached the server: the first text frame whose cumulative text covers that length.
 */
export function latenciesOf(frames, deltas) {
  return latenciesOfTextFrames(textFramesOf(frames), deltas);
}

/** `latenciesOf` for text frames already picked out (`textFramesOf`), e.g. by a server in another process. */
export function latenciesOfTextFrames(textFrames, deltas) {
  const latencies = [];
  let cursor = 0;
  for (const delta of deltas) {
    while (cursor < textFrames.length && textFrames[cursor].cumulative < delta.cumulative) cursor += 1;
    if (cursor >= textFrames.length) break;
    latencies.push(delta.at - textFrames[cursor].at);
  }
  return { latencies, textFrames: textFrames.length };
}

/**
 * The packages a benchmark measures, from `root` (this checkout by default): a baseline build laid
 * out like a checkout (see bench/lib/baseline.mjs) is measured by the same script.
 */
export async function importStack(root = repoRoot) {
  const load = (path) => import(pathToFileURL(join(root, path)).href);
  const [agent, express] = await Promise.all([load("packages/agent/dist/index.js"), load("packages/express/dist/index.js")]);
  return { AntigravityAgent: agent.AntigravityAgent, createAntigravityApp: express.createAntigravityApp };
}
