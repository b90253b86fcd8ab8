// One client cannot take what everyone shares: its parked questions and its concurrent runs count
// against its own budget (429 + Retry-After), never against another client's run. Before the
// budgets, mallory's parks filled every session and alice got 503 SESSION_LIMIT.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { postRun, reliabilityModel, userMessage, useStacks } from "../support/stack.js";

const { startStack } = useStacks();

const asUser = (user: string): Record<string, string> => ({ "x-user": user });

describe("client budgets", () => {
  it("one client with 100 parked questions cannot make another client's run fail", async () => {
    const stack = await startStack(
      { chat: { model: reliabilityModel, builtinTools: ["ask_question"], sessions: { maxSessions: 24 } } },
      {
        authorize: (request) => request.header("x-user") ?? null,
        // The binding's defaults (8 runs, 16 parks), which createAntigravityApp turns on by itself.
        clientLimits: {},
      },
    );
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    // 100 questions, 10 at a time (each run parks, so it ends quickly).
    for (let batch = 0; batch < 10; batch += 1) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => postRun(`${stack!.url}/chat`, { threadId: randomUUID(), messages: [userMessage("ask")] }, asUser("mallory"))));
      for (const reply of replies) {
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 429) retryAfter ??= reply.headers.get("retry-after");
        await reply.text();
      }
    }
    const parked = stack.agents.chat!.stats().sessions.parkedSessions;
    // Alice, meanwhile, is served.
    const alice = await postRun(`${stack.url}/chat`, { threadId: randomUUID(), messages: [userMessage("hello")] }, asUser("alice"));
    const aliceText = await alice.text();
    console.info(`client budgets: mallory's 100 questions → ${JSON.stringify(Object.fromEntries(statuses))}, ${parked} parked, Retry-After ${retryAfter}; alice → ${alice.status}`);
    expect(alice.status).toBe(200);
    expect(aliceText).toContain("RUN_FINISHED");
    expect(parked).toBe(16);
    expect(statuses.get(429)).toBe(84);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it("without auth, one address past its concurrent runs gets 429 with Retry-After, and its own later runs are served", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } }, { clientLimits: { maxConcurrentRuns: 3 } });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, index) => postRun(`${stack!.url}/chat`, { messages: [userMessage(`long turn ${index}`)] })));
    const statuses = replies.map((reply) => reply.status).sort();
    const refused = replies.find((reply) => reply.status === 429);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(refused?.headers.get("retry-after")).toBe("1");
    expect(((await refused!.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    await Promise.all(replies.map((reply) => (reply.bodyUsed ? undefined : reply.text())));
    const later = await postRun(`${stack.url}/chat`, { messages: [userMessage("hello")] });
    expect(later.status).toBe(200);
    await later.text();
  });
});
