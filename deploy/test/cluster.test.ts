// Acceptance of the multi-replica deployment (deploy/README.md), against the real thing: Debian's
// redis-server and haproxy, three replicas of apps/server on the emulator, and @ag-ui/client's
// HttpAgent talking to the proxy as a browser app would.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "@ag-ui/core";
import { descendantPids, isProcessAlive, servicesRequired } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  // Kept after stop(), as `pnpm cluster` keeps it; this suite removes it itself.
  const logDirectory = mkdtempSync(join(tmpdir(), "cluster-test-logs-"));

  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 3,
      port: 0,
      logDirectory,
      replicaEnv: { ANTIGRAVITY_DEMO_HARNESS: "emulator", ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "1", REPLICA_TTL_MS: String(replicaTtlMs), LOG_LEVEL: "info" },
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

  it("after kill -9 of that replica, every thread's next turn succeeds and recaps all its earlier messages", async () => {
    const movedThreads = threads.filter((thread) => firstReplica.get(thread.threadId) === killed.id);
    expect(movedThreads.length).toBeGreaterThan(0);
    orphans = descendantPids(killed.pid);
    process.kill(killed.pid, "SIGKILL");
    await killed.process.exited;
    // A dead replica's leases lapse with its heartbeat (REPLICA_TTL_MS); HAProxy marks it down on
    // the first refused connection. Past that, no run has to be retried.
    await new Promise((resolve) => setTimeout(resolve, replicaTtlMs + 1_000));

    const recaps = await inBatches(threads, 10, (thread) => thread.turn("Please recap."));
    for (const [index, thread] of threads.entries()) {
      const result = recaps[index]!;
      const number = thread.threadId.split("-").at(-1);
      expectSuccess(result, `${thread.threadId} after the kill`);
      expect(result.replica, thread.threadId).not.toBe(killed.id);
      // Consistent hashing: only the dead replica's threads move.
      if (firstReplica.get(thread.threadId) !== killed.id) expect(result.replica, thread.threadId).toBe(firstReplica.get(thread.threadId));
      const earlier = [`My favourite number is ${number}.`, `I live in city ${number}.`, ...(index === 0 ? ["A long one."] : [])];
      expect(result.reply, thread.threadId).toBe(`Recap of your earlier messages:\n${earlier.map((text, position) => `${position + 1}. ${JSON.stringify(text)}`).join("\n")}`);
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
});
