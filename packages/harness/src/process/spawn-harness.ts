import type { Logger } from "@ag-ui-antigravity/foundation";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { HarnessError } from "../errors/harness-error.js";
import { trackProcessGroup } from "./child-reaper.js";
import type { HarnessProcessExit } from "./harness-process-options.js";
import { StderrRing } from "./stderr-ring.js";

/** A harness child just spawned: its streams wired, its end observable. */
export interface SpawnedHarness {
  child: ChildProcessWithoutNullStreams;
  stderr: StderrRing;
  /** Resolves when stderr has ended (every line is in the ring). */
  stderrEnded: Promise<void>;
  /** Resolves with the exit code and signal once the child has exited (or failed to spawn). */
  exited: Promise<HarnessProcessExit>;
  /** Rejects with SPAWN_FAILED when the binary could not be executed; never resolves. */
  spawnError: Promise<never>;
}

/**
 * Spawns the harness in its own process group with `environment` (a Node script, the emulator, is
 * run with this Node rather than through its shebang), drains its stderr into a bounded ring from the
 * first byte (an unread pipe blocks the harness), and hands every stderr line to `onStderrLine`.
 * Throws SPAWN_FAILED when spawn itself throws.
 */
export function spawnHarness(
  binaryPath: string,
  options: { environment: NodeJS.ProcessEnv; stderrLines: number | undefined; logger: Logger; onStderrLine: (line: string) => void },
): SpawnedHarness {
  const isScript = /\.(c|m)?js$/.test(binaryPath);
  const command = isScript ? process.execPath : binaryPath;
  const args = isScript ? [binaryPath] : [];
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], detached: process.platform !== "win32", env: options.environment, shell: false, windowsHide: true });
  } catch (error) {
    throw new HarnessError("SPAWN_FAILED", `could not spawn ${binaryPath}: ${String(error)}`, { cause: error });
  }
  const stderr = new StderrRing(options.stderrLines);
  const stderrEnded = new Promise<void>((resolve) => {
    child.stderr.on("data", (chunk: Buffer) => {
      for (const line of stderr.push(chunk)) options.onStderrLine(line);
    });
    child.stderr.once("end", () => {
      stderr.end();
      resolve();
    });
    child.stderr.once("error", () => resolve());
  });
  const exited = new Promise<HarnessProcessExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    // A spawn failure (ENOENT, EACCES) emits 'error' and never 'exit'.
    child.once("error", () => resolve({ code: null, signal: null }));
  });
  if (child.pid !== undefined) trackProcessGroup(child.pid);
  const spawnError = new Promise<never>((_resolve, reject) => {
    child.once("error", (error) => reject(new HarnessError("SPAWN_FAILED", `could not spawn ${binaryPath}: ${error.message}`, { cause: error })));
  });
  spawnError.catch(() => undefined);
  // Writes to a dead child's stdin raise EPIPE asynchronously; the exit path reports the real cause.
  child.stdin.on("error", (error) => options.logger.debug({ error: error.message }, "harness stdin error"));
  return { child, stderr, stderrEnded, exited, spawnError };
}
