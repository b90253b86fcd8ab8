// Many runs and many threads: per-thread exclusion, and memory held to the configured caps.
// packages/express/test/e2e/faults.e2e.test.ts checks one 409 against a slow run; here both runs
// start at the same instant, on many threads at once.
import { Agent, request as httpRequest } from "node:http";
import { randomUUID } from "node:crypto";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type Stack, reliabilityModel, runInput, settledHeapBytes, startStack, userMessage } from "../support/stack.js";

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});
afterAll(async () => {
  await expectNoChildProcesses();
});

interface Reply {
  status: number;
  body: string;
}

function post(url: URL, agent: Agent, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: "POST", agent, headers: { "content-type": "application/json", accept: "text/event-stream", "content-length": String(payload.length), ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

const eventTypes = (body: string): string[] =>
  body
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => String((JSON.parse(line.slice(5)) as { type?: unknown }).type));

describe("threads", () => {
  it("two runs on one thread at the same instant: exactly one 409 THREAD_BUSY, the other runs to the end (20 threads at once)", async () => {
    stack = await startStack({ chat: { model: reliabilityModel } });
    const url = new URL(`${stack.url}/chat`);
    const agent = new Agent({ keepAlive: true });
    // A first run per thread opens its conversation, so the race below is on a warm session.
    const threads = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all(threads.map((threadId) => post(url, agent, runInput({ threadId, messages: [userMessage("hello")] }))));

    const pairs = await Promise.all(
      threads.map((threadId) => Promise.all([0, 1].map((index) => post(url, agent, runInput({ threadId, messages: [userMessage(`long turn ${index}`)] }))))),
    );
    for (const pair of pairs) {
      const statuses = pair.map((reply) => reply.status).sort();
      expect(statuses).toEqual([200, 409]);
      const refused = pair.find((reply) => reply.status === 409)!;
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "THREAD_BUSY", message: expect.any(String) } });
      const served = eventTypes(pair.find((reply) => reply.status === 200)!.body);
      expect(served[0]).toBe("RUN_STARTED");
      expect(served.at(-1)).toBe("RUN_FINISHED");
    }
    agent.destroy();
  });

  it("10 000 threads created and dropped: sessions, remembered threads, owners, conversations and the heap stay within the caps", async () => {
    const caps = { maxSessions: 96, maxRememberedThreads: 200, maxThreadOwners: 300, perProcess: 32 };
    const inFlight = 64;
    stack = await startStack(
      { chat: { model: reliabilityModel, sessions: { maxSessions: caps.maxSessions, maxRememberedThreads: caps.maxRememberedThreads }, pool: { healthCheckIntervalMs: 0, maxConversationsPerProcess: caps.perProcess } } },
      { maxThreadOwners: caps.maxThreadOwners, authorize: (request) => request.header("x-user") ?? null },
    );
    const chat = stack.agents.chat!;
    const url = new URL(`${stack.url}/chat`);
    const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
    const statuses = new Map<number, number>();
    let unexpected = "";

    const createThreads = async (count: number): Promise<void> => {
      let next = 0;
      await Promise.all(
        // Fewer runs in flight than sessions, so every run finds an idle session to evict.
        Array.from({ length: inFlight }, async () => {
          for (let index = next++; index < count; index = next++) {
            const reply = await post(url, agent, runInput({ messages: [userMessage(`thread ${index}`)] }), { "x-user": `user-${index % 97}` });
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
            if (reply.status !== 200 || !reply.body.includes("RUN_FINISHED")) unexpected ||= `${reply.status}: ${reply.body.slice(0, 300)}`;
          }
        }),
      );
    };

    await createThreads(1_000);
    const baseline = await settledHeapBytes();
    const started = performance.now();
    await createThreads(9_000);
    const elapsedMs = performance.now() - started;
    const after = await settledHeapBytes();

    expect(unexpected).toBe("");
    expect(statuses.get(200)).toBe(10_000);
    const stats = chat.stats();
    expect(stats.sessions.liveSessions).toBeLessThanOrEqual(caps.maxSessions);
    expect(stats.rememberedThreads).toBeLessThanOrEqual(caps.maxRememberedThreads);
    const metrics = await chat.poolMetrics();
    expect(metrics.conversations).toBeLessThanOrEqual(caps.maxSessions);
    expect(metrics.processes).toBeLessThanOrEqual(Math.ceil(caps.maxSessions / caps.perProcess) + 1);
    expect(metrics.totals.crashes).toBe(0);
    // 9 000 more threads than the baseline, and the heap holds about what it held at 1 000.
    expect(after - baseline, `heap grew from ${baseline} to ${after}`).toBeLessThan(16 * 1024 * 1024);
    console.info(`10 000 threads: ${Math.round(elapsedMs)} ms for the last 9 000; heap ${(baseline / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB; ${metrics.processes} processes`);
    agent.destroy();
  }, 240_000);
});
