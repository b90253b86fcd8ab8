// Acceptance of the multi-replica deployment (deploy/README.md), against the real thing: Debian's
// redis-server and haproxy, three replicas of apps/server on the emulator, and @ag-ui/client's
// HttpAgent talking to the proxy as a browser app would.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "@ag-ui/core";
import { descendantPids, isProcessAlive, servicesRequired } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCluster, type Cluster, type ClusterReplica } from "../src/cluster.js";
import { findExecutable } from "../src/system-packages.js";
import { ClusterThread, type TurnResult } from "./support/cluster-client.js";

const missing = ["redis-server", "haproxy"].filter((name) => findExecutable(name) === undefined);
// The cluster installs what is missing with apt-get; without root that is impossible, so say why.
const skipReason = missing.length > 0 && process.getuid?.() !== 0 && !servicesRequired() ? `${missing.join(" and ")} missing and not root (apt-get install -y redis-server haproxy)` : undefined;

const replicaTtlMs = 2_000;
const threadCount = 30;
const changeBackground: Tool = {
  name: "change_background",
  description: "Changes the page background",
  parameters: { type: "object", properties: { background: { type: "string" } }, required: ["background"] },
};

let cluster: Cluster;
let route: string;

function expectSuccess(result: TurnResult, label: string): void {
  expect(result.requestError?.message, label).toBeUndefined();
  expect(result.runError, label).toBeUndefined();
  expect(result.events.at(-1)?.type, label).toBe("RUN_FINISHED");
}

/** A thread's record in Redis (one hash: record, transcript, owner, holder, fence), read with redis-cli. */
function redisHash(redisUrl: string, agentId: string, threadId: string): Record<string, string> {
  const port = new URL(redisUrl).port;
  const thread = createHash("sha256").update(threadId).digest("base64url");
  const keys = spawnSync("redis-cli", ["-p", port, "--scan", "--pattern", `ag-ui:record:${agentId}-*:${thread}`], { encoding: "utf8" }).stdout.trim().split("\n").filter((key) => key !== "");
  expect(keys).toHaveLength(1);
  const fields = spawnSync("redis-cli", ["-p", port, "--raw", "HGETALL", keys[0]!], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout.split("\n");
  const hash: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) hash[fields[index]!] = fields[index + 1]!;
  return hash;
}

/** One run of `thread` posted to a replica directly (past HAProxy), with the thread's history. */
async function postTurn(url: string, thread: ClusterThread, text: string): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const messages = [...thread.agent.messages, { id: `${thread.threadId}-direct-${Date.now()}`, role: "user", content: text }];
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ threadId: thread.threadId, runId: `direct-${Date.now()}`, state: {}, messages, tools: [], context: [], forwardedProps: {} }),
  });
  return { status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") };
}

/** How many writes a replica's agentic_chat thread store refused as stale (its /metrics). */
async function staleWritesRefused(url: string): Promise<number> {
  const metrics = (await (await fetch(`${url}/metrics`)).json()) as { agents: { agentic_chat: { threadStore: { staleWritesRefused?: number } } } };
  return metrics.agents.agentic_chat.threadStore.staleWritesRefused ?? 0;
}

/** Runs `work` over `items`, `width` at a time: 2 cores do not gain from more. */
async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) results.push(...(await Promise.all(items.slice(start, start + width).map(work))));
  return results;
}

describe.skipIf(skipReason !== undefined)(`cluster: redis-server + haproxy + 3 replicas${skipReason === undefined ? "" : ` (skipped: ${skipReason})`}`, () => {
  const threads: ClusterThread[] = [];
  const firstReplica = new Map<string, string | null>();
  let parked: ClusterThread;
  let parkedCallId: string;
  let killed: ClusterReplica;
  let orphans: number[] = [];
  /** Where each thread lives after the kill. */
  const newHome = new Map<string, string | null>();

  // Kept after stop(), as `pnpm cluster` keeps it; this suite removes it itself.
  const logDirectory = mkdtempSync(join(tmpdir(), "cluster-test-logs-"));

  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 3,
      port: 0,
      logDirectory,
      // CLIENT_LIMITS off: this one test process is every thread's client (one address) and runs
      // all 30 threads' turns at once, past one client's share (8 runs) on purpose.
      replicaEnv: { ANTIGRAVITY_DEMO_HARNESS: "emulator", ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "1", REPLICA_TTL_MS: String(replicaTtlMs), LOG_LEVEL: "info", CLIENT_LIMITS: "off" },
    });
    route = `${cluster.url}/agentic_chat`;
  });

  afterAll(async () => {
    await cluster?.stop();
    try {
      // What each process said is still there after the cluster stopped.
      expect(readdirSync(logDirectory).sort()).toEqual(["haproxy.log", "redis.log", "replica-1.log", "replica-2.log", "replica-3.log"]);
      expect(readFileSync(join(logDirectory, "replica-1.log"), "utf8")).toMatch(/listening on http/);
      expect(readFileSync(join(logDirectory, "redis.log"), "utf8")).toMatch(/Ready to accept connections/);
    } finally {
      rmSync(logDirectory, { recursive: true, force: true });
    }
    // Everything the cluster started is gone, the killed replica's orphaned harnesses included.
    expect(descendantPids().filter((pid) => isProcessAlive(pid))).toEqual([]);
    const deadline = Date.now() + 10_000;
    while (orphans.some(isProcessAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(orphans.filter(isProcessAlive)).toEqual([]);
  });

  it("keeps each of 30 threads on one replica for both of its turns, and spreads the threads", async () => {
    for (let index = 0; index < threadCount; index += 1) threads.push(new ClusterThread(route, `sticky-thread-${index}`));
    const first = await inBatches(threads, 10, (thread) => thread.turn(`My favourite number is ${thread.threadId.split("-").at(-1)}.`));
    const second = await inBatches(threads, 10, (thread) => thread.turn(`I live in city ${thread.threadId.split("-").at(-1)}.`));
    for (const [index, thread] of threads.entries()) {
      expectSuccess(first[index]!, `${thread.threadId} turn 1`);
      expectSuccess(second[index]!, `${thread.threadId} turn 2`);
      expect(first[index]!.replica, thread.threadId).toMatch(/^replica-[123]$/);
      expect(second[index]!.replica, thread.threadId).toBe(first[index]!.replica);
      firstReplica.set(thread.threadId, first[index]!.replica);
    }
    expect(new Set(firstReplica.values()).size).toBeGreaterThan(1);
  });

  it("routes a 1 MB RunAgentInput to its thread's replica (threadId first in the body, or in the header)", async () => {
    const thread = threads[0]!;
    const padding = "x".repeat(1_000_000);
    const big = await thread.turn("A long one.", { forwardedProps: { padding } });
    expectSuccess(big, "1 MB run");
    expect(big.replica).toBe(firstReplica.get(thread.threadId));
    // threadId last, past what HAProxy buffers: only the header can route it.
    const headerRouted = new ClusterThread(route, "header-routed-thread");
    const small = await headerRouted.turn("A short one.");
    expectSuccess(small, "small run");
    const body = JSON.stringify({ runId: "big-run", state: {}, messages: [...headerRouted.agent.messages, { id: "big-user", role: "user", content: "Another long one." }], tools: [], context: [], forwardedProps: { padding }, threadId: headerRouted.threadId });
    expect(body.indexOf('"threadId"')).toBeGreaterThan(1_000_000);
    const response = await fetch(route, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", "x-ag-ui-thread-id": headerRouted.threadId }, body });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ag-ui-antigravity-replica")).toBe(small.replica);
    expect(await response.text()).toContain("RUN_FINISHED");
  });

  it("routes a thread the same with and without the header, commas and all, and refuses a body that names threadId twice", async () => {
    const post = (body: string, headers: Record<string, string> = {}) => fetch(route, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", ...headers }, body });
    const threadId = "a,b,c thread with commas";
    const input = (text: string) => ({ threadId, runId: `run-${text}`, state: {}, messages: [{ id: `m-${text}`, role: "user", content: text }], tools: [], context: [], forwardedProps: {} });
    // One run after the other: a thread runs one run at a time (a second one meanwhile is refused).
    const plain = await post(JSON.stringify(input("one")));
    expect(await plain.text()).toContain("RUN_FINISHED");
    const withHeader = await post(JSON.stringify(input("two")), { "x-ag-ui-thread-id": threadId });
    expect([plain.status, withHeader.status]).toEqual([200, 200]);
    expect(withHeader.headers.get("x-ag-ui-antigravity-replica")).toBe(plain.headers.get("x-ag-ui-antigravity-replica"));
    expect(await withHeader.text()).toContain("RUN_FINISHED");
    // Routed on the first threadId, run on the last: refused (400) before anything runs, wherever it lands.
    const twice = JSON.stringify(input("three")).replace(`"threadId":${JSON.stringify(threadId)}`, `"threadId":"someone-elses","threadId":${JSON.stringify(threadId)}`);
    const refused = await post(twice);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    // The header sent twice is refused by the proxy itself.
    const doubled = await new Promise<number>((resolve, reject) => {
      const outgoing = request(route, { method: "POST", headers: ["content-type", "application/json", "x-ag-ui-thread-id", threadId, "x-ag-ui-thread-id", "another"] }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on("error", reject);
      outgoing.end(JSON.stringify(input("four")));
    });
    expect(doubled).toBe(400);
  });

  it("parks a turn on a frontend tool call (the run ends with the call open)", async () => {
    parked = new ClusterThread(route, "parked-thread");
    const result = await parked.turn("Please change the background to blue.", { tools: [changeBackground] });
    expectSuccess(result, "parking turn");
    const call = result.events.find((event) => event.type === "TOOL_CALL_START") as { toolCallId: string; toolCallName: string } | undefined;
    expect(call?.toolCallName).toBe("change_background");
    parkedCallId = call!.toolCallId;
    killed = cluster.replicas.find((replica) => replica.id === result.replica)!;
    expect(killed).toBeDefined();
  });

  it("kill -9 of that replica during 30 threads' turns: every thread's next run succeeds through HAProxy, no 4xx or 5xx reaching a client", async () => {
    const movedThreads = threads.filter((thread) => firstReplica.get(thread.threadId) === killed.id);
    expect(movedThreads.length).toBeGreaterThan(0);
    orphans = descendantPids(killed.pid);
    // 30 turns at once; the replica dies while they stream (those on it are cut: their clients see
    // the stream break, as when a server crashes mid-reply).
    const begun = threads.map((thread) => thread.statuses.length);
    const during = Promise.all(threads.map((thread) => thread.turn(`A third message from thread ${thread.threadId.split("-").at(-1)}.`)));
    // Killed once a moved thread's reply has begun: the kill lands while runs are under way.
    await vi.waitFor(() => expect(movedThreads.some((thread) => thread.statuses.length > begun[threads.indexOf(thread)]!)).toBe(true), { timeout: 10_000, interval: 5 });
    process.kill(killed.pid, "SIGKILL");
    await killed.process.exited;
    const cut = await during;
    for (const [index, thread] of threads.entries()) if (firstReplica.get(thread.threadId) !== killed.id) expectSuccess(cut[index]!, `${thread.threadId} (not on the killed replica)`);

    // No wait: each moved thread's next run reaches a live replica (HAProxy retries the refused
    // connection elsewhere), which waits for the dead replica's lease to lapse and takes the thread over.
    const statusesBefore = threads.map((thread) => thread.statuses.length);
    const recaps = await Promise.all(threads.map((thread) => thread.turn("Please recap.")));
    for (const [index, thread] of threads.entries()) {
      const result = recaps[index]!;
      const number = thread.threadId.split("-").at(-1);
      expectSuccess(result, `${thread.threadId} after the kill`);
      expect(thread.statuses.slice(statusesBefore[index]).filter((status) => status >= 400), thread.threadId).toEqual([]);
      expect(result.replica, thread.threadId).not.toBe(killed.id);
      // Consistent hashing: only the dead replica's threads move.
      if (firstReplica.get(thread.threadId) !== killed.id) expect(result.replica, thread.threadId).toBe(firstReplica.get(thread.threadId));
      // Its own earlier messages, never another thread's.
      expect(result.reply, thread.threadId).toContain(`1. ${JSON.stringify(`My favourite number is ${number}.`)}`);
      expect(result.reply, thread.threadId).toContain(`2. ${JSON.stringify(`I live in city ${number}.`)}`);
      expect(result.reply.match(/favourite number is \d+/g), thread.threadId).toEqual([`favourite number is ${number}`]);
      newHome.set(thread.threadId, result.replica);
    }
  });

  it("ends the turn that was parked on the killed replica with RUN_ERROR PARKED_TURN_LOST, and the thread's next message continues", async () => {
    const result = await parked.turn(undefined, {
      tools: [changeBackground],
      extraMessages: [{ id: "parked-tool-result", role: "tool", toolCallId: parkedCallId, content: "Background changed to blue." }],
    });
    expect(result.replica).not.toBe(killed.id);
    expect(result.runError?.code, result.requestError?.message).toBe("PARKED_TURN_LOST");
    // Never another thread's data.
    expect(JSON.stringify(result.events)).not.toMatch(/favourite number|city \d/);
    const next = await parked.turn("Please recap.", { tools: [changeBackground] });
    expectSuccess(next, "the parked thread's next message");
    expect(next.reply).toBe('Recap of your earlier messages:\n1. "Please change the background to blue."');
  });

  it("a replica paused past its heartbeat (SIGSTOP) loses its thread to another, and after SIGCONT answers 503 THREAD_ELSEWHERE: only one replica ever writes the thread", async () => {
    const live = cluster.replicas.filter((replica) => replica.id !== killed.id);
    const thread = threads.find((candidate) => newHome.get(candidate.threadId) === live[0]!.id)!;
    const [paused, other] = [live[0]!, live[1]!];
    const record = () => redisHash(cluster.redisUrl, "agentic_chat", thread.threadId);
    const before = record();
    expect(before["holder"]).toBe(paused.id);
    process.kill(paused.pid, "SIGSTOP");
    try {
      await new Promise((resolve) => setTimeout(resolve, replicaTtlMs + 700));
      // The thread's next run, on another replica: it takes the thread over (a new fencing token).
      const movedOn = await postTurn(`${other.url}/agentic_chat`, thread, "While the first one sleeps.");
      expect(movedOn.status).toBe(200);
      expect(movedOn.text).toContain("RUN_FINISHED");
    } finally {
      process.kill(paused.pid, "SIGCONT");
    }
    const taken = record();
    expect(taken["holder"]).toBe(other.id);
    expect(Number(taken["fence"])).toBeGreaterThan(Number(before["fence"]));
    // Awake again, the stale replica drops its sessions and does not serve the thread: 503 with Retry-After.
    const stale = await postTurn(`${paused.url}/agentic_chat`, thread, "Am I still here?");
    expect(stale.status).toBe(503);
    expect(stale.retryAfter).toBe("1");
    expect(JSON.parse(stale.text).error.code).toBe("THREAD_ELSEWHERE");
    // Its one attempt to write the thread (closing the session it held) was refused: the record is the other replica's.
    await vi.waitFor(async () => expect(await staleWritesRefused(paused.url)).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
    const after = record();
    expect(after["holder"]).toBe(other.id);
    expect(after["record"]).toBe(taken["record"]);
  });
});
