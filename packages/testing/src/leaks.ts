import { readdirSync, readFileSync } from "node:fs";

/** Pids of the live (non-zombie) processes whose parent is `parentPid`, read from /proc. */
export function childPidsOf(parentPid: number = process.pid): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may contain spaces and parentheses; the fields after the last ")" are fixed.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const state = fields[0];
      const ppid = Number(fields[1]);
      if (ppid === parentPid && state !== "Z") children.push(Number(entry));
    } catch {
      // The process exited between readdir and read.
    }
  }
  return children;
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

/**
 * Waits until no socket, child process, server or timer handle of this process is left (as
 * `process.getActiveResourcesInfo()` reports them), or throws listing what is left.
 */
export async function expectNoActiveHandles(options: { graceMs?: number; allow?: string[] } = {}): Promise<void> {
  const watched = new Set(["TCPSocketWrap", "TCPServerWrap", "ProcessWrap", "PipeWrap", "Timeout", "TTYWrap"]);
  const allowed = new Set(options.allow ?? []);
  const deadline = Date.now() + (options.graceMs ?? 3_000);
  const active = () => process.getActiveResourcesInfo().filter((kind) => watched.has(kind) && !allowed.has(kind));
  let left = active();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
    left = active();
  }
  if (left.length > 0) throw new Error(`handles left open: ${left.join(", ")}`);
}
