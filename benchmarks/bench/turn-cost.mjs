#!/usr/bin/env node
// Benchmark 6, what a turn costs the server: each stack (this checkout, and a baseline build when
// BENCH_BASELINE_ROOT names one) runs in its own process (bench/lib/stack-server.mjs) beside a bare
// relay, and this process drives them with a raw SSE client, rounds alternating between stacks and
// the relay so they share the machine's noise. Figures: warm echo turn against the relay, first turn
// of a new thread, 100 new threads at once, CPU per turn and per 1 000 events, bytes allocated per
// event, a CPU profile of a 10 000-delta burst, the latency per event of a paced turn, the idle
// RSS of apps/server, then the warm echo turn beside a lean adapter's (bench/lib/lean-adapter.mjs) and
// where each path's warm echo turn spends its time inside the server (bench/lib/turn-timeline.mjs),
// and last a burst's CPU floor, a WebSocket sink's (bench/lib/websocket-sink.mjs).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readRelayTurn } from "./lib/bare-relay.mjs";
import { pacedStackTurn } from "./lib/paced-turn.mjs";
import { startStack } from "./lib/stack-process.mjs";
import { limitRuntime, median, percentile, report, repoRoot, rssMiB, runInputOf, sleep } from "./lib/common.mjs";

limitRuntime(1_500_000, "turn-cost");
const echoRounds = Number(process.env.BENCH_ECHO_ROUNDS ?? 60);
const newThreadRounds = Number(process.env.BENCH_NEW_THREAD_ROUNDS ?? 20);
const burstRounds = Number(process.env.BENCH_BURST_ROUNDS ?? 5);
const burstWarmUps = Number(process.env.BENCH_BURST_WARM_UPS ?? 3);
const crowd = Number(process.env.BENCH_NEW_THREAD_CROWD ?? 100);
const pacedRounds = Number(process.env.BENCH_PACED_ROUNDS ?? 1);
const leanRounds = Number(process.env.BENCH_LEAN_ROUNDS ?? 60);
const timelineRounds = Number(process.env.BENCH_TIMELINE_ROUNDS ?? 60);
/** Echo turns sampled together for allocations: one turn is a few samples of the sampler's 1 KiB interval. */
const echoAllocationTurns = 10;
/** The pause before each new thread's first turn (and its warm twin): spares are refilled meanwhile. */
const newThreadPauseMs = 400;
/** The pause before each burst (see the bursts below). */
const burstPauseMs = 500;
const baselineRoot = process.env.BENCH_BASELINE_ROOT;

/**
 * A raw SSE client for the adapter: posts a RunAgentInput, notes when the first text delta and the
 * end of the stream arrive, and counts the events. Nothing is parsed beyond finding event bounds.
 */
async function adapterTurn(url, thread, text) {
  thread.messages.push({ id: randomUUID(), role: "user", content: text });
  const body = JSON.stringify(runInputOf(thread.id, thread.messages));
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body });
  let firstText;
  let firstEvent;
  let events = 0;
  let sawError = false;
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    const at = performance.now();
    const text = decoder.decode(chunk, { stream: true });
    firstEvent ??= at;
    if (firstText === undefined && text.includes('"TEXT_MESSAGE_CONTENT"')) firstText = at;
    if (text.includes('"RUN_ERROR"')) sawError = true;
    for (let index = text.indexOf("data:"); index >= 0; index = text.indexOf("data:", index + 5)) events += 1;
  }
  if (response.status !== 200 || sawError) throw new Error(`adapter turn failed: HTTP ${response.status}`);
  const ended = performance.now();
  return { wallMs: ended - started, firstTextMs: (firstText ?? ended) - started, firstEventMs: (firstEvent ?? ended) - started, events };
}

/** The relay's turn for `request`: a text alone, or a whole RunAgentInput (`nextInputOf`). */
async function relayTurn(url, request) {
  const turn = await readRelayTurn(url, request);
  const firstText = turn.events.find((event) => event.data.includes('"textDelta"'))?.at ?? turn.ended;
  return { wallMs: turn.ended - turn.started, firstTextMs: firstText - turn.started, events: turn.events.length };
}

/** The lean adapter's turn for `request` (a RunAgentInput), checked to have answered with text and ended. */
async function leanAdapterTurn(url, request) {
  const turn = await readRelayTurn(url, request);
  const types = turn.events.map((event) => JSON.parse(event.data).type);
  if (!types.includes("TEXT_MESSAGE_CONTENT") || types.at(-1) !== "RUN_FINISHED") throw new Error(`lean adapter turn failed: ${types.join(", ")}`);
  return { wallMs: turn.ended - turn.started };
}

/**
 * The RunAgentInput of `thread`'s next turn saying `text`, as the adapter's client sends it, for the
 * relay (the thread itself is left as it is): the relay reads the request an AG-UI server is sent,
 * the thread's whole history, and answers its last message.
 */
function nextInputOf(thread, text) {
  return runInputOf(thread.id, [...thread.messages, { id: randomUUID(), role: "user", content: text }]);
}

const cpuMs = (before, after) => (after.user - before.user + after.system - before.system) / 1000;

/** `run()`'s result, and the CPU (ms) the stack's server process spent while it ran. */
async function withServerCpu(stack, run) {
  const before = await stack.call("cpu");
  const result = await run();
  return { result, cpuMs: cpuMs(before, await stack.call("cpu")) };
}
const newThread = () => ({ id: randomUUID(), messages: [] });

const stacks = [];
if (baselineRoot !== undefined) stacks.push(await startStack("baseline", baselineRoot, { prewarm: false }));
stacks.push(await startStack("current", repoRoot, { prewarm: process.env.BENCH_PREWARM !== "0" }));

const results = Object.fromEntries(stacks.map((stack) => [stack.name, { echo: [], echoCpu: [], echoFirstText: [], relayEcho: [], relayEchoSameRequest: [], newThread: [], newThreadFirstText: [], warmAfterPause: [], secondTurnAfterPause: [], burst: [], relayBurst: [], burstCpuPer1000: [], relayBurstCpuPer1000: [], sinkBurstCpuPer1000: [], paced: [], pacedRelay: [] }]));
const warmThreads = new Map(stacks.map((stack) => [stack.name, newThread()]));

// Warm up: the relay's conversation, the warm thread's, and the JIT of both paths. A function that
// runs once a turn (the run loop, the bridge's items, the record's write, node's own header and
// listener code) reaches TurboFan only after hundreds of turns, and again after a deopt: each
// compile is 1-150 ms of a V8 worker thread, which lands in whichever measured turn it overlaps.
// Traced with --trace-opt on this checkout's stack: turns 200-500 still ran 62 compiles (252 ms of
// worker CPU, 0.84 ms a turn), turns 600-900 ran 17 (53 ms, 0.18 ms a turn, node internals that
// run once a turn). So each build serves 600 warm-up turns first, as any server that has been up a
// while has. They go round six threads (a thread holds at most 500 user messages, and the code that
// opens a thread warms up too), the warm thread first among them: six threads and the two
// pre-warmed spares are one harness process's eight conversations, so the emulator process that
// answers the warm thread has served every warm-up turn, as the relay's has. Spread over threads
// on several processes, the warm thread's emulator had served fewer turns than the relay's and
// spent twice its CPU on each (1.3 against 0.7 ms), which the relay figure then did not carry.
const warmUpTurns = Number(process.env.BENCH_WARM_UP_TURNS ?? 600);
for (const stack of stacks) {
  const threads = [warmThreads.get(stack.name), ...Array.from({ length: 5 }, newThread)];
  for (let round = 0; round < warmUpTurns; round += 1) {
    await adapterTurn(stack.adapterUrl, threads[round % threads.length], "hello");
    await relayTurn(stack.relayUrl, "hello");
  }
  await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "stream");
}

// Warm echo turns, alternating stacks and relays. Each round a stack's adapter turn goes beside two
// relay turns: one sent the same request (the warm thread's history and the new message), one sent
// the text alone. Which of the three comes first rotates: a turn that follows an idle moment (here
// the baseline's 100 ms settle) costs more than the one right after it, on any path, so a fixed
// order would charge that to one side.
for (let round = 0; round < echoRounds; round += 1) {
  for (const stack of stacks) {
    const thread = warmThreads.get(stack.name);
    const turns = {
      adapter: async () => {
        const { result: turn, cpuMs: turnCpuMs } = await withServerCpu(stack, () => adapterTurn(stack.adapterUrl, thread, "hello"));
        results[stack.name].echo.push(turn.wallMs);
        results[stack.name].echoFirstText.push(turn.firstTextMs);
        results[stack.name].echoCpu.push(turnCpuMs);
      },
      sameRequest: async () => results[stack.name].relayEchoSameRequest.push((await relayTurn(stack.relayUrl, nextInputOf(thread, "hello"))).wallMs),
      textAlone: async () => results[stack.name].relayEcho.push((await relayTurn(stack.relayUrl, "hello")).wallMs),
    };
    const order = ["adapter", "sameRequest", "textAlone"];
    for (let index = 0; index < order.length; index += 1) await turns[order[(index + round) % order.length]]();
  }
}

// First turn of a new thread (one at a time, with a pause so pre-warmed spares are refilled), beside
// warm turns after the same pause: a turn that follows an idle pause costs more than one that follows
// another turn at once, whichever thread it is on (the machine wakes up; see BENCHMARKS.md), so the
// back-to-back warm turn is not the figure a first turn compares with. Two warm figures: the thread
// warmed up first, and the previous round's new thread (its second turn). The latter is the one a
// first turn compares with: the pool puts new conversations on its younger harness processes
// (8 conversations a process), whose emulator code V8 has run far less often than the first
// process's, so any turn there (first or not) costs more than one on the oldest thread.
const previousNewThreads = new Map();
for (let round = 0; round <= newThreadRounds; round += 1) {
  for (const stack of stacks) {
    const previous = previousNewThreads.get(stack.name);
    if (previous !== undefined) {
      await sleep(newThreadPauseMs);
      results[stack.name].warmAfterPause.push((await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "hello")).wallMs);
      await sleep(newThreadPauseMs);
      results[stack.name].secondTurnAfterPause.push((await adapterTurn(stack.adapterUrl, previous, "hello")).wallMs);
    }
    await sleep(newThreadPauseMs);
    const thread = newThread();
    const turn = await adapterTurn(stack.adapterUrl, thread, "hello");
    previousNewThreads.set(stack.name, thread);
    // Round 0's new thread only gives the next round its warm twin.
    if (round === 0) continue;
    results[stack.name].newThread.push(turn.wallMs);
    results[stack.name].newThreadFirstText.push(turn.firstTextMs);
  }
}

// 10 000-delta bursts: wall time against the relay, and CPU per 1 000 events. Each burst, and each
// relay burst, starts after a pause: the burst before it leaves its process collecting garbage (the
// baseline build's, 300 MB) on the machine's other core, and a burst measured beside that is slower
// and costs more CPU per event; in a fixed order, the same build's burst always came after the
// other build's. Before them, each build serves unmeasured bursts, as the echo turns are measured
// after their warm-up: a process's first bursts cost more CPU per event on either build, its heap
// and compiled code still settling (eight bursts in a row, baseline: 60, 58, 39, 40, 46, 40, 42, 37
// ms per 1 000 events; this checkout: 60, 32, 31, 41, 22, 19, 17, 19).
for (const stack of stacks) {
  for (let burst = 0; burst < burstWarmUps; burst += 1) {
    await sleep(burstPauseMs);
    await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "stream");
  }
}
for (let round = 0; round < burstRounds; round += 1) {
  for (const stack of stacks) {
    await sleep(burstPauseMs);
    const burst = await withServerCpu(stack, () => adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "stream"));
    results[stack.name].burst.push(burst.result.wallMs);
    results[stack.name].burstCpuPer1000.push((burst.cpuMs / burst.result.events) * 1000);
    results[stack.name].burstEvents = burst.result.events;
    await sleep(burstPauseMs);
    const relayBurst = await withServerCpu(stack, () => relayTurn(stack.relayUrl, "stream"));
    results[stack.name].relayBurst.push(relayBurst.result.wallMs);
    results[stack.name].relayBurstCpuPer1000.push((relayBurst.cpuMs / relayBurst.result.events) * 1000);
  }
}

// One burst under the allocation sampler, one under the CPU profiler (not timed).
for (const stack of stacks) {
  await stack.call("alloc-start");
  const allocated = await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "stream");
  const burstAllocations = await stack.call("alloc-stop");
  results[stack.name].bytesPerEvent = burstAllocations.bytes / allocated.events;
  results[stack.name].burstAllocationSites = burstAllocations.sites;
  await stack.call("alloc-start");
  let echoEvents = 0;
  for (let turn = 0; turn < echoAllocationTurns; turn += 1) echoEvents += (await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "hello")).events;
  results[stack.name].echoBytesPerEvent = (await stack.call("alloc-stop")).bytes / echoEvents;
  await stack.call("profile-start");
  await adapterTurn(stack.adapterUrl, warmThreads.get(stack.name), "stream");
  results[stack.name].burstProfile = await stack.call("profile-stop");
}

// A crowd of new threads at once, one stack at a time.
for (const stack of stacks) {
  await sleep(1_000);
  const started = performance.now();
  const turns = await Promise.allSettled(Array.from({ length: crowd }, () => adapterTurn(stack.adapterUrl, newThread(), "hello")));
  const done = turns.filter((turn) => turn.status === "fulfilled").map((turn) => turn.value);
  results[stack.name].crowd = {
    threads: crowd,
    ok: done.length,
    wallMs: performance.now() - started,
    firstTextP50Ms: percentile(done.map((turn) => turn.firstTextMs), 0.5),
    firstTextP99Ms: percentile(done.map((turn) => turn.firstTextMs), 0.99),
    firstEventP99Ms: percentile(done.map((turn) => turn.firstEventMs), 0.99),
  };
}

// Paced turns (a delta per millisecond), alternating stacks: the server's own latency per event,
// measured from the frame's arrival in the server process to the event's arrival here, beside its
// relay's. Last, because the tap they need stays out of every other figure.
for (let round = 0; round < pacedRounds; round += 1) {
  for (const stack of stacks) {
    results[stack.name].paced.push(await pacedStackTurn(stack, "adapter", warmThreads.get(stack.name)));
    results[stack.name].pacedRelay.push(await pacedStackTurn(stack, "relay"));
  }
}

// Then the lean adapter (bench/lib/lean-adapter.mjs) in each build's server process, after its own
// warm-up: rounds of three warm echo turns sent the same request, the build's adapter, the relay and
// the lean adapter, whose first rotates. What the lean adapter costs beyond the relay is what any
// adapter pays; what the adapter costs beyond the lean adapter is the packages'.
for (const stack of stacks) {
  const leanUrl = await stack.call("lean-start");
  const thread = warmThreads.get(stack.name);
  for (let turn = 0; turn < warmUpTurns; turn += 1) await leanAdapterTurn(leanUrl, nextInputOf(thread, "hello"));
  const lean = { adapter: [], relay: [], lean: [] };
  const turns = {
    adapter: async () => lean.adapter.push((await adapterTurn(stack.adapterUrl, thread, "hello")).wallMs),
    relay: async () => lean.relay.push((await relayTurn(stack.relayUrl, nextInputOf(thread, "hello"))).wallMs),
    lean: async () => lean.lean.push((await leanAdapterTurn(leanUrl, nextInputOf(thread, "hello"))).wallMs),
  };
  const order = ["adapter", "relay", "lean"];
  const runRounds = async (rounds) => {
    for (let round = 0; round < rounds; round += 1) {
      for (let index = 0; index < order.length; index += 1) await turns[order[(index + round) % order.length]]();
    }
  };
  await runRounds(leanRounds);
  results[stack.name].leanPhase = { adapterMs: median(lean.adapter), relayMs: median(lean.relay), leanMs: median(lean.lean) };
  // Then rounds of the same three with the turn timeline on (bench/lib/turn-timeline.mjs): where each
  // path's warm echo turn spends its time inside the server process, from the request's arrival to
  // the harness send, the harness's first frame and final idle, and the response's end.
  await stack.call("timeline-start");
  await runRounds(timelineRounds);
  results[stack.name].timeline = await stack.call("timeline-stop");
}

// Last, the floor of a burst's CPU: the same bursts received by a WebSocket sink in each build's
// server process (bench/lib/websocket-sink.mjs), which only finds the final idle among the frames,
// after as many unmeasured ones as the adapter had and each after the same pause.
for (const stack of stacks) {
  for (let burst = 0; burst < burstWarmUps + burstRounds; burst += 1) {
    await sleep(burstPauseMs);
    const { frames, cpuMs: sinkCpuMs } = await stack.call("sink-burst");
    if (burst >= burstWarmUps) results[stack.name].sinkBurstCpuPer1000.push((sinkCpuMs / frames) * 1000);
  }
}

for (const stack of stacks) await stack.close();

/**
 * Idle RSS of apps/server (8 agents, emulator): 3 s after it listens, as the OS sees it; 6 s after it
 * listens, after full collections (bench/lib/report-memory.mjs); and after one echo turn on each agent.
 */
async function serverRss(root) {
  const mainPath = join(root, "apps", "server", "dist", "main.js");
  if (!existsSync(mainPath)) return undefined;
  const child = spawn(process.execPath, ["--expose-gc", "--import", join(repoRoot, "benchmarks", "bench", "lib", "report-memory.mjs"), mainPath], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ANTIGRAVITY_DEMO_HARNESS: "emulator", LOG_LEVEL: "info", DEMO_TASK_STEP_MS: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const collected = async () => {
    const seen = stderr.length;
    child.kill("SIGUSR2");
    for (let waited = 0; waited < 5_000; waited += 50) {
      const match = /MEMORY (\{.*\})\n/.exec(stderr.slice(seen));
      if (match !== null) return JSON.parse(match[1]).rss / 1024 / 1024;
      await sleep(50);
    }
    return undefined;
  };
  const url = await new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match !== null) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`apps/server exited with ${code}: ${output.slice(-500)}`)));
  });
  await sleep(3_000);
  const idleMiB = rssMiB(child.pid);
  await sleep(3_000);
  const idleCollectedMiB = await collected();
  const features = ["agentic_chat", "backend_tool_rendering", "human_in_the_loop", "tool_based_generative_ui", "shared_state", "agentic_generative_ui", "tool_approval", "questions"];
  for (const feature of features) {
    const thread = newThread();
    thread.messages.push({ id: randomUUID(), role: "user", content: "hello" });
    const response = await fetch(`${url}/${feature}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(runInputOf(thread.id, thread.messages)),
    });
    await response.text();
  }
  await sleep(2_000);
  const afterTurnsMiB = rssMiB(child.pid);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
  return { idleMiB, idleCollectedMiB, afterTurnsMiB };
}

const rss = {};
if (baselineRoot !== undefined) rss.baseline = await serverRss(baselineRoot);
rss.current = await serverRss(repoRoot);

const summary = {};
for (const [name, data] of Object.entries(results)) {
  summary[name] = {
    echoMs: median(data.echo),
    echoFirstTextP50Ms: median(data.echoFirstText),
    echoFirstTextP99Ms: percentile(data.echoFirstText, 0.99),
    relayEchoMs: median(data.relayEcho),
    relayEchoSameRequestMs: median(data.relayEchoSameRequest),
    leanPhase: data.leanPhase,
    timeline: data.timeline,
    echoCpuMs: median(data.echoCpu),
    newThreadMs: median(data.newThread),
    newThreadFirstTextMs: median(data.newThreadFirstText),
    warmAfterPauseMs: median(data.warmAfterPause),
    secondTurnAfterPauseMs: median(data.secondTurnAfterPause),
    burstMs: median(data.burst),
    relayBurstMs: median(data.relayBurst),
    burstEvents: data.burstEvents,
    burstCpuPer1000Ms: median(data.burstCpuPer1000),
    relayBurstCpuPer1000Ms: median(data.relayBurstCpuPer1000),
    sinkBurstCpuPer1000Ms: median(data.sinkBurstCpuPer1000),
    bytesPerEvent: data.bytesPerEvent,
    burstAllocationSites: data.burstAllocationSites,
    echoBytesPerEvent: data.echoBytesPerEvent,
    burstProfile: data.burstProfile,
    crowd: data.crowd,
    pacedP50Ms: median(data.paced.map((turn) => turn.p50)),
    pacedP99Ms: median(data.paced.map((turn) => turn.p99)),
    pacedRelayP50Ms: median(data.pacedRelay.map((turn) => turn.p50)),
    pacedRelayP99Ms: median(data.pacedRelay.map((turn) => turn.p99)),
    rss: rss[name],
  };
}
report({ echoRounds, warmUpTurns, newThreadRounds, newThreadPauseMs, burstRounds, burstWarmUps, burstPauseMs, crowd, pacedRounds, leanRounds, timelineRounds, baseline: baselineRoot !== undefined, stacks: summary });
