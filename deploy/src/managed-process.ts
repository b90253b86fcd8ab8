import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process the cluster started, and so must stop. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Settles when the process has exited, however it ended. */
  readonly exited: Promise<ProcessExit>;
  readonly hasExited: boolean;
  /** The last lines it printed (stdout and stderr), for error messages. */
  recentOutput(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(options?: { graceMs?: number }): Promise<ProcessExit>;
}

export interface StartProcessOptions<Ready> {
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Looks at each output line; the first non-undefined result means the process is ready. */
  readyWhen?: (line: string) => Ready | undefined;
  /** Called instead of `readyWhen` when readiness is observed from outside (a port that answers). */
  waitUntilReady?: (signal: AbortSignal) => Promise<Ready>;
  readyTimeoutMs: number;
  /** Receives every output line after readiness (the cluster passes them through). */
  onLine?: (line: string) => void;
  signal?: AbortSignal;
}

const keptLines = 40;

export class ProcessStartError extends Error {
  override readonly name = "ProcessStartError";
}

/**
 * Spawns a process and waits until it says (or shows) it is ready. A process that exits first, or
 * is not ready in time, is stopped and the error carries the last lines it printed.
 */
export async function startProcess<Ready>(options: StartProcessOptions<Ready>): Promise<{ process: ManagedProcess; ready: Ready }> {
  options.signal?.throwIfAborted();
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const managed = manage(options.name, child);
  const lines: string[] = [];
  let resolveReady: ((ready: Ready) => void) | undefined;
  const readyFromOutput = new Promise<Ready>((resolve) => (resolveReady = resolve));
  const onLine = (line: string): void => {
    lines.push(line);
    if (lines.length > keptLines) lines.shift();
    managed.remember(line);
    if (resolveReady !== undefined && options.readyWhen !== undefined) {
      const ready = options.readyWhen(line);
      if (ready !== undefined) {
        resolveReady(ready);
        resolveReady = undefined;
        return;
      }
    }
    if (resolveReady === undefined) options.onLine?.(line);
  };
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream, crlfDelay: Infinity }).on("line", onLine);

  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProcessStartError(`${options.name} was not ready within ${options.readyTimeoutMs} ms`)), options.readyTimeoutMs);
  const relay = (): void => abort.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", relay, { once: true });
  try {
    const spawned = new Promise<never>((_resolve, reject) => {
      child.once("error", (error) => reject(new ProcessStartError(`${options.name} could not start (${options.command}): ${error.message}`)));
    });
    const exitedEarly = managed.exited.then((exit) => {
      throw new ProcessStartError(`${options.name} exited before it was ready (code ${exit.code}, signal ${exit.signal})`);
    });
    const aborted = new Promise<never>((_resolve, reject) => {
      abort.signal.addEventListener("abort", () => reject(abort.signal.reason), { once: true });
    });
    const ready = options.waitUntilReady !== undefined ? options.waitUntilReady(abort.signal) : readyFromOutput;
    const value = await Promise.race([ready, spawned, exitedEarly, aborted]);
    resolveReady = undefined;
    return { process: managed, ready: value };
  } catch (error) {
    await managed.stop({ graceMs: 1_000 });
    const detail = lines.length === 0 ? "" : `\n--- last output of ${options.name} ---\n${lines.join("\n")}`;
    throw new ProcessStartError(`${(error as Error).message ?? String(error)}${detail}`, { cause: error });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", relay);
    // Whatever the outcome, these listeners must not keep a rejected race alive.
    abort.abort();
  }
}

function manage(name: string, child: ChildProcess): ManagedProcess & { remember(line: string): void } {
  const lines: string[] = [];
  let hasExited = false;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once("exit", (code, signal) => {
      hasExited = true;
      resolve({ code, signal });
    });
    // A process that never spawned never exits; report it as exited so nobody waits on it.
    child.once("error", () => {
      if (child.pid === undefined) {
        hasExited = true;
        resolve({ code: null, signal: null });
      }
    });
  });
  return {
    name,
    pid: child.pid ?? -1,
    exited,
    get hasExited() {
      return hasExited;
    },
    remember(line: string) {
      lines.push(line);
      if (lines.length > keptLines) lines.shift();
    },
    recentOutput: () => lines.join("\n"),
    async stop(options = {}) {
      if (hasExited) return exited;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), options.graceMs ?? 12_000);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}
