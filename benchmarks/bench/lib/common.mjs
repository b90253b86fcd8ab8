// Shared pieces of the benchmarks: paths, statistics, process memory, result hand-off to the
// orchestrator, and the timestamps of WebSocket frames as they reach this process.
import { isAscii } from "node:buffer";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { fileURLToPath, pathToFileURL } from "node:url";
import WebSocket from "ws";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The RunAgentInput a client sends for a turn on `threadId` whose history is `messages` (a fresh run id, no tools, context or state). */
export function runInputOf(threadId, messages) {
  return { threadId, runId: randomUUID(), messages, tools: [], context: [], state: {}, forwardedProps: {} };
}
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
 * the harness client or the relay sees it, with the text length a text frame carries (read from
 * its bytes at once). The tap keeps no frame: holding a burst's frames (about 50 MB, each repeats
 * the text so far) until the turn ended made the garbage collector's full collections slower for
 * whichever path had more live heap, and that is the adapter (one run of bench 1: its burst 1.57x
 * and 1.35x the relay's with the frames held, 1.20x and 1.24x without). Taps `WebSocketClass`:
 * this checkout's `ws` unless another build's is given.
 */
export function tapWebSocketFrames(WebSocketClass = WebSocket) {
  const frames = new Map();
  const originalEmit = WebSocketClass.prototype.emit;
  WebSocketClass.prototype.emit = function emit(event, ...args) {
    if (event === "message") {
      const at = performance.now();
      let list = frames.get(this);
      if (list === undefined) frames.set(this, (list = []));
      list.push({ at, cumulative: cumulativeTextOf(args[0]) });
    }
    return originalEmit.call(this, event, ...args);
  };
  return {
    /** Frames of every socket since the last `reset()`, oldest first: when each arrived and its text length (undefined for other frames). */
    all: () => [...frames.values()].flat().sort((left, right) => left.at - right.at),
    reset: () => frames.clear(),
    /** Takes the tap off again (nothing more is recorded). */
    remove: () => {
      WebSocketClass.prototype.emit = originalEmit;
      frames.clear();
    },
  };
}

const textDeltaKey = Buffer.from('"textDelta"');
const textKey = Buffer.from('"text":"');

/**
 * Cumulative text length of a text-delta stepUpdate frame, or undefined for any other frame. Read
 * off the bytes with native searches (the tap runs it on every frame, inside the measured path);
 * text with escapes or non-ASCII characters, or a frame with more than one "text" key, is parsed
 * whole instead.
 */
export function cumulativeTextOf(data) {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  if (bytes.indexOf(textDeltaKey) < 0) return undefined;
  const key = bytes.indexOf(textKey);
  const start = key + textKey.length;
  const end = key < 0 ? -1 : bytes.indexOf(0x22, start);
  const backslash = end < 0 ? -1 : bytes.indexOf(0x5c, start);
  const plain = end >= 0 && (backslash < 0 || backslash > end) && bytes.indexOf(textKey, end) < 0 && isAscii(bytes.subarray(start, end));
  if (plain) return end - start;
  const update = JSON.parse(bytes.toString("utf8")).stepUpdate;
  return typeof update?.text === "string" ? update.text.length : undefined;
}

/** The text frames among `frames` (from a tap's `all()`): when each arrived and the cumulative text length it carries. */
export function textFramesOf(frames) {
  return frames.filter((frame) => frame.cumulative !== undefined);
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
