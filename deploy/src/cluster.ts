import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { findFreePort } from "./free-port.js";
import { renderHaproxyConfig } from "./haproxy-config.js";
import { startProcess, type ManagedProcess } from "./managed-process.js";
import { ensureClusterExecutables } from "./system-packages.js";

export interface ClusterOptions {
  /** How many replicas of apps/server; default 3. */
  replicas?: number;
  /** HAProxy's port; 0 picks a free one. Default 8040. */
  port?: number;
  /** Extra environment for every replica (e.g. `ANTIGRAVITY_DEMO_HARNESS`, emulator knobs). */
  replicaEnv?: Record<string, string>;
  /**
   * Where each process's log goes (`replica-<i>.log`, `redis.log`, `haproxy.log`): created when
   * missing and kept after `stop()`. Default: inside the work directory, removed with it.
   */
  logDirectory?: string;
  /** Progress messages (`pnpm cluster` prints them). */
  log?: (message: string) => void;
  signal?: AbortSignal;
}

export interface ClusterReplica {
  /** 1-based, as `pnpm cluster` prints it. */
  index: number;
  /** Its `x-ag-ui-antigravity-replica` header and HAProxy server name. */
  id: string;
  pid: number;
  port: number;
  /** The replica itself, bypassing the proxy. */
  url: string;
  process: ManagedProcess;
  /** Its log (JSON lines). */
  logPath: string;
}

export interface Cluster {
  /** The one address clients use: HAProxy. */
  url: string;
  port: number;
  redisUrl: string;
  /** The save dir every replica shares. */
  saveDirectory: string;
  /** Holds the save dir and the generated haproxy.cfg (and the logs, without `logDirectory`); removed by `stop()`. */
  workDirectory: string;
  /** Where the processes' logs are: `logDirectory` when given (kept), else inside the work directory. */
  logDirectory: string;
  haproxyConfigPath: string;
  replicas: readonly ClusterReplica[];
  redis: ManagedProcess;
  haproxy: ManagedProcess;
  /** Stops HAProxy, the replicas (which stop their harnesses) and Redis, then removes the work directory. Idempotent. */
  stop(): Promise<void>;
}

export const defaultClusterPort = 8040;
export const defaultReplicaCount = 3;
/** Heartbeats every second; a replica is declared dead three seconds after its last one. */
export const defaultReplicaTtlMs = 3_000;
const host = "127.0.0.1";

function serverMainPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@ag-ui-antigravity/server/package.json")), "dist", "main.js");
}

/** Resolves once `url` answers 200, polling; HAProxy says nothing when it is ready. */
async function waitForOk(url: string, signal: AbortSignal): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(1_000)]) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100, undefined, { signal });
  }
}

/**
 * Starts a local cluster on 127.0.0.1: Redis, N replicas of apps/server sharing one save dir and
 * Redis, and HAProxy in front routing each thread to one replica. Everything it starts, it stops.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const replicaCount = options.replicas ?? defaultReplicaCount;
  const log = options.log ?? (() => undefined);
  const executables = ensureClusterExecutables(log);
  const workDirectory = await mkdtemp(join(tmpdir(), "ag-ui-cluster-"));
  const saveDirectory = join(workDirectory, "save");
  await mkdir(saveDirectory);
  const logDirectory = options.logDirectory ?? workDirectory;
  await mkdir(logDirectory, { recursive: true });

  const started: ManagedProcess[] = [];
  const logStreams: WriteStream[] = [];
  /** Appends every line a process prints to `<name>.log`, before and after it is ready. */
  const logFile = (name: string): ((line: string) => void) => {
    const stream = createWriteStream(join(logDirectory, `${name}.log`), { flags: "a" });
    logStreams.push(stream);
    return (line) => void stream.write(`${line}\n`);
  };
  let stopping: Promise<void> | undefined;
  const stopAll = async (): Promise<void> => {
    // Front to back: no new runs reach a replica that is stopping, and Redis outlives the replicas.
    const byRole = (role: string) => started.filter((process) => process.name.startsWith(role));
    await Promise.all(byRole("haproxy").map((process) => process.stop({ graceMs: 2_000 })));
    await Promise.all(byRole("replica").map((process) => process.stop({ graceMs: 12_000 })));
    await Promise.all(byRole("redis").map((process) => process.stop({ graceMs: 5_000 })));
    await Promise.all(logStreams.map((stream) => new Promise<void>((resolve) => stream.end(resolve))));
    await rm(workDirectory, { recursive: true, force: true });
  };
  // If this process ends before stop() is done (an uncaught error, process.exit), nothing it started
  // may outlive it: Redis in particular has no way to notice that its parent is gone.
  const killLeftovers = (): void => {
    for (const managed of started) {
      if (managed.hasExited || managed.pid < 0) continue;
      try {
        process.kill(managed.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    // Nor may its work directory (a kept logDirectory is elsewhere and stays). Synchronous: this
    // runs as the process exits.
    try {
      rmSync(workDirectory, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // A file a dying replica was still writing: the directory is in the temporary folder.
    }
  };
  process.once("exit", killLeftovers);
  const stop = (): Promise<void> =>
    (stopping ??= stopAll().finally(() => {
      process.off("exit", killLeftovers);
    }));

  try {
    const redisPort = await findFreePort();
    const redisLog = logFile("redis");
    const redis = await startProcess({
      name: "redis",
      command: executables["redis-server"],
      // In memory only: the cluster's state lives as long as the cluster.
      args: ["--port", String(redisPort), "--bind", host, "--save", "", "--appendonly", "no", "--dir", workDirectory, "--loglevel", "notice"],
      readyWhen: (line) => {
        redisLog(line);
        return /Ready to accept connections/.test(line) ? true : undefined;
      },
      onLine: (line) => redisLog(line),
      readyTimeoutMs: 15_000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    started.push(redis.process);
    const redisUrl = `redis://${host}:${redisPort}`;
    log(`redis pid ${redis.process.pid} port ${redisPort}`);

    const main = serverMainPath();
    const replicas = await Promise.all(
      Array.from({ length: replicaCount }, async (_unused, offset): Promise<ClusterReplica> => {
        const index = offset + 1;
        const id = `replica-${index}`;
        const logPath = join(logDirectory, `${id}.log`);
        const writeLog = logFile(id);
        const replica = await startProcess({
          name: id,
          command: process.execPath,
          args: [main],
          cwd: dirname(dirname(main)),
          env: {
            ...process.env,
            ...options.replicaEnv,
            PORT: "0",
            HOST: host,
            LOG_LEVEL: options.replicaEnv?.["LOG_LEVEL"] ?? "info",
            SAVE_DIR: saveDirectory,
            REPLICA_ID: id,
            REDIS_URL: redisUrl,
            // HAProxy on loopback forwards each client's address (option forwardfor): client limits count per client, not per proxy.
            TRUST_PROXY: options.replicaEnv?.["TRUST_PROXY"] ?? "loopback",
            // A replica silent for this long is dead and its threads' leases are free: a run for a
            // crashed replica's thread waits at most about this long, then takes the thread over.
            REPLICA_TTL_MS: options.replicaEnv?.["REPLICA_TTL_MS"] ?? String(defaultReplicaTtlMs),
          },
          readyWhen: (line) => {
            writeLog(line);
            const match = /listening on http:\/\/[\d.]+:(\d+)/.exec(line);
            return match?.[1] === undefined ? undefined : Number(match[1]);
          },
          onLine: writeLog,
          readyTimeoutMs: 120_000,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        started.push(replica.process);
        return { index, id, pid: replica.process.pid, port: replica.ready, url: `http://${host}:${replica.ready}`, process: replica.process, logPath };
      }),
    );

    const port = options.port === undefined ? defaultClusterPort : options.port === 0 ? await findFreePort() : options.port;
    const haproxyConfigPath = join(workDirectory, "haproxy.cfg");
    await writeFile(haproxyConfigPath, renderHaproxyConfig({ bindHost: host, bindPort: port, servers: replicas.map((replica) => ({ name: replica.id, host, port: replica.port })) }));
    const url = `http://${host}:${port}`;
    const haproxy = await startProcess({
      name: "haproxy",
      command: executables.haproxy,
      // -db: stay in the foreground, so stopping this process stops HAProxy.
      args: ["-db", "-f", haproxyConfigPath],
      waitUntilReady: (signal) => waitForOk(`${url}/healthz`, signal),
      onLine: logFile("haproxy"),
      readyTimeoutMs: 15_000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    started.push(haproxy.process);
    return { url, port, redisUrl, saveDirectory, workDirectory, logDirectory, haproxyConfigPath, replicas, redis: redis.process, haproxy: haproxy.process, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
