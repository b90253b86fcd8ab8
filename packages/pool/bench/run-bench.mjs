#!/usr/bin/env node
// The pool benchmark, run with `pnpm bench` (after a build of this package and the emulator).
// Everything runs against real emulator processes. It prints one table per question:
//   1. processes and total RSS, pooled (8 per process) against one process per conversation;
//   2. first-turn latency of a burst of new conversations, cold (spawning) against pre-warmed;
//   3. per-turn p50 when all conversations of a process turn at once, divided by a lone turn;
//   all three for 8 and 64 conversations, side by side; then
//   4. fill-first against spread placement under churn (how the default was chosen).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HarnessPool } from "../dist/index.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const emulatorBinPath = join(repoRoot, "packages", "harness-emulator", "dist", "bin.js");
const fastModel = `emulator:${join(repoRoot, "fixtures", "scenarios", "faults.json")}`;
const streamingModel = "emulator:demo";
const rounds = Number(process.env.POOL_BENCH_ROUNDS ?? 10);

function pool(settings = {}) {
  return new HarnessPool({ healthCheckIntervalMs: 0, processGracePeriodMs: 2_000, ...settings, harness: { binaryPath: emulatorBinPath } });
}

function rssMegabytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match === null ? 0 : Number(match[1]) / 1024;
  } catch {
    return 0;
  }
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function turn(lease, text) {
  return (await lease.conversation.send(text).result).text;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `count` conversations, runs a turn on each, and measures processes and their RSS. */
async function footprint(count, perProcess) {
  const subject = pool({ maxConversationsPerProcess: perProcess });
  try {
    const leases = await Promise.all(Array.from({ length: count }, () => subject.acquire({ config: { model: fastModel } })));
    await Promise.all(leases.map((lease, index) => turn(lease, `hello ${index}`)));
    await sleep(300);
    const pids = [...new Set(leases.map((lease) => lease.pid))];
    const rss = pids.reduce((sum, pid) => sum + rssMegabytes(pid), 0);
    return { processes: pids.length, rss };
  } finally {
    await subject.close();
  }
}

/**
 * A burst of `count` new conversations: p50 of the time from asking for one to the end of its
 * first turn. Cold, the burst waits for the spawns; pre-warmed, the processes were started ahead
 * with `warm()` (and no spares are kept after, so no replacement spawn competes for the CPU).
 */
async function firstTurn(count, { warm }) {
  const samples = [];
  for (let round = 0; round < 3; round += 1) {
    const subject = pool();
    try {
      if (warm) {
        await subject.warm({ minIdleProcesses: Math.ceil(count / 8) });
        await subject.warm({ minIdleProcesses: 0 });
      }
      const results = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          timed(async () => {
            const lease = await subject.acquire({ config: { model: fastModel } });
            await turn(lease, `first ${index}`);
          }),
        ),
      );
      samples.push(...results.map((result) => result.ms));
    } finally {
      await subject.close();
    }
  }
  return median(samples);
}

/**
 * p50 of a turn alone on its process, and of each turn when all conversations of every process
 * (8 per process) turn at once.
 */
async function contention(count) {
  const subject = pool({ maxConversationsPerProcess: 8 });
  try {
    const leases = await Promise.all(Array.from({ length: count }, () => subject.acquire({ config: { model: streamingModel } })));
    await Promise.all(leases.map((lease) => turn(lease, "warm up")));
    const lone = [];
    for (let round = 0; round < rounds; round += 1) lone.push((await timed(() => turn(leases[round % count], `lone ${round}`))).ms);
    const together = [];
    for (let round = 0; round < rounds; round += 1) {
      const results = await Promise.all(leases.map((lease, index) => timed(() => turn(lease, `together ${round} ${index}`))));
      together.push(...results.map((result) => result.ms));
    }
    return { lone: median(lone), together: median(together) };
  } finally {
    await subject.close();
  }
}

/** A seeded generator, so both placements see the same sequence of releases. */
function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * A peak of 24 conversations (3 processes), then churn at a load of 8: each step releases a random
 * conversation and opens a new one. Reports the processes left after the idle grace, the mean
 * number of processes over the churn, and the p50 turn when the 8 survivors turn at once.
 */
async function placement(strategy) {
  const subject = pool({ placement: strategy, maxConversationsPerProcess: 8, idleGraceMs: 200 });
  const random = seededRandom(7);
  try {
    let leases = await Promise.all(Array.from({ length: 24 }, () => subject.acquire({ config: { model: fastModel } })));
    while (leases.length > 8) {
      const [released] = leases.splice(Math.floor(random() * leases.length), 1);
      await released.release();
    }
    const processCounts = [];
    for (let step = 0; step < 40; step += 1) {
      const [released] = leases.splice(Math.floor(random() * leases.length), 1);
      await released.release();
      const lease = await subject.acquire({ config: { model: fastModel } });
      await turn(lease, `churn ${step}`);
      leases.push(lease);
      processCounts.push(subject.metrics().processes);
      await sleep(25);
    }
    await sleep(600);
    const turns = [];
    for (let round = 0; round < 5; round += 1) {
      const results = await Promise.all(leases.map((lease, index) => timed(() => turn(lease, `busy ${round} ${index}`))));
      turns.push(...results.map((result) => result.ms));
    }
    return {
      processesAfter: subject.metrics().processes,
      meanProcesses: processCounts.reduce((sum, count) => sum + count, 0) / processCounts.length,
      p50: median(turns),
    };
  } finally {
    await subject.close();
  }
}

const format = (value, digits = 0) => value.toFixed(digits);
const started = performance.now();
console.log(`# @ag-ui-antigravity/pool bench (emulator ${emulatorBinPath.replace(repoRoot, "")}, node ${process.version})\n`);

const columns = [8, 64];
const rows = new Map();
const put = (label, count, value) => rows.set(label, { ...rows.get(label), [count]: value });
for (const count of columns) {
  const pooled = await footprint(count, 8);
  const separate = await footprint(count, 1);
  put("processes, pooled (8 per process)", count, String(pooled.processes));
  put("processes, one per conversation", count, String(separate.processes));
  put("total RSS after a turn each, pooled (MB)", count, format(pooled.rss));
  put("total RSS after a turn each, one per conversation (MB)", count, format(separate.rss));
  put("first turn of a burst, cold: spawns included (p50 ms)", count, format(await firstTurn(count, { warm: false })));
  put("first turn of a burst, pre-warmed (p50 ms)", count, format(await firstTurn(count, { warm: true })));
  const result = await contention(count);
  put("turn alone on its process (p50 ms, demo scenario)", count, format(result.lone));
  put("turn while all on its process turn at once (p50 ms)", count, format(result.together));
  put("ratio together / alone (target <= 1.1)", count, `${format(result.together / result.lone, 2)}x`);
}
console.log(`| | ${columns.map((count) => `${count} conversations`).join(" | ")} |`);
console.log(`|---|${columns.map(() => "---:").join("|")}|`);
for (const [label, values] of rows) console.log(`| ${label} | ${columns.map((count) => values[count]).join(" | ")} |`);

console.log("\n## Placement under churn (peak 24, then 40 steps at 8 conversations)\n");
console.log("| placement | processes after idle grace | mean processes during churn | p50 turn, 8 at once (ms) |");
console.log("|---|---:|---:|---:|");
for (const strategy of ["fill-first", "spread"]) {
  const result = await placement(strategy);
  console.log(`| ${strategy} | ${result.processesAfter} | ${format(result.meanProcesses, 1)} | ${format(result.p50)} |`);
}

console.log(`\nTotal bench time: ${format((performance.now() - started) / 1000, 1)} s`);
