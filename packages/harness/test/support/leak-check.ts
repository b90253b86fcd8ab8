import { createHook } from "node:async_hooks";
import { readdirSync, readFileSync } from "node:fs";
import { trackedProcessGroups } from "../../src/process/child-reaper.js";

/** Resource kinds that mean "something was left open". Timers are tracked separately, below. */
const WATCHED_RESOURCES = new Set(["TCPSocketWrap", "TCPServerWrap", "ProcessWrap", "PipeWrap", "FSReqCallback"]);

interface TrackedTimer {
  timer: { hasRef?: () => boolean; _destroyed?: boolean };
  stack: string;
}

/**
 * Timers created while a test runs, minus Vitest's own (its hook and test timeouts come and go, so
 * counting active timers cannot tell them from ours). A timer still ref'd and not cleared at the
 * end of the test is a leak.
 */
const trackedTimers = new Map<number, TrackedTimer>();
const runnerFrames = /[\\/]node_modules[\\/](?:\.pnpm[\\/])?(?:vitest|@vitest|tinypool|tinyspy)/;
const timerHook = createHook({
  init(asyncId, type, _triggerAsyncId, resource) {
    if (type !== "Timeout") return;
    const stack = new Error().stack ?? "";
    // The frame that called setTimeout decides whose timer it is.
    const caller = stack
      .split("\n")
      .slice(1)
      .find((frame) => !frame.includes("node:") && !frame.includes("leak-check.ts") && !frame.includes("(<anonymous>)"));
    if (caller === undefined || runnerFrames.test(caller)) return;
    trackedTimers.set(asyncId, { timer: resource as TrackedTimer["timer"], stack: caller.trim() });
  },
  destroy(asyncId) {
    trackedTimers.delete(asyncId);
  },
});

function leakedTimers(): TrackedTimer[] {
  return [...trackedTimers.values()].filter((entry) => entry.timer._destroyed !== true && entry.timer.hasRef?.() === true);
}

function countResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) {
    if (WATCHED_RESOURCES.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

interface ProcessEntry {
  pid: number;
  parentPid: number;
  processGroupId: number;
  state: string;
}

function listProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  let names: string[] = [];
  try {
    names = readdirSync("/proc");
  } catch {
    return entries;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command may contain spaces and parentheses; fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      entries.push({ pid: Number(name), state: fields[0] ?? "", parentPid: Number(fields[1]), processGroupId: Number(fields[2]) });
    } catch {
      // The process exited while we looked.
    }
  }
  return entries;
}

/** Live (non-zombie) children of this process, and live members of any process group a test spawned. */
export function liveChildProcesses(processGroups: readonly number[] = []): ProcessEntry[] {
  const groups = new Set(processGroups);
  return listProcesses().filter(
    (entry) => entry.state !== "Z" && (entry.parentPid === process.pid || groups.has(entry.processGroupId)) && entry.pid !== process.pid,
  );
}

export interface LeakBaseline {
  resources: Map<string, number>;
}

export function takeLeakBaseline(): LeakBaseline {
  trackedTimers.clear();
  timerHook.enable();
  return { resources: countResources() };
}

function describeLeaks(baseline: LeakBaseline, processGroups: readonly number[]): string[] {
  const problems: string[] = [];
  for (const [name, count] of countResources()) {
    const before = baseline.resources.get(name) ?? 0;
    if (count > before) problems.push(`${count - before} extra ${name}`);
  }
  for (const child of liveChildProcesses(processGroups)) problems.push(`child process ${child.pid} (group ${child.processGroupId}) still alive`);
  if (trackedProcessGroups().length > 0) problems.push(`exit hook still tracks groups ${trackedProcessGroups().join(", ")}`);
  for (const entry of leakedTimers()) problems.push(`a ref'd timer is still pending, created ${entry.stack}`);
  return problems;
}

/**
 * Fails when a test left a child process, socket, server or ref'd timer behind. Polls briefly,
 * because sockets and exits finish closing a tick or two after the code that closed them.
 */
export async function expectNoLeaks(baseline: LeakBaseline, processGroups: readonly number[] = [], timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let problems = describeLeaks(baseline, processGroups);
  while (problems.length > 0 && Date.now() < deadline) {
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    problems = describeLeaks(baseline, processGroups);
  }
  if (problems.length > 0) throw new Error(`leak check failed: ${problems.join("; ")}`);
}
