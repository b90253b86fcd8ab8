// The one place the browser tests get their server from: the real demo server (apps/server), built,
// run as a child process on an ephemeral port with the harness emulator and its demo scenarios, and
// serving this package's dist under /dojo/. close() stops it with SIGTERM, as a user's Ctrl+C would,
// and checks that it exited cleanly and that every harness process it started is gone. It serves a
// copy of dist, so a build elsewhere meanwhile does not affect the tests.
// DOJO_TEST_SERVER_URL points the tests at a server that is already running instead (for example
// `pnpm start` on :8027); that server must run the emulator and serve this package's dist.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { descendantPids, isProcessAlive } from "@ag-ui-antigravity/testing";

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 — the dojo is at `${baseUrl}/dojo/`. */
  baseUrl: string;
  /** Stops the server; rejects if it did not exit cleanly or left a process behind. */
  close(): Promise<void>;
  /** The server's output so far (JSON log lines), for failure messages. */
  output(): string;
}

export const dojoDistDirectory = fileURLToPath(new URL("../../dist/", import.meta.url));
export const serverMainPath = fileURLToPath(new URL("../../../server/dist/main.js", import.meta.url));

/**
 * How long each agentic_generative_ui step takes. Long enough that a run is still streaming when the
 * Stop test clicks Stop on a loaded machine (four steps: 2.4 s), short enough to keep the suite quick.
 */
export const taskStepMs = 600;

const startupTimeoutMs = 30_000;
/** The server promises to stop within 10 s of SIGTERM; a little slack for a loaded machine. */
const shutdownTimeoutMs = 15_000;

function describeProcess(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`;
  } catch {
    return String(pid);
  }
}

/** Waits (polling /proc) until none of `pids` is alive; returns the survivors after `timeoutMs`. */
async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}

export function startServer(): Promise<RunningServer> {
  const runningUrl = process.env["DOJO_TEST_SERVER_URL"];
  if (runningUrl !== undefined && runningUrl !== "") {
    return Promise.resolve({ baseUrl: runningUrl.replace(/\/+$/, ""), close: async () => undefined, output: () => "" });
  }
  return startDemoServer();
}

/** Starts `node apps/server/dist/main.js` on 127.0.0.1 with PORT=0 and reads its URL from its log. */
export async function startDemoServer(): Promise<RunningServer> {
  if (!existsSync(serverMainPath)) throw new Error(`${serverMainPath} is missing: build apps/server first (turbo's test task does)`);
  // The server gets a copy of dist: a build started elsewhere meanwhile (vite empties dist first)
  // must not pull the page out from under the tests.
  const servedDist = mkdtempSync(join(tmpdir(), "dojo-dist-"));
  cpSync(dojoDistDirectory, servedDist, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, [serverMainPath], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      ANTIGRAVITY_DEMO_HARNESS: "emulator",
      DOJO_DIST_DIR: servedDist,
      DEMO_TASK_STEP_MS: String(taskStepMs),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer): void => {
    output += chunk.toString("utf8");
    // Keep the tail only: a long suite logs every run.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`the server printed no "listening on" line within ${startupTimeoutMs} ms; output:\n${output}`)), startupTimeoutMs);
    const onData = (): void => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match !== null) finish(match[1] as string);
    };
    const onExit = (code: number | null): void => finish(new Error(`the server exited (code ${code}) before listening; output:\n${output}`));
    function finish(result: string | Error): void {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      if (typeof result === "string") resolve(result);
      else {
        child.kill("SIGKILL");
        rmSync(servedDist, { recursive: true, force: true });
        reject(result);
      }
    }
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });

  return {
    baseUrl,
    output: () => output,
    close: async () => {
      try {
        await stop();
      } finally {
        rmSync(servedDist, { recursive: true, force: true });
      }
    },
  };

  /** SIGTERM, as a user's Ctrl+C would; then the checks that nothing outlived the server. */
  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server died during the tests; output:\n${output}`);
    // Everything the server started (its harness processes), taken just before the signal.
    const harnessPids = descendantPids(child.pid as number);
    const startedAt = Date.now();
    child.kill("SIGTERM");
    const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), shutdownTimeoutMs).unref());
    const result = await Promise.race([exited, timeout]);
    const survivors = await waitForExit(harnessPids, 3_000);
    if (result === "timeout" || survivors.length > 0) {
      // Clean up what this suite started before failing, so nothing outlives it.
      child.kill("SIGKILL");
      for (const pid of survivors) process.kill(pid, "SIGKILL");
    }
    if (result === "timeout") throw new Error(`the server did not exit within ${shutdownTimeoutMs} ms of SIGTERM; output:\n${output.slice(-5_000)}`);
    if (survivors.length > 0) throw new Error(`processes the server started outlived it:\n${survivors.map(describeProcess).join("\n")}`);
    if (result.code !== 0) throw new Error(`the server exited with ${result.code ?? result.signal} after SIGTERM; output:\n${output.slice(-5_000)}`);
    const stoppedInMs = Date.now() - startedAt;
    if (stoppedInMs > 10_000) throw new Error(`the server took ${stoppedInMs} ms to stop (it promises 10 s)`);
  }
}
