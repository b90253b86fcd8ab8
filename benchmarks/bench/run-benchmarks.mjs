#!/usr/bin/env node
// `pnpm bench` for the whole stack: runs each benchmark in its own Node process (bounded in time),
// runs the pool package's own bench for the pooling figures, prints one table per question and
// writes BENCHMARKS.md at the repository root with the anchors each figure is compared with.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "./lib/common.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const started = performance.now();
const loadBefore = loadavg()[0];

/** Runs a script with a hard deadline; returns its stdout (or throws with its stderr tail). */
function runScript(script, { args = [], env = {}, timeoutMs, cwd = here }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${script} ended with ${signal ?? code}:\n${stderr}`));
    });
  });
}

const resultOf = (stdout) => JSON.parse(stdout.split("\n").reverse().find((line) => line.startsWith("RESULT ")).slice("RESULT ".length));

// The load average (1 min) when each section started and ended, by section number: the machine is shared.
const sectionLoad = new Map();
const loadNote = (number) => {
  const load = sectionLoad.get(number);
  return load === undefined ? "" : `Load average (1 min) while it ran: ${load.start.toFixed(1)} at its start, ${load.end.toFixed(1)} at its end (2 cores, shared).`;
};

async function step(name, work) {
  const begin = performance.now();
  const loadAtStart = loadavg()[0];
  process.stdout.write(`… ${name}\n`);
  try {
    const value = await work();
    sectionLoad.set(name.split(".")[0], { start: loadAtStart, end: loadavg()[0] });
    process.stdout.write(`  done in ${((performance.now() - begin) / 1000).toFixed(0)} s\n`);
    return value;
  } catch (error) {
    process.stdout.write(`  FAILED: ${String(error).slice(0, 2_000)}\n`);
    return undefined;
  }
}

// BENCH_ONLY=1,5 runs those benchmarks alone and replaces only their sections of BENCHMARKS.md.
const only = process.env.BENCH_ONLY === undefined ? undefined : new Set(process.env.BENCH_ONLY.split(",").map((part) => part.trim()));
const selected = (number) => only === undefined || only.has(String(number));
const skipped = async () => undefined;

const overhead = await step("1. adapter overhead (10 000-delta turn vs the bare relay)", !selected(1) ? skipped : async () => resultOf(await runScript(join(here, "overhead.mjs"), { timeoutMs: 400_000 })));
const concurrency = await step("2. concurrency (100 and 500 threads)", !selected(2) ? skipped : async () => resultOf(await runScript(join(here, "concurrency.mjs"), { timeoutMs: 440_000 })));
const memory = await step("3. memory (thousands of idle and parked sessions)", !selected(3) ? skipped : async () => resultOf(await runScript(join(here, "memory.mjs"), { timeoutMs: 320_000 })));
const turnCost = await step("6. what a turn costs the server (echo, new threads, bursts, CPU, allocations, idle RSS)", !selected(6) ? skipped : async () =>
  resultOf(await runScript(join(here, "turn-cost.mjs"), { timeoutMs: 1_520_000 })),
);
const hostile = await step("7. a hostile 1 MiB tool schema while /healthz is probed", !selected(7) ? skipped : async () =>
  resultOf(await runScript(join(here, "hostile-schema.mjs"), { timeoutMs: 240_000 })),
);
const poolOutput = await step("4. pooling (packages/pool/bench/run-bench.mjs)", !selected(4) ? skipped : () =>
  runScript(join(repoRoot, "packages", "pool", "bench", "run-bench.mjs"), { cwd: join(repoRoot, "packages", "pool"), timeoutMs: 420_000 }),
);
const cluster = await step("5. cluster (deploy/bench/cluster-bench.mjs: HAProxy + Redis + replicas)", !selected(5) ? skipped : async () =>
  resultOf(await runScript(join(repoRoot, "deploy", "bench", "cluster-bench.mjs"), { cwd: join(repoRoot, "deploy"), timeoutMs: 600_000 })),
);

// ---------------------------------------------------------------- tables

const fixed = (value, digits = 0) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(digits));
const ratio = (value, anchor) => (value === undefined || anchor === undefined || anchor === 0 ? "n/a" : `${(value / anchor).toFixed(2)}×`);
const table = (header, rows) => [`| ${header.join(" | ")} |`, `|${header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");

const sections = [];

if (overhead !== undefined) {
  const { adapter, relay, pacedAdapter, pacedRelay, pacedRawAdapter, pacedProcessAdapter, pacedProcessRelay } = overhead;
  sections.push(`## 1. Adapter overhead: one turn of 10 000 deltas

One turn of 10 000 one-character text deltas from one emulator, read by a client in the same process.
**Adapter**: harness client → translator → \`AntigravityAgent\` → Express SSE → \`HttpAgent\`. **Anchor:
the bare relay** (\`bench/lib/bare-relay.mjs\`): the same emulator's WebSocket frames written to an SSE
response as they come and read by a bare \`fetch\` reader, with no parsing, translation, session or pool.
Both run on a conversation opened beforehand and warmed up by one echo turn and one unmeasured burst each (a first burst
measured cold charged V8's compiles of the burst path to the adapter, which has far more of it), alternating. The latency of an event is the time from its
frame's arrival in the server process (a tap on \`ws\`, which notes the time and the text length and keeps no
frame: holding a burst's 50 MB of frames until the turn ended slowed the garbage collector's full collections,
most for the path with more live heap, the adapter) to the event's arrival at the client. Between turns
\`HttpAgent\` keeps only the thread's user messages: it clones its whole message list for every event it
applies, so with every 10 000-character reply kept each burst cost the client more than the last (bench/overhead.mjs
gives the figures of both).

- **Burst** (${overhead.rounds} rounds each, medians): the emulator sends as fast as it can
  (\`ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS=0\`). Wall time is throughput; the latency is mostly
  queueing behind earlier frames, i.e. how far each path falls behind a burst.
- **Paced** (${overhead.pacedRounds} round each): one delta per millisecond (about the rate of a fast model), so
  neither path needs to queue and the latency is each path's own work per event. The adapter is read
  twice: by \`HttpAgent\` and by a raw SSE client like the relay's (the "raw SSE client" rows). Then
  both paths are paced again with the server in its own process (\`bench/lib/stack-server.mjs\`, the same
  agent and relay) and the raw client in this one, so no client's work or garbage shares the server's
  heap (the "server in its own process" rows, against the relay in that process; the tap is in the
  server, and both sides' times are on the machine's monotonic clock).

${table(["", "adapter", "bare relay (anchor)", "ratio", "added by the adapter"], [
    ["burst: wall time, request to end of stream (ms)", fixed(adapter.wallMs), fixed(relay.wallMs), ratio(adapter.wallMs, relay.wallMs), fixed(adapter.wallMs - relay.wallMs)],
    ["burst: time to the last text delta (ms)", fixed(adapter.toLastDeltaMs), fixed(relay.toLastDeltaMs), ratio(adapter.toLastDeltaMs, relay.toLastDeltaMs), fixed(adapter.toLastDeltaMs - relay.toLastDeltaMs)],
    ["burst: wall time per delta (µs)", fixed((adapter.toLastDeltaMs / adapter.deltas) * 1000, 1), fixed((relay.toLastDeltaMs / relay.deltas) * 1000, 1), ratio(adapter.toLastDeltaMs, relay.toLastDeltaMs), fixed(((adapter.toLastDeltaMs - relay.toLastDeltaMs) / adapter.deltas) * 1000, 1)],
    ["burst: latency per event, p50 / p99 (ms)", `${fixed(adapter.latencyP50Ms, 1)} / ${fixed(adapter.latencyP99Ms, 1)}`, `${fixed(relay.latencyP50Ms, 1)} / ${fixed(relay.latencyP99Ms, 1)}`, `${ratio(adapter.latencyP50Ms, relay.latencyP50Ms)} / ${ratio(adapter.latencyP99Ms, relay.latencyP99Ms)}`, `${fixed(adapter.latencyP50Ms - relay.latencyP50Ms, 1)} / ${fixed(adapter.latencyP99Ms - relay.latencyP99Ms, 1)}`],
    ["paced: wall time (ms)", fixed(pacedAdapter.wallMs), fixed(pacedRelay.wallMs), ratio(pacedAdapter.wallMs, pacedRelay.wallMs), fixed(pacedAdapter.wallMs - pacedRelay.wallMs)],
    ["paced: latency per event, p50 (ms)", fixed(pacedAdapter.latencyP50Ms, 2), fixed(pacedRelay.latencyP50Ms, 2), ratio(pacedAdapter.latencyP50Ms, pacedRelay.latencyP50Ms), fixed(pacedAdapter.latencyP50Ms - pacedRelay.latencyP50Ms, 2)],
    ["paced: latency per event, p99 (ms)", fixed(pacedAdapter.latencyP99Ms, 2), fixed(pacedRelay.latencyP99Ms, 2), ratio(pacedAdapter.latencyP99Ms, pacedRelay.latencyP99Ms), fixed(pacedAdapter.latencyP99Ms - pacedRelay.latencyP99Ms, 2)],
    ...(pacedRawAdapter === undefined
      ? []
      : [
          ["paced, raw SSE client: latency per event, p50 (ms)", fixed(pacedRawAdapter.latencyP50Ms, 2), fixed(pacedRelay.latencyP50Ms, 2), ratio(pacedRawAdapter.latencyP50Ms, pacedRelay.latencyP50Ms), fixed(pacedRawAdapter.latencyP50Ms - pacedRelay.latencyP50Ms, 2)],
          ["paced, raw SSE client: latency per event, p99 (ms)", fixed(pacedRawAdapter.latencyP99Ms, 2), fixed(pacedRelay.latencyP99Ms, 2), ratio(pacedRawAdapter.latencyP99Ms, pacedRelay.latencyP99Ms), fixed(pacedRawAdapter.latencyP99Ms - pacedRelay.latencyP99Ms, 2)],
        ]),
    ...(pacedProcessAdapter === undefined || pacedProcessRelay === undefined
      ? []
      : [
          ["paced, server in its own process: wall time (ms)", fixed(pacedProcessAdapter.wallMs), fixed(pacedProcessRelay.wallMs), ratio(pacedProcessAdapter.wallMs, pacedProcessRelay.wallMs), fixed(pacedProcessAdapter.wallMs - pacedProcessRelay.wallMs)],
          ["paced, server in its own process: latency per event, p50 (ms)", fixed(pacedProcessAdapter.latencyP50Ms, 2), fixed(pacedProcessRelay.latencyP50Ms, 2), ratio(pacedProcessAdapter.latencyP50Ms, pacedProcessRelay.latencyP50Ms), fixed(pacedProcessAdapter.latencyP50Ms - pacedProcessRelay.latencyP50Ms, 2)],
          ["paced, server in its own process: latency per event, p99 (ms)", fixed(pacedProcessAdapter.latencyP99Ms, 2), fixed(pacedProcessRelay.latencyP99Ms, 2), ratio(pacedProcessAdapter.latencyP99Ms, pacedProcessRelay.latencyP99Ms), fixed(pacedProcessAdapter.latencyP99Ms - pacedProcessRelay.latencyP99Ms, 2)],
        ]),
    ["text deltas received (text frames sent)", `${adapter.deltas} (${adapter.textFrames})`, `${relay.deltas} (${relay.textFrames})`, "", ""],
  ])}

${loadNote("1")}

Notes. An adapter run ends on the harness's final \`STATE_FULLY_IDLE\`, as the relay does (no quiet
period after it any more; benchmark 6 has the before/after). Every
harness frame repeats the whole text so far (as the real harness does), so the relay forwards about
50 MB for this turn where the adapter sends 10 000 small deltas; the adapter parses and validates every
one of those frames (a text or thinking frame is cut from its bytes, so its cumulative text is not
built twice per frame and the schema walk is skipped). The client here is \`HttpAgent\` in the same
process, so its own event handling counts against the adapter; benchmark 6 reads the stream with a raw
client and profiles the server alone. The reference publishes no overhead figure.

Paced p99: the tail is not queueing in the adapter. Read by \`HttpAgent\` in this process it was
garbage-collector pauses, which earlier runs of this benchmark showed as 3–4 ms added at p99: under \`--trace-gc\`
the paced adapter round showed six old-space mark-compacts of 5–86 ms where the relay's showed one, while the
process's heap grew from about 40 to 70 MB. Two things in the benchmark, not the adapter, were behind it:
\`HttpAgent\` cloned a message list that kept every earlier 10 000-character reply on every event (garbage), and
the tap held every frame of the turn (live heap every collection marked); neither does now (see above). A server in its own process
(bench/lib/stack-server.mjs) keeps its heap at about 21 MiB after each collection, so nothing leaks. What the
raw-client rows add at p99 is mostly the load: the process is descheduled now and then, and the adapter's longer
path per event (its p50 above) is caught more often than the relay's. The SSE writer does not hold events back:
the first event of a tick is written at once; only the events that follow it in the same tick are joined.`);
}

if (concurrency !== undefined) {
  const rows = [];
  for (const level of concurrency) {
    for (const [phase, data] of [["first run (cold)", level.cold], ["second run (warm)", level.warm]]) {
      rows.push([
        `${level.threads} threads, ${phase}`,
        `${data.ok}/${data.ok + data.failed}`,
        fixed(data.wallMs),
        fixed(data.eventsPerSecond),
        fixed(data.ttfeP50Ms),
        fixed(data.ttfeP99Ms),
        fixed(data.runP50Ms),
      ]);
    }
  }
  const rss = concurrency.map((level) => [`${level.threads} threads`, String(level.processes), fixed(level.serverRssMiB), fixed(level.harnessRssMiB), fixed(level.serverRssMiB / level.threads, 2), `${Math.min(50, level.threads)} served, ${Math.max(0, level.threads - 50)} refused`]);
  const warmSingle = overhead?.adapter;
  sections.push(`## 2. Concurrency: 100 and 500 threads at once on one server

One Express server, one \`AntigravityAgent\` (its pool at the default 8 conversations per process,
\`maxSessions\` raised to twice the threads), the load from a separate process
(\`bench/lib/load-client.mjs\`): every thread runs a turn at the same moment (a 600-character reply in 50
deltas, no pacing). The first run of each thread creates its session, conversation and, 8 at a time, the
harness processes; the second runs the same threads again.

${table(["", "completed", "wall time (ms)", "events/s", "first event p50 (ms)", "first event p99 (ms)", "run p50 (ms)"], rows)}

${table(["after the warm round", "harness processes", "server RSS (MiB)", "harness RSS, all processes (MiB)", "server RSS ÷ threads (MiB)", "reference at its default cap (50 sessions per agent, G15)"], rss)}

Anchors: the reference publishes no throughput figure; at its default \`max_sessions=50\` per agent it
refuses every thread past the 50th with \`SESSION_LIMIT\` (G15), so the last column is what it would
serve. ${warmSingle === undefined ? "" : `A warm single run's whole 10 000-delta turn takes ${fixed(warmSingle.wallMs)} ms in benchmark 1, for scale.`}`);
}

if (memory !== undefined) {
  sections.push(`## 3. Memory: idle and parked sessions

${memory.idleCount} idle sessions (each finished one turn) and then ${memory.parkedCount} parked sessions (each waiting on a
frontend tool) held at once by one \`AntigravityAgent\` (in process; the Express binding keeps nothing per
thread, or one owner entry with auth on), on ${memory.processes} emulator processes of 250 conversations. Heap after
full collections, differences divided by the number of sessions added.

${table(["", "adapter heap per session (KiB)", "harness RSS per conversation (KiB, emulator)", "anchor: reference, harness memory per extra idle conversation (d8)", "ratio adapter / anchor"], [
    ["idle session", fixed(memory.heapPerIdleKiB, 1), fixed(memory.harnessPerIdleKiB, 0), "≈ 1 MB (1 024 KiB)", ratio(memory.heapPerIdleKiB, 1024)],
    ["parked session", fixed(memory.heapPerParkedKiB, 1), fixed(memory.harnessPerParkedKiB, 0), "≈ 1 MB (1 024 KiB)", ratio(memory.heapPerParkedKiB, 1024)],
  ])}

${memory.liveSessions} sessions were live at the end (${memory.parkedSessions} parked). The reference publishes no adapter-side figure; its
~1 MB is what one more idle conversation costs a shared real harness process, so the ratio says how
the adapter's own share compares with the harness's.`);
}

if (poolOutput !== undefined) {
  const rows = new Map();
  for (const line of poolOutput.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length >= 4 && /^\d/.test(cells[2] ?? "") && !/^fill-first|^spread/.test(cells[1] ?? "")) rows.set(cells[1], [cells[2], cells[3]]);
  }
  const cell = (label, column) => rows.get(label)?.[column];
  const number = (label, column) => Number.parseFloat(cell(label, column) ?? "NaN");
  const pooled8 = number("total RSS after a turn each, pooled (MB)", 0);
  const separate8 = number("total RSS after a turn each, one per conversation (MB)", 0);
  const pooled64 = number("total RSS after a turn each, pooled (MB)", 1);
  const separate64 = number("total RSS after a turn each, one per conversation (MB)", 1);
  const cold8 = number("first turn of a burst, cold: spawns included (p50 ms)", 0);
  const warm8 = number("first turn of a burst, pre-warmed (p50 ms)", 0);
  const cold64 = number("first turn of a burst, cold: spawns included (p50 ms)", 1);
  const warm64 = number("first turn of a burst, pre-warmed (p50 ms)", 1);
  const together8 = number("ratio together / alone (target <= 1.1)", 0);
  const together64 = number("ratio together / alone (target <= 1.1)", 1);
  sections.push(`## 4. Pooling: processes, memory, cold and pre-warmed first turns

From the pool package's own bench ([\`packages/pool/bench/run-bench.mjs\`](packages/pool/bench/run-bench.mjs),
described in [packages/pool/README.md](packages/pool/README.md#bench)), run as part of this one. Emulator
processes (a Node process each, lighter than the real harness).

${table(["", "8 conversations", "64 conversations", "anchor: reference, 8 conversations (d8, real harness)", "ratio, ours / reference (8)"], [
    ["processes, pooled / one per conversation", `${cell("processes, pooled (8 per process)", 0) ?? "n/a"} / ${cell("processes, one per conversation", 0) ?? "n/a"}`, `${cell("processes, pooled (8 per process)", 1) ?? "n/a"} / ${cell("processes, one per conversation", 1) ?? "n/a"}`, "1 / 8", ""],
    ["total RSS pooled (MB)", fixed(pooled8), fixed(pooled64), "≈ 101 (idle)", ratio(pooled8, 101)],
    ["total RSS one per conversation (MB)", fixed(separate8), fixed(separate64), "≈ 752 (idle)", ratio(separate8, 752)],
    ["memory saved by pooling (separate / pooled)", ratio(separate8, pooled8), ratio(separate64, pooled64), "≈ 7.4×", ratio(separate8 / pooled8, 752 / 101)],
    ["first turn of a burst, cold, spawns included (p50 ms)", fixed(cold8), fixed(cold64), "not published", ""],
    ["first turn of a burst, pre-warmed (p50 ms)", fixed(warm8), fixed(warm64), "not published", ""],
    ["pre-warmed / cold", ratio(warm8, cold8), ratio(warm64, cold64), "not published", ""],
    ["p50 turn, all turning at once / alone", `${fixed(together8, 2)}×`, `${fixed(together64, 2)}×`, "≈ 1.3×", ratio(together8, 1.3)],
  ])}

The pool bench's full output (including placement under churn):

\`\`\`
${poolOutput.trim()}
\`\`\``);
}

if (cluster !== undefined) {
  const [one, three] = cluster.throughput;
  sections.push(`## 5. Cluster: replicas behind HAProxy, failover, Redis round trips

From [\`deploy/bench/cluster-bench.mjs\`](deploy/bench/cluster-bench.mjs): \`pnpm cluster\`'s setup (real
redis-server and haproxy from Debian, replicas of apps/server on the emulator with no token delay),
driven through the proxy by \`HttpAgent\`. ${cluster.threadsPerLevel} threads, ${cluster.concurrency} turning at
once, ${cluster.turnsPerThread} timed turns each after an untimed first turn.

${table(["", "1 replica", "3 replicas", "3 / 1"], [
    ["turns per second through HAProxy", fixed(one.turnsPerSecond, 1), fixed(three.turnsPerSecond, 1), ratio(three.turnsPerSecond, one.turnsPerSecond)],
    ["wall time (s)", fixed(one.seconds, 1), fixed(three.seconds, 1), ""],
  ])}

This machine has ${availableParallelism()} cores, shared with the load generator, HAProxy, Redis and every
emulator process, so three replicas cannot do three times the work of one here: the ratio says how much
of the second core the extra replicas win, not how the cluster scales on machines of their own.

${table(["failover after kill -9 of a replica", "value"], [
    ["threads that lived on the killed replica", String(cluster.failover.threads)],
    ["their next turns that succeeded, each sent once at the kill (no client retry)", `${cluster.failover.succeeded} of ${cluster.failover.threads}`],
    ["HTTP statuses their clients saw", Object.entries(cluster.failover.statuses).map(([status, count]) => `${count} × ${status}`).join(", ")],
    ...(cluster.failover.failures?.length > 0 ? [["what the failed turns' clients got", cluster.failover.failures.map((failure) => failure.slice(0, 120).replaceAll("|", "\\|")).join("; ")]] : []),
    ["kill → next successful turn of each such thread, p50 (ms)", fixed(cluster.failover.p50Ms)],
    ["kill → next successful turn, p99 (ms)", fixed(cluster.failover.p99Ms)],
    ["kill → next successful turn, max (ms)", fixed(cluster.failover.maxMs)],
    ["REPLICA_TTL_MS (a dead replica's leases lapse after this)", String(cluster.failover.replicaTtlMs)],
  ])}

A run for a thread whose replica died reaches a live replica (HAProxy retries a refused connection, or one closed with no answer, on the
next replica of the hash ring), which waits for the dead replica's heartbeat to lapse (at most
\`REPLICA_TTL_MS\` and 500 ms) and then takes the thread over, resuming its conversation from the shared save
dir: the user sees a slower reply, not an error. The failover time is bounded below by how much of the dead
replica's heartbeat time to live was left at the kill.

${table(["Redis commands per run (heartbeats subtracted)", "value"], [
    ...three.roundTrips.map((entry) => [`${entry.label} (3 replicas, no auth)`, fixed(entry.perRun, 1)]),
    ...cluster.roundTrips.map((entry) => [entry.label, fixed(entry.perRun, 1)]),
  ])}

A thread's state is one Redis hash (record, transcript, owner, lease with its fencing token). A later run
costs: the lease confirmed before it runs (one script), its record written once its prompt is taken (one
fenced script), its transcript written after it ends (one fenced script); with auth, the owner confirmed
(one script). A first run adds the lease taken and the record read.
${loadNote("5")}`);
}
if (turnCost !== undefined) sections.push(turnCostSection(turnCost));

if (hostile !== undefined) {
  const { refusalMs, healthDuringMs, healthAloneMs, serverLoopHeldMs } = hostile;
  sections.push(`## 7. A hostile tool schema: what a neighbour waits

From [\`bench/hostile-schema.mjs\`](benchmarks/bench/hostile-schema.mjs): one client posts a ${fixed(hostile.bodyBytes / 2 ** 20, 2)} MiB
run whose tool schema declares thousands of properties, each with its own pattern, ${hostile.rounds} times back to back
(after 3 untimed); another probes \`/healthz\` every 2 ms. The server (\`AntigravityAgent\` behind the Express
binding) runs in its own process. **Targets** (issue 13): each refused with 400 \`INVALID_TOOL_SCHEMA\` within
1 s; \`/healthz\` p99 under 100 ms meanwhile.

${table(["", "p50 (ms)", "p99 (ms)", "max (ms)", "samples"], [
    ["hostile request → 400 INVALID_TOOL_SCHEMA", fixed(refusalMs.p50, 1), fixed(refusalMs.p99, 1), fixed(refusalMs.max, 1), String(hostile.rounds)],
    ["/healthz during the hostile requests", fixed(healthDuringMs.p50, 1), fixed(healthDuringMs.p99, 1), fixed(healthDuringMs.max, 1), String(healthDuringMs.probes)],
    ["/healthz alone (same prober, nothing else)", fixed(healthAloneMs.p50, 1), fixed(healthAloneMs.p99, 1), "", String(healthAloneMs.probes)],
    ["server event loop held at once, longest", "", "", fixed(serverLoopHeldMs.maxMs, 1), ""],
  ])}

What remains is parsing the body: \`JSON.parse\` of a megabyte of small objects holds the loop for 10–50 ms
(more when a major GC lands in it). The depth walk and the request's checks run in their own turns of the
event loop, so a neighbour waits for one of these pieces, not their sum; the schema limits refuse the
schema at its 1 001st property without compiling anything.`);
}

const totalSeconds = (performance.now() - started) / 1000;
const cpu = cpus()[0]?.model ?? "unknown CPU";
const document = `# Benchmarks

Measured by \`pnpm bench\` (the \`bench\` script of [benchmarks/](benchmarks/), which
\`turbo run bench\` runs after building what it needs; alone: \`pnpm --filter @ag-ui-antigravity/benchmarks bench\`).
Everything runs on loopback against the emulator (packages/harness-emulator), never a model. Each figure
is set beside its anchor (the reference's published numbers, from its README, or the bare relay measured
in the same run) and the ratio between them. Medians unless a percentile is named. The machine is shared
and noisy: compare figures within one run, not across runs.

- Written: ${new Date().toISOString()}
- Machine: ${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadBefore.toFixed(1)} at the start
- Node ${process.version}, ${process.platform} ${process.arch}
- This run took ${totalSeconds.toFixed(0)} s.

${sections.join("\n\n")}
`;

const target = join(repoRoot, "BENCHMARKS.md");
writeFileSync(target, only === undefined || !existsSync(target) ? document : mergeSections(readFileSync(target, "utf8"), sections, only));
process.stdout.write(`\n${document}\nwrote ${join(repoRoot, "BENCHMARKS.md")}\n`);
if ([[1, overhead], [2, concurrency], [3, memory], [4, poolOutput], [5, cluster], [6, turnCost], [7, hostile]].some(([number, value]) => selected(number) && value === undefined)) process.exitCode = 1;

/**
 * A partial run (BENCH_ONLY): the sections it ran replace theirs in the existing document (or are
 * added), the others stay as their last full run wrote them, and the header says which are new.
 */
function mergeSections(existing, fresh, numbers) {
  const split = (text) => {
    const parts = text.split(/^(?=## \d+\. )/m);
    return { head: parts[0] ?? "", bodies: new Map(parts.slice(1).map((part) => [/^## (\d+)\./.exec(part)[1], part.trimEnd()])) };
  };
  const { head, bodies } = split(existing);
  for (const section of fresh) bodies.set(/^## (\d+)\./.exec(section)[1], section.trimEnd());
  // One note per section, so each partial run replaces the notes of the sections it re-ran only.
  const rerun = new Set([...numbers].filter((number) => fresh.some((section) => section.startsWith(`## ${number}.`))));
  const notes = [...rerun].sort().map((number) => `- Section ${number} re-run on ${new Date().toISOString()} (\`BENCH_ONLY\`), load average ${(sectionLoad.get(number)?.start ?? loadBefore).toFixed(1)} at its start and ${(sectionLoad.get(number)?.end ?? loadBefore).toFixed(1)} at its end, Node ${process.version}; the others are from the run written above.`);
  const kept = head.split("\n").filter((line) => {
    const match = /^- Sections? ([\d, ]+) re-run on /.exec(line);
    return match === null || !match[1].split(",").some((number) => rerun.has(number.trim()));
  });
  const header = kept.join("\n").replace(/(- This run took .*\n)/, `$1${notes.map((note) => `${note}\n`).join("")}`);
  const ordered = [...bodies.entries()].sort(([left], [right]) => Number(left) - Number(right)).map(([, body]) => body);
  return `${header.trimEnd()}\n\n${ordered.join("\n\n")}\n`;
}

function turnCostSection(result) {
  const { baseline, current } = result.stacks;
  const columns = baseline === undefined ? ["", "this checkout", "anchor", "ratio to the anchor"] : ["", "before (baseline build)", "after (this checkout)", "after ÷ before", "anchor (measured beside it)", "after ÷ anchor"];
  const row = (label, pick, digits, anchor) => {
    const after = pick(current);
    const anchorValue = anchor?.value(current);
    const anchorCells = [anchor === undefined ? "" : `${fixed(anchorValue, digits)} (${anchor.label})`, anchor === undefined ? "" : ratio(after, anchorValue)];
    if (baseline === undefined) return [label, fixed(after, digits), ...anchorCells];
    const before = pick(baseline);
    return [label, fixed(before, digits), fixed(after, digits), ratio(after, before), ...anchorCells];
  };
  const relayEchoSameRequest = { label: "bare relay sent the same request", value: (stack) => stack.relayEchoSameRequestMs };
  const relayEcho = { label: "bare relay sent the text alone", value: (stack) => stack.relayEchoMs };
  const leanPhaseLean = { label: "lean adapter, the same rounds", value: (stack) => stack.leanPhase?.leanMs };
  const leanPhaseRelay = { label: "bare relay sent the same request, the same rounds", value: (stack) => stack.leanPhase?.relayMs };
  const relayBurst = { label: "bare relay, same turn", value: (stack) => stack.relayBurstMs };
  const warmAfterPause = { label: "warm turn after the same pause", value: (stack) => stack.warmAfterPauseMs };
  const secondTurnAfterPause = { label: "the previous new thread's second turn, same pause", value: (stack) => stack.secondTurnAfterPauseMs ?? stack.warmAfterPauseMs };
  const warmFirstText = { label: "warm turn, p99", value: (stack) => stack.echoFirstTextP99Ms };
  const rows = [
    row("warm echo turn, request → end of stream, p50 (ms)", (stack) => stack.echoMs, 1, relayEchoSameRequest),
    ...(current.relayEchoSameRequestMs === undefined ? [] : [row("warm echo turn (the same turns), against the relay's other request (ms)", (stack) => stack.echoMs, 1, relayEcho)]),
    ...(current.leanPhase === undefined
      ? []
      : [
          row("last rounds: warm echo turn, p50 (ms)", (stack) => stack.leanPhase?.adapterMs, 1, leanPhaseLean),
          row("last rounds: lean adapter's warm echo turn, p50 (ms)", (stack) => stack.leanPhase?.leanMs, 1, leanPhaseRelay),
        ]),
    row("warm echo turn, first text p50 (ms)", (stack) => stack.echoFirstTextP50Ms, 1),
    row("warm echo turn, first text p99 (ms)", (stack) => stack.echoFirstTextP99Ms, 1),
    row("server CPU per warm echo turn (ms)", (stack) => stack.echoCpuMs, 2),
    row("allocated per event, echo turn (KiB)", (stack) => stack.echoBytesPerEvent / 1024, 1),
    row(`warm echo turn after a ${result.newThreadPauseMs ?? 400} ms pause, p50 (ms)`, (stack) => stack.warmAfterPauseMs, 1),
    row(`second turn of the previous new thread after a ${result.newThreadPauseMs ?? 400} ms pause, p50 (ms)`, (stack) => stack.secondTurnAfterPauseMs, 1, warmAfterPause),
    row(`first turn of a new thread, one at a time after a ${result.newThreadPauseMs ?? 400} ms pause, p50 (ms)`, (stack) => stack.newThreadMs, 1, secondTurnAfterPause),
    row("10 000-delta burst, request → end of stream (ms)", (stack) => stack.burstMs, 0, relayBurst),
    row("server CPU per 1 000 events, burst (ms)", (stack) => stack.burstCpuPer1000Ms, 1, { label: "bare relay, per 1 000 frames it forwards", value: (stack) => stack.relayBurstCpuPer1000Ms }),
    ...(current.sinkBurstCpuPer1000Ms === undefined
      ? []
      : [row("last: a WebSocket sink's CPU per 1 000 frames of the same burst (ms)", (stack) => stack.sinkBurstCpuPer1000Ms, 1)]),
    row("allocated per event, burst (KiB)", (stack) => stack.bytesPerEvent / 1024, 1),
    row(`${result.crowd} new threads at once: first text p50 (ms)`, (stack) => stack.crowd?.firstTextP50Ms, 0),
    row(`${result.crowd} new threads at once: first text p99 (ms)`, (stack) => stack.crowd?.firstTextP99Ms, 0, warmFirstText),
    row(`${result.crowd} new threads at once: first event (RUN_STARTED) p99 (ms)`, (stack) => stack.crowd?.firstEventP99Ms, 0),
    ...(current.pacedP99Ms === undefined
      ? []
      : [
          row("paced turn (1 delta/ms), latency per event p50 (ms)", (stack) => stack.pacedP50Ms, 2, { label: "bare relay, same turn", value: (stack) => stack.pacedRelayP50Ms }),
          row("paced turn (1 delta/ms), latency per event p99 (ms)", (stack) => stack.pacedP99Ms, 2, { label: "bare relay, same turn", value: (stack) => stack.pacedRelayP99Ms }),
        ]),
    row("apps/server (8 agents, emulator) idle RSS 3 s after start (MiB)", (stack) => stack.rss?.idleMiB, 1),
    row("apps/server idle RSS 6 s after start, after full GCs (MiB)", (stack) => stack.rss?.idleCollectedMiB, 1),
    row("apps/server RSS after one turn on each agent (MiB)", (stack) => stack.rss?.afterTurnsMiB, 1),
  ];
  const timelinePaths = [
    ["adapter", "adapter"],
    ["lean", "lean adapter"],
    ["relay", "bare relay"],
  ];
  // The baseline's lean adapter and relay are the same code as this checkout's: only its adapter is shown.
  const timelineStacks = baseline === undefined ? [["", current, timelinePaths]] : [["after: ", current, timelinePaths], ["before: ", baseline, timelinePaths.slice(0, 1)]];
  const timelineRows = timelineStacks.flatMap(([prefix, stack, paths]) =>
    paths
      .filter(([path]) => stack.timeline?.[path] !== undefined)
      .map(([path, label]) => {
        const noted = stack.timeline[path];
        return [`${prefix}${label}`, ...[noted.sentMs, noted.firstFrameMs, noted.lastFrameMs, noted.endedMs, noted.harnessReactionMs, noted.lastFrameToEndMs].map((value) => fixed(value, 2)), String(noted.turns)];
      }),
  );
  const timeline =
    timelineRows.length === 0
      ? ""
      : `

**Where a warm echo turn's time goes, inside the server process** (ms after the request arrived, medians over ${result.timelineRounds ?? 60} rounds of the three paths sent the same request, after the "last rounds" above; [\`bench/lib/turn-timeline.mjs\`](benchmarks/bench/lib/turn-timeline.mjs)). "Harness send" is the process's first WebSocket message after the request (the turn going to the harness), "first frame" and "final frame" the first and last it received before the response ended (the final frame is the turn's final idle), "end" the call that ends the response; the last two columns are medians of each turn's own span. Taps on \`ws\` and on the response note these moments, on in this phase only. What follows "end" (the last write reaching the client, and the client reading it) is not in these columns.

${table(["path", "harness send", "first frame", "final frame", "end", "harness's reaction (first frame − send)", "final frame → end", "turns"], timelineRows)}`;
  const profile = (stack) => (stack.burstProfile ?? []).map((entry, index) => `${index + 1}. ${(entry.share * 100).toFixed(1)} % ${entry.name}`).join("\n");
  const sites = (stack) => (stack.burstAllocationSites ?? []).map((entry, index) => `${index + 1}. ${(entry.share * 100).toFixed(1)} % ${entry.name}`).join("\n");
  const stacks = baseline === undefined ? [["this checkout", current]] : [["before (baseline build)", baseline], ["after (this checkout)", current]];
  return `## 6. What a turn costs the server: echo turns, new threads, bursts, CPU, allocations, idle RSS

[\`bench/turn-cost.mjs\`](benchmarks/bench/turn-cost.mjs): each build under test runs as its own server process
([\`bench/lib/stack-server.mjs\`](benchmarks/bench/lib/stack-server.mjs): one \`AntigravityAgent\` behind the Express
binding, and a bare relay on its own emulator beside it), driven from another process by a raw SSE client (a
\`fetch\` reader that only finds event bounds), as a user would. ${baseline === undefined ? "" : "The baseline is the same packages built from the commit before this work (`BENCH_BASELINE_ROOT`, a built checkout); "}rounds alternate between
builds and relays, so they share the machine's noise. In the echo rounds each adapter turn has two relay turns beside it:
one sent the same request (the RunAgentInput a client sends, the warm thread's whole history and the new message,
which the relay reads and answers the last message of: the same turn, as an AG-UI server is sent it), and one sent
the text alone (\`{"text":"hello"}\`, what earlier runs of this section sent it); which of the three comes first
rotates, since a turn right after an idle moment costs more on any path. Last of all (the "last rounds" rows), a lean
adapter starts in each build's server process, on its own emulator
([\`bench/lib/lean-adapter.mjs\`](benchmarks/bench/lib/lean-adapter.mjs): the least an AG-UI adapter behind Express does
for a text turn, reading and checking the input, RUN_STARTED echoing it, the text steps as TEXT_MESSAGE_* events,
RUN_FINISHED on the final idle, one write a tick, and none of the packages' pool, sessions, thread record,
human-in-the-loop bridge, tools or resumable stream), serves as many warm-up turns, then ${result.leanRounds ?? 60} rounds of three
warm echo turns sent the same request, the build's adapter, the relay and the lean adapter, whose first rotates:
what the lean adapter costs beyond the relay is what any adapter pays, what the adapter costs beyond it is the
packages' own (in the baseline's column the lean adapter is the same code again, a check on the noise). It comes
last so that it moves no other figure: its requests' garbage changes the process's heap, and with it what later
bursts pay in collections. After it, the floor of a burst's CPU: a WebSocket sink on its own emulator in each
build's server process ([\`bench/lib/websocket-sink.mjs\`](benchmarks/bench/lib/websocket-sink.mjs)) receives the same
bursts (as many unmeasured, then as many measured, each after the same pause) and does nothing with a frame but look
for the final idle: what any server of the harness pays to receive a burst's frames, each of which repeats the
reply's whole text so far. Server CPU is the server process's user + system time
around each turn; allocations come from V8's sampling heap profiler (collected objects included, the
inspector session's own left out) over one burst, or over ten echo turns, divided by the SSE events sent. Each build first serves ${result.warmUpTurns ?? 5} warm-up echo turns (and its relay as many), round six threads on one harness process (so the emulator answering the warm thread has served as many turns as the relay's), so that
V8 has compiled the code a turn runs once (a compile is 1-150 ms of a worker thread, which would land in a measured turn; traced with \`--trace-opt\`, turns 200-500 of a fresh server still ran 62 compiles, 0.84 ms of worker CPU a turn, and turns 600-900 ran 17, 0.18 ms a turn). ${result.echoRounds} echo rounds (a one-delta reply), ${result.newThreadRounds} new threads one at a time
(the current build with \`prewarm: { spares: 2 }\`${baseline === undefined ? "" : ", the baseline has no such option"}), each after a pause and beside two warm
turns after the same pause: one on the thread warmed up first, and the second turn of the previous round's new thread.
A turn after an idle pause costs more than one right after another, on any thread and on the bare relay (the
machine wakes up), so a first turn compares with warm turns after the same pause; and with the previous new
thread's, because the pool places new conversations on its younger harness processes (8 conversations a
process), where the emulator's code has run less often than on the first one and every turn costs more
(the real harness is a native binary, without that warm-up). ${result.burstRounds} bursts of 10 000 deltas (each, and each relay burst, after a pause of ${result.burstPauseMs ?? 0} ms, so that the burst before it has been collected), after ${result.burstWarmUps ?? 0} unmeasured ones on each build (a process's first bursts cost more CPU per event on either build), then
${result.crowd} new threads at once${result.pacedRounds === undefined ? "" : `, then ${result.pacedRounds} paced turn${result.pacedRounds === 1 ? "" : "s"} of 10 000 deltas at one per millisecond (an event's latency runs from its frame's arrival in the server process, a tap on \`ws\` there, to its arrival at the client, both on the machine's monotonic clock)`}. Medians unless a percentile is named.

${table(columns, rows)}${timeline}

${loadNote("6")}

**CPU profile of one burst (server process, top 10 self time, share of all samples):**

${stacks.map(([name, stack]) => `${name}:\n\n${profile(stack)}`).join("\n\n")}

**Where a burst allocates (top 10 functions, share of bytes):**

${stacks.map(([name, stack]) => `${name}:\n\n${sites(stack)}`).join("\n\n")}`;
}
