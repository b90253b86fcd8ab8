// Fair shares (issue 38): what one client holds is counted until the agent lets it go, whatever the
// kind (a parked frontend tool, a question whose answer was refused, a run whose client left, a
// `stayOpen` stream, a connect), and never taken from everyone else: past a limit that client gets
// 429 with Retry-After while another client's next run is served. Each case failed before the fix.
import { randomUUID } from "node:crypto";
import type { Message } from "@ag-ui/core";
import { MemoryOwnershipStore } from "@ag-ui-antigravity/express";
import { describe, expect, it } from "vitest";
import { eventTypesOf, postRun, reliabilityModel, userMessage, useStacks, waitFor } from "../support/stack.js";

const { startStack } = useStacks();

const asUser = (user: string): Record<string, string> => ({ "x-user": user });
const authorize = (request: { header(name: string): string | undefined }): string | null => request.header("x-user") ?? null;
const pickColor = { name: "pick_color", description: "Ask the user for a colour.", parameters: { type: "object", properties: { question: { type: "string" } } } };

async function statusCounts(replies: Response[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const reply of replies) {
    counts[reply.status] = (counts[reply.status] ?? 0) + 1;
    await reply.text();
  }
  return counts;
}

/** Alice's first run on a new thread: its status and whether it streamed to RUN_FINISHED. */
async function aliceRuns(url: string): Promise<{ status: number; types: string[] }> {
  const reply = await postRun(url, { threadId: randomUUID(), messages: [userMessage("hello")] }, asUser("alice"));
  return { status: reply.status, types: reply.status === 200 ? await eventTypesOf(reply) : (await reply.text(), []) };
}

describe("fair shares: one account of what a client holds", () => {
  it("a turn parked on a frontend tool counts as a park: 3 of 10 admitted, the rest 429; alice is served", async () => {
    const stack = await startStack(
      { chat: { model: reliabilityModel, sessions: { maxSessions: 10 } } },
      { authorize, clientLimits: { maxParkedThreads: 3 } },
    );
    const replies: Response[] = [];
    // One after the other: each run parks (its RUN_FINISHED carries no interrupt outcome) before the next.
    for (let index = 0; index < 10; index += 1) {
      const reply = await postRun(`${stack.url}/chat`, { threadId: randomUUID(), messages: [userMessage("pick one")], tools: [pickColor] }, asUser("mallory"));
      replies.push(reply);
      if (reply.status === 200) expect(await eventTypesOf(reply.clone())).toContain("RUN_FINISHED");
    }
    const retryAfter = replies.find((reply) => reply.status === 429)?.headers.get("retry-after");
    expect(await statusCounts(replies)).toEqual({ 200: 3, 429: 7 });
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(stack.agents.chat!.stats().sessions.parkedSessions).toBe(3);
    const alice = await aliceRuns(`${stack.url}/chat`);
    expect(alice.status).toBe(200);
    expect(alice.types).toContain("RUN_FINISHED");
  });

  it("a refused answer (400 INVALID_ANSWER) leaves its question counted: with a cap of 2, mallory holds 2", async () => {
    const stack = await startStack(
      { chat: { model: reliabilityModel, builtinTools: ["ask_question"] } },
      { authorize, clientLimits: { maxParkedThreads: 2 } },
    );
    const parked: Array<{ threadId: string; ask: Message; interruptId: string }> = [];
    for (let index = 0; index < 2; index += 1) {
      const threadId = randomUUID();
      const ask = userMessage("ask");
      const reply = await postRun(`${stack.url}/chat`, { threadId, messages: [ask] }, asUser("mallory"));
      const text = await reply.text();
      const interruptId = /"interrupts":\[\{"id":"([^"]+)"/.exec(text)?.[1];
      expect(interruptId).toBeDefined();
      parked.push({ threadId, ask, interruptId: interruptId! });
    }
    for (const { threadId, ask, interruptId } of parked) {
      const refused = await postRun(
        `${stack.url}/chat`,
        { threadId, messages: [ask], resume: [{ interruptId, status: "resolved", payload: { answer: "Go" } }] } as never,
        asUser("mallory"),
      );
      expect(refused.status).toBe(400);
      await refused.text();
    }
    const more = [];
    for (let index = 0; index < 8; index += 1) more.push(await postRun(`${stack.url}/chat`, { threadId: randomUUID(), messages: [userMessage("ask")] }, asUser("mallory")));
    expect(await statusCounts(more)).toEqual({ 429: 8 });
    expect(stack.agents.chat!.stats().sessions.parkedSessions).toBe(2);
    const alice = await aliceRuns(`${stack.url}/chat`);
    expect(alice.status).toBe(200);
  });

  it("a connect claims nothing: 200 connects leave no owner, and a thread's real first user is served", async () => {
    const ownershipStore = new MemoryOwnershipStore({ maxEntries: 100 });
    try {
      const stack = await startStack({ chat: { model: reliabilityModel } }, { authorize, ownershipStore });
      const squatted = randomUUID();
      const connects = await Promise.all(
        Array.from({ length: 200 }, (_, index) => postRun(`${stack.url}/chat/connect`, { threadId: index === 0 ? squatted : randomUUID() }, asUser("mallory"))),
      );
      expect(await statusCounts(connects)).toEqual({ 200: 200 });
      expect(ownershipStore.stats().owners).toBe(0);
      const alice = await postRun(`${stack.url}/chat`, { threadId: squatted, messages: [userMessage("hello")] }, asUser("alice"));
      expect(alice.status).toBe(200);
      expect(await eventTypesOf(alice)).toContain("RUN_FINISHED");
      // And what a thread's owner holds stays hers: mallory's connect to it is refused.
      const peek = await postRun(`${stack.url}/chat/connect`, { threadId: squatted }, asUser("mallory"));
      expect(peek.status).toBe(403);
      await peek.text();
    } finally {
      await ownershipStore.close();
    }
  });

  it("stayOpen streams count per client: the 9th gets 429 with Retry-After, another client's is served", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } }, { authorize, clientLimits: { maxOpenStreams: 8 } });
    const url = `${stack.url}/chat`;
    const threads = Array.from({ length: 9 }, () => randomUUID());
    for (const threadId of threads) await eventTypesOf(await postRun(url, { threadId, messages: [userMessage("hi")] }, asUser("mallory")));
    const controller = new AbortController();
    try {
      const streams = [];
      for (const threadId of threads) streams.push(await postRun(`${url}/connect`, { threadId, forwardedProps: { stayOpen: true } }, asUser("mallory"), controller.signal));
      const refused = streams.at(-1)!;
      expect(streams.slice(0, 8).map((reply) => reply.status)).toEqual(Array(8).fill(200));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
      const threadId = randomUUID();
      expect(await eventTypesOf(await postRun(url, { threadId, messages: [userMessage("mine")] }, asUser("alice")))).toContain("RUN_FINISHED");
      const follow = await postRun(`${url}/connect`, { threadId, forwardedProps: { stayOpen: true } }, asUser("alice"), controller.signal);
      expect(follow.status).toBe(200);
    } finally {
      controller.abort();
    }
  });

  it("followers holding every reconnect channel do not switch connect off for another client's new thread", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel, reconnect: { maxThreads: 4, replayGraceMs: 0 } } }, { authorize });
    const url = `${stack.url}/chat`;
    const controller = new AbortController();
    try {
      for (let index = 0; index < 4; index += 1) {
        const threadId = randomUUID();
        await eventTypesOf(await postRun(url, { threadId, messages: [userMessage("hi")] }, asUser("mallory")));
        expect((await postRun(`${url}/connect`, { threadId, forwardedProps: { stayOpen: true } }, asUser("mallory"), controller.signal)).status).toBe(200);
      }
      const threadId = randomUUID();
      expect(await eventTypesOf(await postRun(url, { threadId, messages: [userMessage("mine")] }, asUser("alice")))).toContain("RUN_FINISHED");
      const snapshot = await postRun(`${url}/connect`, { threadId }, asUser("alice"));
      expect(snapshot.status).toBe(200);
      expect(await snapshot.text()).toMatch(/MESSAGES_SNAPSHOT.*mine/s);
    } finally {
      controller.abort();
    }
  });

  it("with onDisconnect continue, a run counts until it really ends: 2 detached runs hold both of mallory's slots", async () => {
    const stack = await startStack(
      { chat: { model: reliabilityModel, reconnect: { onDisconnect: "continue" } } },
      { authorize, clientLimits: { maxConcurrentRuns: 2 } },
    );
    const url = `${stack.url}/chat`;
    const agent = stack.agents.chat!;
    // Two long runs whose clients leave after their first event.
    for (let index = 0; index < 2; index += 1) {
      const controller = new AbortController();
      const reply = await postRun(url, { threadId: randomUUID(), messages: [userMessage(`long turn ${index}`)] }, asUser("mallory"), controller.signal);
      expect(reply.status).toBe(200);
      const reader = reply.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.cancel().catch(() => undefined);
    }
    await waitFor(() => agent.stats().sessions.busySessions === 2, { what: "two detached runs" });
    const more = await Promise.all(Array.from({ length: 6 }, () => postRun(url, { threadId: randomUUID(), messages: [userMessage("long turn")] }, asUser("mallory"))));
    const counts = await statusCounts(more);
    expect(counts).toEqual({ 429: 6 });
    // Alice is not mallory.
    expect((await aliceRuns(url)).status).toBe(200);
    // Once the detached runs end, mallory is served again.
    await waitFor(() => agent.stats().sessions.busySessions === 0, { what: "the detached runs' end", timeoutMs: 30_000 });
    const later = await postRun(url, { threadId: randomUUID(), messages: [userMessage("hello")] }, asUser("mallory"));
    expect(later.status).toBe(200);
    await later.text();
  });
});

describe("fair shares: triggers end with their thread", () => {
  it("threads nobody uses retire after their idle timeout, and their triggers stop", async () => {
    const stack = await startStack({
      chat: { model: reliabilityModel, triggers: [{ message: "tick", intervalMs: 200 }], sessions: { idleTimeoutMs: 1_500 }, reconnect: { onDisconnect: "continue" } },
    });
    const agent = stack.agents.chat!;
    for (let index = 0; index < 3; index += 1) await eventTypesOf(await postRun(`${stack.url}/chat`, { messages: [userMessage("hello")] }));
    expect(agent.stats().sessions.liveSessions).toBe(3);
    // Idle timeout 1.5 s; the sweep runs at least every half of it.
    await waitFor(() => agent.stats().sessions.liveSessions === 0, { what: "idle threads retired despite their triggers", timeoutMs: 8_000 });
  });

  it("a thread runs at most triggerLimits.maxTurnsPerThread trigger turns without a client run, then retires", async () => {
    const stack = await startStack({
      chat: { model: reliabilityModel, triggers: [{ message: "tick", intervalMs: 100 }], triggerLimits: { maxTurnsPerThread: 3 } },
    });
    const agent = stack.agents.chat!;
    const threadId = randomUUID();
    await eventTypesOf(await postRun(`${stack.url}/chat`, { threadId, messages: [userMessage("hello")] }));
    await waitFor(() => agent.stats().sessions.liveSessions === 0, { what: "the thread retired after 3 trigger turns", timeoutMs: 10_000 });
    expect(stack.logger.matching(/trigger turns/).length).toBeGreaterThan(0);
  });

  it("the agent relays at most triggerLimits.maxTurnsInFlight trigger turns at once and cancels the others", async () => {
    const stack = await startStack({
      // Each trigger turn streams for a few seconds ("long turn …"), so two threads' turns overlap.
      chat: { model: reliabilityModel, triggers: [{ message: "long turn from the schedule", intervalMs: 100 }], triggerLimits: { maxTurnsInFlight: 1 } },
    });
    await Promise.all([0, 1].map(() => postRun(`${stack.url}/chat`, { messages: [userMessage("hello")] }).then(eventTypesOf)));
    await waitFor(() => stack.logger.matching(/a trigger turn was cancelled/).length > 0, { what: "a trigger turn cancelled past maxTurnsInFlight", timeoutMs: 10_000 });
    expect(stack.agents.chat!.stats().sessions.busySessions).toBeLessThanOrEqual(1);
  });
});

