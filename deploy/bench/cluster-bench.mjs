#!/usr/bin/env node
// The cluster's figures for BENCHMARKS.md (section 5), run by benchmarks/bench/run-benchmarks.mjs:
// throughput through HAProxy with 1 and 3 replicas, failover time after kill -9 of a replica (kill →
// the next successful turn of each of its threads, sent at once: no client retry, every HTTP status
// the clients saw counted), and Redis commands per run (first, later, and with auth on: the owner
// claim). Prints one `RESULT {json}` line. Real redis-server and haproxy; replicas on the emulator.
import { spawnSync } from "node:child_process";
import { HttpAgent } from "@ag-ui/client";
import { startCluster } from "../dist/index.js";

const threadsPerLevel = Number(process.env.BENCH_CLUSTER_THREADS ?? 24);
const turnsPerThread = Number(process.env.BENCH_CLUSTER_TURNS ?? 3);
const concurrency = Number(process.env.BENCH_CLUSTER_CONCURRENCY ?? 12);
const replicaTtlMs = 3_000;
// CLIENT_LIMITS off: one load generator's address runs `concurrency` turns at once, past one client's share (8), on purpose.
const replicaEnv = { ANTIGRAVITY_DEMO_HARNESS: "emulator", ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0", REPLICA_TTL_MS: String(replicaTtlMs), LOG_LEVEL: "info", CLIENT_LIMITS: "off" };
// The failover phase's replicas also take a bearer token, so runs with an owner are measured too.
const benchToken = "cluster-bench-token-0123456789";
const failoverEnv = { ...replicaEnv, AUTH_TOKENS: `bench:${benchToken}` };

const percentile = (values, p) => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** Every HTTP status a client of the bench got (failover: none may be 4xx or 5xx). */
const statuses = new Map();

/** One turn through the proxy; resolves with the replica that served it, or throws. */
async function turn(url, agent, text) {
  let replica = null;
  agent.fetch = async (input, init) => {
    const response = await fetch(input, init);
    replica = response.headers.get("x-ag-ui-antigravity-replica");
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    return response;
  };
  agent.addMessage({ id: `${agent.threadId}-${agent.messages.length}`, role: "user", content: text });
  let failure;
  await agent.runAgent({}, { onRunErrorEvent: ({ event }) => void (failure = event.code ?? "RUN_ERROR") });
  if (failure !== undefined) throw new Error(failure);
  return replica;
}

const newAgent = (url, threadId, headers) => new HttpAgent({ url, threadId, ...(headers === undefined ? {} : { headers }) });

async function inParallel(items, width, work) {
  const queue = [...items];
  const results = [];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) results.push(await work(item));
    }),
  );
  return results;
}

function redisCommands(redisUrl) {
  const port = new URL(redisUrl).port;
  const info = spawnSync("redis-cli", ["-p", port, "INFO", "stats"], { encoding: "utf8" }).stdout;
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

/** Redis commands per run while `work` runs `runs` runs, the heartbeats of the same span subtracted. */
async function roundTripsOf(redisUrl, heartbeatsPerMs, label, runs, work) {
  const before = redisCommands(redisUrl);
  const begin = performance.now();
  await work();
  const commands = redisCommands(redisUrl) - before - heartbeatsPerMs * (performance.now() - begin);
  return { label, perRun: commands / runs };
}

/** Redis commands per millisecond while nothing runs: the replicas' heartbeats. */
async function heartbeatRate(redisUrl) {
  const start = redisCommands(redisUrl);
  const begin = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return (redisCommands(redisUrl) - start) / (performance.now() - begin);
}

async function throughput(replicas) {
  const cluster = await startCluster({ replicas, port: 0, replicaEnv });
  try {
    const url = `${cluster.url}/agentic_chat`;
    const agents = Array.from({ length: threadsPerLevel }, (_, index) => newAgent(url, `bench-${replicas}-${index}`));
    const heartbeats = await heartbeatRate(cluster.redisUrl);
    // Warm-up: each thread's first turn (cold sessions, harness spawns) is not counted in the time.
    const firstRuns = await roundTripsOf(cluster.redisUrl, heartbeats, "first run of a thread", agents.length, () => inParallel(agents, concurrency, (agent) => turn(url, agent, "Good morning, this is the first turn.")));
    const begin = performance.now();
    const jobs = agents.flatMap((agent) => Array.from({ length: turnsPerThread }, (_, index) => ({ agent, index })));
    // One turn per thread at a time: a thread's turns are sequential, threads run side by side.
    const byThread = new Map(agents.map((agent) => [agent, jobs.filter((job) => job.agent === agent)]));
    const laterRuns = await roundTripsOf(cluster.redisUrl, heartbeats, "later run of a thread", jobs.length, () =>
      inParallel([...byThread.values()], concurrency, async (threadJobs) => {
        for (const job of threadJobs) await turn(url, job.agent, `Follow-up number ${job.index}.`);
      }),
    );
    const seconds = (performance.now() - begin) / 1000;
    return { replicas, turns: jobs.length, seconds, turnsPerSecond: jobs.length / seconds, roundTrips: [firstRuns, laterRuns] };
  } finally {
    await cluster.stop();
  }
}

async function failoverAndRoundTrips() {
  const cluster = await startCluster({ replicas: 3, port: 0, replicaEnv: failoverEnv });
  try {
    const url = `${cluster.url}/agentic_chat`;
    // Redis round trips: commands during runs minus the heartbeats of the same span.
    const heartbeatsPerMs = await heartbeatRate(cluster.redisUrl);
    const agents = Array.from({ length: threadsPerLevel }, (_, index) => newAgent(url, `failover-${index}`, { authorization: `Bearer ${benchToken}` }));
    const measure = (label, work) => roundTripsOf(cluster.redisUrl, heartbeatsPerMs, label, agents.length, work);
    const home = new Map();
    // AUTH_TOKENS is on in this cluster: each run also claims (or confirms) its thread's owner.
    const firstTurns = await measure("first run of a thread, auth on", () => inParallel(agents, concurrency, async (agent) => home.set(agent, await turn(url, agent, "My name is Ada."))));
    const laterTurns = await measure("later run of a thread, auth on", () => inParallel(agents, concurrency, (agent) => turn(url, agent, "And I like tea.")));

    const victim = cluster.replicas.find((replica) => [...home.values()].includes(replica.id));
    const moved = agents.filter((agent) => home.get(agent) === victim.id);
    statuses.clear();
    const killedAt = performance.now();
    process.kill(victim.pid, "SIGKILL");
    // Each moved thread's next turn, sent at once and once: the server side waits out the dead
    // replica's lease and takes the thread over. A failure is counted, never retried.
    const outcomes = await Promise.all(
      moved.map(async (agent) => {
        try {
          await turn(url, agent.clone(), "Please recap.");
          return { ms: performance.now() - killedAt };
        } catch (error) {
          return { ms: Number.NaN, error: String(error?.message ?? error) };
        }
      }),
    );
    const times = outcomes.filter((outcome) => outcome.error === undefined).map((outcome) => outcome.ms);
    return {
      roundTrips: [firstTurns, laterTurns],
      failover: {
        threads: moved.length,
        succeeded: times.length,
        failures: outcomes.flatMap((outcome) => (outcome.error === undefined ? [] : [outcome.error])),
        statuses: Object.fromEntries(statuses),
        p50Ms: percentile(times, 50),
        p99Ms: percentile(times, 99),
        maxMs: times.length === 0 ? undefined : Math.max(...times),
        replicaTtlMs,
      },
    };
  } finally {
    await cluster.stop();
  }
}

/** Runs one phase; a failure names the phase last on stderr, where bench/run-benchmarks.mjs shows it. */
async function phase(name, work) {
  try {
    return await work();
  } catch (error) {
    process.stderr.write(`\ncluster bench: ${name} failed: ${error?.stack ?? error}\n`);
    process.exit(1);
  }
}

const one = await phase("throughput with 1 replica", () => throughput(1));
const three = await phase("throughput with 3 replicas", () => throughput(3));
const { roundTrips, failover } = await phase("failover and Redis round trips", failoverAndRoundTrips);
console.log(`RESULT ${JSON.stringify({ throughput: [one, three], threadsPerLevel, turnsPerThread, concurrency, roundTrips, failover })}`);
