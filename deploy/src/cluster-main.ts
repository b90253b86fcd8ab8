// `pnpm cluster`: Redis, N replicas of apps/server and HAProxy on 127.0.0.1, until SIGINT / SIGTERM.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCluster, type Cluster } from "./cluster.js";
import { parseClusterArguments } from "./cluster-arguments.js";

/** Aborted by SIGINT / SIGTERM. */
const aborting = new AbortController();

async function main(): Promise<void> {
  const { replicas, port, logDirectory: askedLogDirectory } = parseClusterArguments(process.argv.slice(2), process.env);
  // The logs outlive the cluster (the work directory does not): what a replica said before it
  // stopped is what someone looks for afterwards.
  const logDirectory = askedLogDirectory ?? (await mkdtemp(join(tmpdir(), "ag-ui-cluster-logs-")));
  console.log(`logs in ${logDirectory} (kept after the cluster stops)`);
  const starting = aborting;
  // Set once started; a signal during startup aborts it instead.
  const running: { cluster?: Cluster } = {};
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the cluster`);
    starting.abort(new Error(`${signal} during startup`));
    // Still starting: the aborted startup stops what it started, then main() ends the process.
    if (running.cluster === undefined) return;
    void running.cluster.stop().then(
      () => {
        console.log(`stopped; the logs stay in ${logDirectory}`);
        process.exit(0);
      },
      (error: unknown) => {
        console.error("the cluster did not stop cleanly:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  const cluster = await startCluster({ replicas, port, logDirectory, log: (message) => console.log(message), signal: starting.signal });
  running.cluster = cluster;
  if (stopping) {
    // The signal came as the last process started.
    await cluster.stop();
    process.exit(0);
  }
  for (const replica of cluster.replicas) {
    console.log(`replica ${replica.index} pid ${replica.pid} port ${replica.port}`);
    void replica.process.exited.then((exit) => {
      if (!stopping) console.warn(`replica ${replica.index} exited (code ${exit.code}, signal ${exit.signal}); HAProxy moves its threads to the others`);
    });
  }
  console.log(`save dir and haproxy.cfg in ${cluster.workDirectory} (removed when the cluster stops); logs in ${cluster.logDirectory}`);
  console.log(`cluster ready on ${cluster.url}`);
}

main().catch((error: unknown) => {
  if (aborting.signal.aborted) process.exit(0);
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
