// The thread map and thread ownership under faults: a save dir that cannot be written, several
// agents and processes on one save dir, 900 kB messages, a process killed mid-write, floods of
// refused runs, restarts. Each case failed before packages/agent/src/threads and
// packages/express/src/auth/*-ownership-store.ts (issue 13, findings 2, 3, 4 and 6).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import {
  AntigravityAgent,
  FileThreadStore,
  type ThreadKey,
  type ThreadRecordInput,
  type ThreadStore,
} from "@ag-ui-antigravity/agent";
import { createAntigravityApp } from "@ag-ui-antigravity/express";
import { expectNoChildProcesses, listenOnEphemeralPort } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { postRaw, RecordingLogger, runInput, settledHeapBytes, userMessage, waitFor } from "../support/stack.js";

const worker = fileURLToPath(new URL("../support/thread-store-worker.mjs", import.meta.url));
const directories: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
afterAll(async () => {
  await expectNoChildProcesses();
});

function saveDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "thread-store-"));
  directories.push(directory);
  return directory;
}

function demoAgent(options: ConstructorParameters<typeof AntigravityAgent>[0]): AntigravityAgent {
  const agent = new AntigravityAgent({ harness: "emulator", model: "emulator:demo", logger: {}, ...options });
  closers.push(() => agent.close({ deadlineMs: 10_000 }));
  return agent;
}

/** One in-process run; resolves with its event types and the assistant text. */
function runOnce(agent: AntigravityAgent, input: Partial<RunAgentInput>): Promise<{ types: string[]; text: string }> {
  return new Promise((resolve) => {
    const types: string[] = [];
    let text = "";
    agent.run(runInput(input)).subscribe({
      next: (event: BaseEvent) => {
        types.push(event.type);
        if (event.type === "TEXT_MESSAGE_CONTENT") text += String((event as { delta?: unknown }).delta ?? "");
      },
      error: (error: unknown) => resolve({ types: [...types, `error:${String(error)}`], text }),
      complete: () => resolve({ types, text }),
    });
  });
}

const succeeded = (run: { types: string[] }): boolean => run.types.at(-1) === "RUN_FINISHED";

/** Runs `count` jobs, `parallel` at a time. */
async function inBatches<Result>(count: number, parallel: number, job: (index: number) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = new Array<Result>(count);
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let index = next++; index < count; index = next++) results[index] = await job(index);
  }));
  return results;
}

function threadFiles(saveDir: string): string[] {
  const root = join(saveDir, "ag-ui-threads");
  return readdirSync(root).flatMap((agent) => readdirSync(join(root, agent)).map((name) => join(root, agent, name)));
}

describe("the thread map", () => {
  it("a save dir unwritable for one write, then restored: that run and 100/100 later runs succeed, and every thread is on disk", async () => {
    const saveDir = saveDirectory();
    const logger = new RecordingLogger();
    const agent = demoAgent({ agentId: "chat", saveDir, logger });
    expect(succeeded(await runOnce(agent, { threadId: "before", messages: [userMessage("hello")] }))).toBe(true);

    // Unwritable in a way that holds for root too: the thread directory is replaced by a file.
    const threads = join(saveDir, "ag-ui-threads");
    renameSync(threads, `${threads}.away`);
    writeFileSync(threads, "");
    const during = await runOnce(agent, { threadId: "during", messages: [userMessage("hello")] });
    expect(during.types.at(-1)).toBe("RUN_FINISHED");
    // The run does not wait for the map's write; the failure is recorded when the write fails.
    await waitFor(() => agent.stats().threadStore.writeFailures >= 1, { what: "the failed write to be counted" });
    expect(logger.matching(/the thread map could not be written/, "warn").length).toBeGreaterThanOrEqual(1);
    rmSync(threads);
    renameSync(`${threads}.away`, threads);

    const later = await inBatches(100, 8, (index) => runOnce(agent, { threadId: `after-${index}`, messages: [userMessage(`hello ${index}`)] }));
    const finished = later.filter(succeeded).length;
    expect(finished).toBe(100);
    await waitFor(() => agent.stats().threadStore.pendingWrites === 0, { what: "every change to be written" });
    expect(agent.stats().threadStore).toMatchObject({ pendingWrites: 0, droppedWrites: 0 });
    const store = new FileThreadStore({ directory: saveDir });
    for (const threadId of ["before", "during", ...Array.from({ length: 100 }, (_, index) => `after-${index}`)]) {
      expect(await store.get({ agentId: "chat", threadId }), threadId).toBeDefined();
    }
    console.info(`unwritable save dir: ${agent.stats().threadStore.writeFailures} failed write(s), then ${finished}/100 runs succeeded; 102/102 threads on disk`);
  }, 240_000);

  it("two agents and two processes on one save dir, 50 concurrent threads each: 0 runs failed, 0 entries lost, 0 cross-agent resumes", async () => {
    const saveDir = saveDirectory();
    const other = spawn(process.execPath, [worker, "runs", saveDir, "other", "50"], { stdio: ["ignore", "pipe", "inherit"] });
    let otherOutput = "";
    other.stdout.setEncoding("utf8").on("data", (chunk: string) => (otherOutput += chunk));
    const otherDone = new Promise<number | null>((resolve) => other.once("exit", resolve));
    closers.push(async () => {
      if (other.exitCode === null) other.kill("SIGKILL");
      await otherDone;
    });

    const threads = Array.from({ length: 50 }, (_, index) => `here-${index}`);
    const agents = ["alpha", "beta"].map((agentId) => ({ agentId, agent: demoAgent({ agentId, saveDir }) }));
    const here = await Promise.all(agents.flatMap(({ agentId, agent }) => threads.map((threadId) => runOnce(agent, { threadId, messages: [userMessage(`${agentId} says ${threadId}`)] }))));
    expect(await otherDone).toBe(0);
    const summary = JSON.parse(otherOutput) as { finished: number; failed: number };
    const failed = here.filter((run) => !succeeded(run)).length + summary.failed;
    expect(failed).toBe(0);

    await waitFor(() => agents.every(({ agent }) => agent.stats().threadStore.pendingWrites === 0), { what: "every change to be written" });
    // 2 agents × (50 + 50) threads, every one on disk, each agent's record its own conversation.
    const store = new FileThreadStore({ directory: saveDir });
    let lost = 0;
    let crossed = 0;
    for (const threadId of [...threads, ...Array.from({ length: 50 }, (_, index) => `other-${index}`)]) {
      const [alpha, beta] = await Promise.all(["alpha", "beta"].map((agentId) => store.get({ agentId, threadId })));
      if (alpha === undefined) lost += 1;
      if (beta === undefined) lost += 1;
      if (alpha !== undefined && alpha.conversationId === beta?.conversationId) crossed += 1;
    }
    expect(lost).toBe(0);
    expect(crossed).toBe(0);
    // One record per (agent, thread): one or two slot files each (and its transcript's), no temporary file left.
    expect(threadFiles(saveDir).filter((path) => path.endsWith(".tmp"))).toEqual([]);
    expect(new Set(threadFiles(saveDir).filter((path) => !path.includes(".transcript.")).map((path) => path.replace(/\.1$/, ""))).size).toBe(200);

    // Cold resumes (new agent objects, new harness processes) of alpha's threads, from the map: the
    // recap lists alpha's message, never beta's.
    await Promise.all(agents.map(({ agent }) => agent.close({ deadlineMs: 10_000 })));
    const alpha = demoAgent({ agentId: "alpha", saveDir });
    const recaps = await inBatches(10, 5, async (index) => {
      const threadId = index % 2 === 0 ? `here-${index}` : `other-${index}`;
      const first = userMessage(`alpha says ${threadId}`);
      return runOnce(alpha, { threadId, messages: [first, userMessage("recap")] });
    });
    const crossResumes = recaps.filter((run) => run.text.includes("beta says")).length;
    expect(crossResumes).toBe(0);
    expect(recaps.every((run, index) => succeeded(run) && run.text.includes(`alpha says ${index % 2 === 0 ? "here" : "other"}-${index}`))).toBe(true);
    console.info(`two agents × two processes × 50 threads: ${here.length + summary.finished} runs, ${failed} failed, ${lost} entries lost, ${crossed + crossResumes} cross-agent resumes`);
  }, 300_000);

  it("600 threads of 900 kB: the heap after GC grows < 10 MB, records stay the same small size, and map writes do not slow down", async () => {
    const saveDir = saveDirectory();
    const writeTimes: number[] = [];
    const files = new FileThreadStore({ directory: saveDir });
    // The agent's own store, timed: how long each update of the map takes as threads accumulate.
    const timed: ThreadStore = {
      get: (key: ThreadKey) => files.get(key),
      set: async (key: ThreadKey, record: ThreadRecordInput) => {
        const started = performance.now();
        await files.set(key, record);
        writeTimes.push(performance.now() - started);
      },
      delete: (key: ThreadKey) => files.delete(key),
      getTranscript: (key: ThreadKey) => files.getTranscript(key),
      setTranscript: (key, transcript) => files.setTranscript(key, transcript),
      claim: (key, owner) => files.claim(key, owner),
      releaseClaim: (key, owner) => files.releaseClaim(key, owner),
      listByOwner: (agentId, owner, options) => files.listByOwner(agentId, owner, options),
      keepsTranscripts: files.keepsTranscripts,
      stats: () => files.stats(),
      close: () => files.close(),
    };
    closers.push(() => files.close());
    // A scenario that answers "ok": the 900 kB go one way only, so the case measures the agent's memory.
    const scenario = join(saveDir, "quiet-scenario.json");
    writeFileSync(scenario, JSON.stringify({ name: "quiet", description: "answers ok", rules: [{ when: {}, actions: [{ type: "text-emit", text: "ok" }] }] }));
    const agent = demoAgent({ agentId: "chat", model: `emulator:${scenario}`, saveDir, threadStore: timed, sessions: { maxSessions: 20 } });
    const big = (index: number): string => `${index} ${"x".repeat(900_000)}`;
    const runThread = (index: number) => runOnce(agent, { threadId: `big-${index}`, messages: [{ id: `m-${index}`, role: "user", content: big(index) }] });

    const warmup = await inBatches(60, 4, runThread);
    // Each live conversation holds its last turn's steps (the 900 kB prompt among them): measure with
    // only the sessions' own conversations open, none still closing.
    const quiet = async (): Promise<boolean> => files.stats().pendingWrites === 0 && (await agent.poolMetrics()).conversations <= 20;
    const baseline = await settledHeapBytes(quiet);
    const earlyWrites = writeTimes.length;
    const rest = await inBatches(540, 4, (index) => runThread(index + 60));
    const after = await settledHeapBytes(quiet);
    expect([...warmup, ...rest].filter(succeeded)).toHaveLength(600);
    expect(after - baseline, `heap grew from ${baseline} to ${after}`).toBeLessThan(10 * 1024 * 1024);
    await waitFor(() => files.stats().pendingWrites === 0, { what: "every change to be written" });
    await waitFor(() => files.stats().pendingWrites === 0, { what: "every transcript to be written" });
    // Records hold digests, not text; transcripts hold what fits their bound (a 900 kB message does not).
    const sizes = threadFiles(saveDir).filter((path) => path.endsWith(".json") && !path.endsWith(".transcript.json")).map((path) => readFileSync(path).length);
    expect(sizes).toHaveLength(600);
    expect(Math.max(...sizes)).toBeLessThan(1_024);
    const transcripts = threadFiles(saveDir).filter((path) => path.endsWith(".transcript.json")).map((path) => readFileSync(path).length);
    expect(Math.max(...transcripts)).toBeLessThan(300 * 1024);
    const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
    const first = median(writeTimes.slice(0, earlyWrites));
    const last = median(writeTimes.slice(-earlyWrites));
    console.info(
      `600 threads of 900 kB: heap ${(baseline / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB after GC; record ≤ ${Math.max(...sizes)} B; map write median ${first.toFixed(2)} ms (threads 1–60) vs ${last.toFixed(2)} ms (last 60)`,
    );
  }, 900_000);

  it("a process killed mid-write leaves an intact store: every thread's record reads back whole, and an agent resumes from it", async () => {
    const saveDir = saveDirectory();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const writer = spawn(process.execPath, [worker, "write-loop", saveDir], { stdio: ["ignore", "pipe", "inherit"] });
      const exited = new Promise<void>((resolve) => writer.once("exit", () => resolve()));
      closers.push(async () => {
        if (writer.exitCode === null && writer.signalCode === null) writer.kill("SIGKILL");
        await exited;
      });
      await new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 150 + attempt * 100));
      writer.kill("SIGKILL");
      await exited;
    }
    // A thread's record is one or two slot files (`<digest>.json`, `<digest>.json.1`) written in turn
    // in place: a slot the kill cut off mid-write is torn, and the thread is read from its other one.
    const slots = threadFiles(saveDir).filter((path) => !path.endsWith(".tmp"));
    expect(new Set(slots.map((path) => path.replace(/\.1$/, ""))).size).toBe(20);
    const torn = slots.filter((path) => {
      try {
        const { serial, seal } = JSON.parse(readFileSync(path, "utf8")) as { serial?: number; seal?: number };
        return serial !== seal;
      } catch {
        return true;
      }
    }).length;
    const store = new FileThreadStore({ directory: saveDir });
    for (let index = 0; index < 20; index += 1) expect(await store.get({ agentId: "alpha", threadId: `thread-${index}` })).toBeDefined();
    const leftovers = threadFiles(saveDir).filter((path) => path.endsWith(".tmp")).length;
    const agent = demoAgent({ agentId: "alpha", saveDir });
    expect(succeeded(await runOnce(agent, { threadId: "thread-0", messages: [userMessage("hello after the crash")] }))).toBe(true);
    console.info(`killed mid-write 5 times: 20/20 records read back whole from ${slots.length} slot files (${torn} torn by a kill), ${leftovers} orphaned temporary file(s) (removed by the next clean-up)`);
  }, 120_000);
});

describe("thread ownership", () => {
  it("10 000 refused runs cannot change a thread's owner, nor claim a thread; ownership survives a restart", async () => {
    const saveDir = saveDirectory();
    const authorize = (request: { header(name: string): string | undefined }) => request.header("x-user") ?? null;
    const start = async () => {
      const agent = new AntigravityAgent({ agentId: "chat", harness: "emulator", model: "emulator:demo", saveDir, logger: {} });
      // Default settings: the agent keeps its threads' owners in their records, in the save dir.
      const server = await listenOnEphemeralPort(createAntigravityApp({ chat: agent }, { authorize }));
      const close = async () => {
        await server.close();
        await agent.close({ deadlineMs: 10_000 });
      };
      closers.push(close);
      return { url: new URL(`${server.url}/chat`), close };
    };
    const connection = new Agent({ keepAlive: true, maxSockets: 50 });
    closers.push(async () => connection.destroy());
    const post = (url: URL, user: string, input: Partial<RunAgentInput>) =>
      postRaw(url, connection, Buffer.from(JSON.stringify(runInput(input))), { "content-type": "application/json", "x-user": user });

    let server = await start();
    expect((await post(server.url, "alice", { threadId: "alices", messages: [userMessage("mine")] })).status).toBe(200);
    // A tool whose schema the agent refuses: a 400 before anything runs.
    const badTool = { name: "bad", description: "", parameters: { type: "object", properties: { x: { type: "nope" } } } };
    const statuses = new Map<number, number>();
    await inBatches(10_000, 50, async (index) => {
      const reply =
        index % 10 === 0
          ? await post(server.url, `mallory-${index}`, { threadId: `refused-${index}`, messages: [userMessage("x")], tools: [badTool] })
          : await post(server.url, `mallory-${index % 97}`, { threadId: "alices", messages: [userMessage("let me in")] });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    });
    expect(Object.fromEntries(statuses)).toEqual({ 400: 1_000, 403: 9_000 });
    const records = new FileThreadStore({ directory: saveDir });
    closers.push(() => records.close());
    expect((await records.get({ agentId: "chat", threadId: "alices" }))?.owner).toBe("alice");
    expect(await records.get({ agentId: "chat", threadId: "refused-0" })).toBeUndefined();

    await server.close();
    server = await start();
    expect((await post(server.url, "mallory-1", { threadId: "alices", messages: [userMessage("after the restart")] })).status).toBe(403);
    expect((await post(server.url, "alice", { threadId: "alices", messages: [userMessage("still mine")] })).status).toBe(200);
    expect((await post(server.url, "bob", { threadId: "refused-0", messages: [userMessage("free")] })).status).toBe(200);
    console.info(`10 000 refused runs (9 000 × 403, 1 000 × 400): owner unchanged, no thread claimed; after a restart the owner still holds the thread`);
  }, 300_000);

});
