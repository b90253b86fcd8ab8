#!/usr/bin/env node
// Benchmark 3, memory: the adapter's heap per idle session and per parked session, with thousands
// of each held at once by one AntigravityAgent (runs in process: the Express binding keeps nothing
// per thread unless auth is on, and then one map entry). An idle session has finished a turn; a
// parked one waits on a frontend tool. The harness side (emulator RSS per conversation) is shown
// next to it. The heap is measured after full collections.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { benchModel, emulatorEnv, limitRuntime, report, rssMiB, settledHeap } from "./lib/common.mjs";

limitRuntime(300_000, "memory");
const idleCount = Number(process.env.BENCH_IDLE_SESSIONS ?? 2_000);
const parkedCount = Number(process.env.BENCH_PARKED_SESSIONS ?? 1_000);
const perProcess = 250;

const pickColor = {
  name: "pick_color",
  description: "Asks the user to pick a colour in the UI",
  parameters: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
};

const saveDir = mkdtempSync(join(tmpdir(), "bench-memory-"));
const agent = new AntigravityAgent({
  harness: "emulator",
  model: benchModel,
  saveDir,
  env: emulatorEnv,
  sessions: { maxSessions: idleCount + parkedCount + 100, maxRememberedThreads: idleCount + parkedCount + 100 },
  pool: { healthCheckIntervalMs: 0, maxConversationsPerProcess: perProcess },
});

function runOnce(text, tools) {
  return new Promise((resolve, reject) => {
    const input = { threadId: randomUUID(), runId: randomUUID(), messages: [{ id: randomUUID(), role: "user", content: text }], tools, context: [], state: {}, forwardedProps: {} };
    let last;
    agent.run(input).subscribe({
      next: (event) => void (last = event),
      error: reject,
      complete: () => (last?.type === "RUN_FINISHED" ? resolve() : reject(new Error(`run ended with ${JSON.stringify(last)}`))),
    });
  });
}

async function createSessions(count, text, tools) {
  let next = 0;
  await Promise.all(Array.from({ length: 64 }, async () => {
    for (let index = next++; index < count; index = next++) await runOnce(text, tools);
  }));
}

async function harnessRss() {
  const metrics = await agent.poolMetrics();
  return { rss: metrics.processDetails.reduce((sum, detail) => sum + rssMiB(detail.pid), 0), processes: metrics.processes, conversations: metrics.conversations };
}

// Warm up: code paths compiled, the first process spawned and filled a little.
await createSessions(50, "hello", []);
await createSessions(10, "pick a colour", [pickColor]);
const heapBase = await settledHeap();
const harnessBase = await harnessRss();

await createSessions(idleCount, "hello", []);
const heapIdle = await settledHeap();
const harnessIdle = await harnessRss();

await createSessions(parkedCount, "pick a colour", [pickColor]);
const heapParked = await settledHeap();
const stats = agent.stats();
const harnessParked = await harnessRss();

await agent.close({ deadlineMs: 20_000 });
rmSync(saveDir, { recursive: true, force: true });

report({
  idleCount,
  parkedCount,
  liveSessions: stats.sessions.liveSessions,
  parkedSessions: stats.sessions.parkedSessions,
  heapBaseMiB: heapBase / 2 ** 20,
  heapPerIdleKiB: (heapIdle - heapBase) / idleCount / 1024,
  heapPerParkedKiB: (heapParked - heapIdle) / parkedCount / 1024,
  processes: harnessParked.processes,
  harnessPerIdleKiB: ((harnessIdle.rss - harnessBase.rss) * 1024) / Math.max(1, harnessIdle.conversations - harnessBase.conversations),
  harnessPerParkedKiB: ((harnessParked.rss - harnessIdle.rss) * 1024) / Math.max(1, harnessParked.conversations - harnessIdle.conversations),
});
