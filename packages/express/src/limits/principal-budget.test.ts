import { describe, expect, it } from "vitest";
import { isRefusal, PrincipalBudget } from "./principal-budget.js";

describe("PrincipalBudget", () => {
  it("caps concurrent runs per client, others unaffected", () => {
    const budget = new PrincipalBudget({ maxConcurrentRuns: 2, maxParkedThreads: 5, parkedTtlMs: 1_000 });
    const first = budget.begin("a", "t1");
    const second = budget.begin("a", "t2");
    const third = budget.begin("a", "t3");
    expect(isRefusal(first) || isRefusal(second)).toBe(false);
    expect(third).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 1 });
    expect(isRefusal(budget.begin("b", "t4"))).toBe(false);
    if (!isRefusal(first)) first.end("ended");
    expect(isRefusal(budget.begin("a", "t3"))).toBe(false);
  });

  it("counts parks against their owner, always admits the answer, and forgets expired parks", () => {
    let now = 0;
    const budget = new PrincipalBudget({ maxConcurrentRuns: 10, maxParkedThreads: 2, parkedTtlMs: 60_000 }, () => now);
    for (const thread of ["p1", "p2"]) {
      const ticket = budget.begin("a", thread);
      if (!isRefusal(ticket)) ticket.end("parked");
    }
    const refused = budget.begin("a", "p3");
    expect(refused).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 60 });
    expect((refused as { message: string }).message).toMatch(/2 threads waiting on its answers/);
    expect(isRefusal(budget.begin("b", "q1"))).toBe(false);
    // The answer to p1 is admitted, and once it ends without parking again, p3 fits.
    const answer = budget.begin("a", "p1");
    expect(isRefusal(answer)).toBe(false);
    if (!isRefusal(answer)) answer.end("ended");
    const p3 = budget.begin("a", "p3");
    expect(isRefusal(p3)).toBe(false);
    if (!isRefusal(p3)) p3.end("parked");
    now = 61_000;
    expect(isRefusal(budget.begin("a", "p4"))).toBe(false);
  });

  it("holds nothing for a client with nothing running or parked", () => {
    const budget = new PrincipalBudget({ maxConcurrentRuns: 1, maxParkedThreads: 1, parkedTtlMs: 1_000 });
    const ticket = budget.begin("a", "t");
    if (!isRefusal(ticket)) {
      ticket.end("ended");
      ticket.end("parked");
    }
    expect(budget.size).toBe(0);
  });
});
