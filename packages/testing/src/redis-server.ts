import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { portAccepts } from "./port-accepts.js";

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Where the real `redis-server` is (Debian's `redis-server` package; `.ci/run` installs it):
 * REDIS_SERVER_PATH, else PATH, else /usr/bin and /usr/sbin.
 */
export function findRedisServer(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER_PATH,
    ...(process.env.PATH ?? "").split(delimiter).filter((part) => part.length > 0).map((directory) => join(directory, "redis-server")),
    "/usr/bin/redis-server",
    "/usr/sbin/redis-server",
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate.length === 0) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Whether services the tests use (redis-server) must be present: in CI they must, so a missing one fails instead of skipping. */
export function servicesRequired(): boolean {
  return process.env.CI !== undefined || process.env.AG_UI_REQUIRE_SERVICES === "1";
}

/**
 * Why Redis tests cannot run here, or undefined when they can. In CI (`CI` or
 * `AG_UI_REQUIRE_SERVICES=1`, which `.ci/run` sets) a missing binary throws, so the suite fails
 * rather than skipping silently; elsewhere the reason is returned for `describe.skipIf`.
 */
export function redisSkipReason(): string | undefined {
  if (findRedisServer() !== undefined) return undefined;
  const reason = "no redis-server binary (apt-get install -y redis-server, or set REDIS_SERVER_PATH)";
  if (servicesRequired()) throw new Error(`Redis tests must run in CI, but there is ${reason}.`);
  return reason;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killer);
}

/**
 * Starts a real redis-server on 127.0.0.1 at a free port, with its own temporary directory and no
 * persistence, and waits until it accepts connections. Always `stop()` it (afterAll/finally).
 */
export async function startRedisServer(options: { signal?: AbortSignal } = {}): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const directory = mkdtempSync(join(tmpdir(), "redis-test-"));
    const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory, "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    const stop = async (): Promise<void> => {
      await stopProcess(child);
      rmSync(directory, { recursive: true, force: true });
    };
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.exitCode === null && !(await portAccepts(port))) {
      options.signal?.throwIfAborted();
      await delay(25);
    }
    if (child.exitCode === null && (await portAccepts(port))) {
      let stopping: Promise<void> | undefined;
      return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid ?? -1, stop: () => (stopping ??= stop()) };
    }
    await stop();
    // Another process took the port between our probe and redis binding it: try another.
    if (attempt >= 3) throw new Error(`redis-server did not start: ${stderr.trim()}`);
  }
}
