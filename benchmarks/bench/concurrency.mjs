#!/usr/bin/env node
// Benchmark 2, concurrency: 100 and then 500 threads running a turn at the same time on one server
// (one AntigravityAgent, its pool at the default 8 conversations per process). Round 1 is every
// thread's first run (sessions, conversations and processes are created on the way); round 2 runs
// the same threads again, warm. The load comes from a separate process (lib/load-client.mjs).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAntigravityApp } from "@ag-ui-antigravity/express";
import { benchModel, emulatorEnv, limitRuntime, percentile, report, rssMiB } from "./lib/common.mjs";

limitRuntime(420_000, "concurrency");
const loadClient = fileURLToPath(new URL("./lib/load-client.mjs", import.meta.url));
const levels = (process.env.BENCH_CONCURRENCY_LEVELS ?? "100,500").split(",").map(Number);

async function measure(threads) {
  const saveDir = mkdtempSync(join(tmpdir(), "bench-concurrency-"));
  const agent = new AntigravityAgent({
    harness: "emulator",
    model: benchModel,
    saveDir,
    env: emulatorEnv,
    turnTimeoutMs: 120_000,
    sessions: { maxSessions: threads * 2 },
    pool: { healthCheckIntervalMs: 0 },
  });
  // Hundreds of threads from one address at once: past the default client limits (8 runs), on purpose.
  const server = createServer(createAntigravityApp({ bench: agent }, { keepAliveIntervalMs: 0, clientLimits: false }));
  server.maxConnections = threads * 4;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/bench`;
  try {
    // A reply of 600 characters in 50 deltas per turn.
    const { stdout } = await promisify(execFile)(process.execPath, [loadClient, JSON.stringify({ url, threads, rounds: 2, text: "reply" })], { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
    const line = stdout.split("\n").reverse().find((candidate) => candidate.startsWith("RESULT "));
    const rounds = JSON.parse(line.slice("RESULT ".length));
    const metrics = await agent.poolMetrics();
    const harnessRss = metrics.processDetails.reduce((sum, detail) => sum + rssMiB(detail.pid), 0);
    const summarise = (round) => {
      const ok = round.runs.filter((run) => run.status === 200 && run.finished);
      const events = ok.reduce((sum, run) => sum + run.events, 0);
      return {
        ok: ok.length,
        failed: round.runs.length - ok.length,
        statuses: [...new Set(round.runs.map((run) => run.status))],
        wallMs: round.wallMs,
        eventsPerSecond: events / (round.wallMs / 1000),
        ttfeP50Ms: percentile(ok.map((run) => run.ttfeMs), 0.5),
        ttfeP99Ms: percentile(ok.map((run) => run.ttfeMs), 0.99),
        runP50Ms: percentile(ok.map((run) => run.totalMs), 0.5),
      };
    };
    return {
      threads,
      cold: summarise(rounds[0]),
      warm: summarise(rounds[1]),
      processes: metrics.processes,
      serverRssMiB: process.memoryUsage().rss / 2 ** 20,
      harnessRssMiB: harnessRss,
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await agent.close({ deadlineMs: 10_000 });
    rmSync(saveDir, { recursive: true, force: true });
  }
}

const results = [];
for (const threads of levels) results.push(await measure(threads));
report(results);
