#!/usr/bin/env node
// Steps translated per second and bytes allocated per step, for the built StepTranslator and for a
// pass-through baseline (each step handed on as is), measured in the same process on the same
// pre-built turns. Run through `pnpm bench` (node --expose-gc --max-semi-space-size=128), which
// gives the young generation room for a whole allocation sample without a scavenge.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { StepTranslator } from "../dist/index.js";

if (typeof globalThis.gc !== "function") {
  console.error("run with node --expose-gc (pnpm bench does)");
  process.exit(1);
}

/** One realistic turn: streamed thinking and text, two tool calls, a subagent, and re-broadcasts. */
function buildTurn() {
  const deliveries = [];
  const base = (trajectoryId, stepIndex) => ({
    id: `${trajectoryId}:${stepIndex}`,
    cascadeId: "main",
    trajectoryId,
    stepIndex,
    kind: "text",
    status: "active",
    source: "model",
    target: "user",
    isMainTrajectory: trajectoryId === "main",
    text: "",
    textDelta: "",
    thinking: "",
    thinkingDelta: "",
    raw: {},
  });
  const stream = (trajectoryId, stepIndex, field, pieces) => {
    let cumulative = "";
    for (const piece of pieces) {
      cumulative += piece;
      deliveries.push({ ...base(trajectoryId, stepIndex), kind: field, [field]: cumulative, [`${field}Delta`]: piece });
    }
    const done = { ...base(trajectoryId, stepIndex), kind: field, [field]: cumulative, status: "done" };
    deliveries.push(done, done);
  };
  const words = (count, word) => Array.from({ length: count }, (_, index) => `${word}${index} `);
  const tool = (trajectoryId, stepIndex, call, result) => {
    const active = { ...base(trajectoryId, stepIndex), kind: call.kind === "subagent" ? "subagent" : "builtin_tool", tool: call };
    deliveries.push(active, active);
    return () => deliveries.push({ ...active, status: "done", tool: { ...call, result } });
  };

  stream("main", 0, "thinking", words(10, "think"));
  stream("main", 1, "text", words(30, "word"));
  tool("main", 2, { kind: "builtin", name: "list_directory", actionField: "listDirectory", arguments: { directoryPath: "/workspace/project" } }, {
    results: [{ name: "a.ts" }, { name: "b.ts" }],
  })();
  const finishInvoke = tool("main", 3, { kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} }, undefined);
  stream("sub", 0, "text", words(10, "sub"));
  tool("sub", 1, { kind: "builtin", name: "run_command", actionField: "runCommand", arguments: { commandLine: "npm test", workingDir: "/w" } }, {
    exitCode: 0,
    combinedOutput: "ok\n",
  })();
  finishInvoke();
  stream("main", 4, "text", words(20, "answer"));
  return deliveries;
}

class PassThrough {
  translate(step) {
    return [step];
  }
  closeRun() {
    return [];
  }
  reset() {}
}

const turn = buildTurn();

function runTurns(translator, turns) {
  let events = 0;
  for (let index = 0; index < turns; index += 1) {
    const stream = [];
    for (const step of turn) {
      const produced = translator.translate(step);
      for (const event of produced) stream.push(event);
    }
    for (const event of translator.closeRun()) stream.push(event);
    translator.reset();
    events += stream.length;
  }
  return events;
}

function throughput(translator) {
  runTurns(translator, 200); // warm up the JIT
  const turns = 4_000;
  const started = performance.now();
  const events = runTurns(translator, turns);
  const seconds = (performance.now() - started) / 1000;
  return { stepsPerSecond: (turns * turn.length) / seconds, eventsPerStep: events / (turns * turn.length) };
}

const collectionTimes = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collectionTimes.push(entry.startTime);
});
observer.observe({ entryTypes: ["gc"] });

/** Heap growth over a sample with no collection in between is what the sample allocated. */
async function allocationPerStep(translator) {
  runTurns(translator, 50);
  for (let turns = 400; turns >= 10; turns = Math.floor(turns / 2)) {
    globalThis.gc();
    const started = performance.now();
    const before = process.memoryUsage().heapUsed;
    runTurns(translator, turns);
    const after = process.memoryUsage().heapUsed;
    const ended = performance.now();
    // GC entries are delivered asynchronously; wait for them before judging the sample.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const collected = collectionTimes.some((time) => time >= started && time <= ended);
    if (!collected) return (after - before) / (turns * turn.length);
  }
  return Number.NaN;
}

const subjects = [
  ["pass-through baseline", () => new PassThrough()],
  ["StepTranslator", () => new StepTranslator()],
];
const rows = [];
for (const [name, create] of subjects) {
  const speed = throughput(create());
  const bytes = await allocationPerStep(create());
  rows.push({ name, ...speed, bytes });
}
observer.disconnect();

const [baseline, subject] = rows;
const format = (value, digits = 0) => (Number.isNaN(value) ? "n/a" : value.toLocaleString("en-US", { maximumFractionDigits: digits }));
console.log(`StepTranslator benchmark: ${turn.length} deliveries per turn, Node ${process.version}\n`);
console.log("| subject | steps/s | bytes allocated/step | events/step |");
console.log("|---|---:|---:|---:|");
for (const row of rows) console.log(`| ${row.name} | ${format(row.stepsPerSecond)} | ${format(row.bytes)} | ${format(row.eventsPerStep, 2)} |`);
console.log(
  `| translator vs baseline | ${format(subject.stepsPerSecond / baseline.stepsPerSecond, 3)}× | +${format(subject.bytes - baseline.bytes)} B | |`,
);
