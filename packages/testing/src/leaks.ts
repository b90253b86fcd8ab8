import { readdirSync, readFileSync } from "node:fs";

/** Live (non-zombie) processes by parent pid, read from /proc. */
function liveChildrenByParent(): Map<number, number[]> {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may contain spaces and parentheses; the fields after the last ")" are fixed.
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      const siblings = childrenOf.get(Number(parent)) ?? [];
      siblings.push(Number(entry));
      childrenOf.set(Number(parent), siblings);
    } catch {
      // The process exited between readdir and read.
    }
  }
  return childrenOf;
}

/** Pids of the live (non-zombie) processes whose parent is `parentPid`, read from /proc. */
export function childPidsOf(parentPid: number = process.pid): number[] {
  return liveChildrenByParent().get(parentPid) ?? [];
}

/** Pids of the live processes descended from `rootPid` (children, grandchildren, ...), read from /proc. */
export function descendantPids(rootPid: number = process.pid): number[] {
  const childrenOf = liveChildrenByParent();
  const found: number[] = [];
  const queue = [...(childrenOf.get(rootPid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    found.push(pid);
    queue.push(...(childrenOf.get(pid) ?? []));
  }
  return found;
}

/** True when a process with this pid exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Waits until this process has no live child processes, or throws naming the survivors. Processes
 * get a short grace because an exiting child is reaped asynchronously.
 */
export async function expectNoChildProcesses(options: { graceMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.graceMs ?? 3_000);
  let survivors = childPidsOf();
  while (survivors.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    survivors = childPidsOf();
  }
  if (survivors.length > 0) {
    const described = survivors.map((pid) => {
      try {
        return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`;
      } catch {
        return String(pid);
      }
    });
    throw new Error(`leaked child processes:\n${described.join("\n")}`);
  }
}

const watchedHandleKinds = new Set(["TCPSocketWrap", "TCPServerWrap", "ProcessWrap", "PipeWrap", "Timeout", "TTYWrap"]);

/**
 * How many handles of each watched kind are open now. Take it before a suite starts and pass it as
 * `baseline` to `expectNoActiveHandles`: a Vitest fork worker already holds its own IPC and stdio
 * pipes (PipeWrap), which are not the suite's leak.
 */
export function activeHandleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (watchedHandleKinds.has(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * Waits until no socket, child process, server or timer handle of this process is left (as
 * `process.getActiveResourcesInfo()` reports them), or throws listing what is left. With
 * `baseline`, only handles beyond those counts are reported.
 */
export async function expectNoActiveHandles(
  options: { graceMs?: number; allow?: string[]; baseline?: Record<string, number> } = {},
): Promise<void> {
  const allowed = new Set(options.allow ?? []);
  const baseline = options.baseline ?? {};
  const deadline = Date.now() + (options.graceMs ?? 3_000);
  const active = () => {
    const seen: Record<string, number> = {};
    return process.getActiveResourcesInfo().filter((kind) => {
      if (!watchedHandleKinds.has(kind) || allowed.has(kind)) return false;
      seen[kind] = (seen[kind] ?? 0) + 1;
      return seen[kind] > (baseline[kind] ?? 0);
    });
  };
  let left = active();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
    left = active();
  }
  if (left.length > 0) throw new Error(`handles left open: ${left.join(", ")}`);
}
