import { describe, expect, it } from "vitest";
import { ClientAccounts, isAccountRefusal, type AccountThread, type ClientLimits, type RunTicket } from "./client-accounts.js";
import type { ThreadHolding } from "./thread-holdings.js";

const limits = (overrides: Partial<ClientLimits> = {}): ClientLimits => ({ maxConcurrentRuns: 10, maxParkedThreads: 10, maxOpenStreams: 10, parkedTtlMs: 60_000, ...overrides });

/** An agent's view of its threads, set by the test. */
class FakeAgent {
  readonly holdings = new Map<string, ThreadHolding>();
  thread(key: string): AccountThread {
    return { key, holding: () => this.holdings.get(key) ?? "none" };
  }
}

function admitted(admission: ReturnType<ClientAccounts["admitRun"]>): RunTicket {
  if (isAccountRefusal(admission)) throw new Error(`refused: ${admission.message}`);
  return admission;
}

describe("ClientAccounts", () => {
  it("caps runs in flight per client; another client is unaffected", () => {
    const accounts = new ClientAccounts(limits({ maxConcurrentRuns: 2 }));
    const agent = new FakeAgent();
    const first = admitted(accounts.admitRun("a", agent.thread("t1")));
    admitted(accounts.admitRun("a", agent.thread("t2")));
    expect(accounts.admitRun("a", agent.thread("t3"))).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 1 });
    expect(isAccountRefusal(accounts.admitRun("b", agent.thread("t4")))).toBe(false);
    first.end("ended");
    expect(isAccountRefusal(accounts.admitRun("a", agent.thread("t3")))).toBe(false);
  });

  it("counts a run until the agent says it ended, also after its request ended (a detached run, a server turn)", () => {
    const accounts = new ClientAccounts(limits({ maxConcurrentRuns: 1 }));
    const agent = new FakeAgent();
    const ticket = admitted(accounts.admitRun("a", agent.thread("t1")));
    agent.holdings.set("t1", "running");
    ticket.end("ended");
    expect(accounts.admitRun("a", agent.thread("t2"))).toMatchObject({ code: "RATE_LIMITED" });
    // Idle but kept: a trigger turn the server starts on it counts again.
    agent.holdings.set("t1", "idle");
    admitted(accounts.admitRun("a", agent.thread("t2"))).end("ended");
    agent.holdings.set("t1", "running");
    expect(accounts.admitRun("a", agent.thread("t3"))).toMatchObject({ code: "RATE_LIMITED" });
    agent.holdings.set("t1", "none");
    expect(isAccountRefusal(accounts.admitRun("a", agent.thread("t3")))).toBe(false);
  });

  it("counts every park the agent reports (a frontend tool's RUN_FINISHED has no outcome), and a refused request releases none", () => {
    let now = 0;
    const accounts = new ClientAccounts(limits({ maxParkedThreads: 2, parkedTtlMs: 60_000 }), () => now);
    const agent = new FakeAgent();
    for (const thread of ["p1", "p2"]) {
      const ticket = admitted(accounts.admitRun("a", agent.thread(thread)));
      agent.holdings.set(thread, "parked");
      ticket.end("ended");
    }
    now = 10_000;
    const refused = accounts.admitRun("a", agent.thread("p3"));
    expect(refused).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 50 });
    expect((refused as { message: string }).message).toMatch(/2 threads waiting on its answers and 0 runs in flight/);
    // The answer is admitted; refused (a 400), the park stays counted.
    admitted(accounts.admitRun("a", agent.thread("p1"))).end("refused");
    expect(isAccountRefusal(accounts.admitRun("a", agent.thread("p3")))).toBe(true);
    // The agent lets p1 go (answered, expired, evicted): p3 fits.
    agent.holdings.set("p1", "none");
    expect(isAccountRefusal(accounts.admitRun("a", agent.thread("p3")))).toBe(false);
    expect(isAccountRefusal(accounts.admitRun("b", agent.thread("q1")))).toBe(false);
  });

  it("for an agent that cannot say, counts parks from the run's outcome until a later run ends otherwise or the TTL passes; a refusal changes nothing", () => {
    let now = 0;
    const accounts = new ClientAccounts(limits({ maxParkedThreads: 1, parkedTtlMs: 60_000 }), () => now);
    const blind = (key: string): AccountThread => ({ key, holding: undefined });
    admitted(accounts.admitRun("a", blind("p1"))).end("parked");
    expect(isAccountRefusal(accounts.admitRun("a", blind("p2")))).toBe(true);
    admitted(accounts.admitRun("a", blind("p1"))).end("refused");
    expect(isAccountRefusal(accounts.admitRun("a", blind("p2")))).toBe(true);
    now = 61_000;
    expect(isAccountRefusal(accounts.admitRun("a", blind("p2")))).toBe(false);
  });

  it("caps stayOpen streams per client", () => {
    const accounts = new ClientAccounts(limits({ maxOpenStreams: 2 }));
    const first = accounts.admitStream("a");
    accounts.admitStream("a");
    expect(accounts.admitStream("a")).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 5 });
    expect(isAccountRefusal(accounts.admitStream("b"))).toBe(false);
    if (!isAccountRefusal(first)) first.end();
    expect(isAccountRefusal(accounts.admitStream("a"))).toBe(false);
  });

  it("holds no account for a client that holds nothing", () => {
    const accounts = new ClientAccounts(limits());
    const agent = new FakeAgent();
    const ticket = admitted(accounts.admitRun("a", agent.thread("t")));
    ticket.end("ended");
    ticket.end("parked");
    const stream = accounts.admitStream("a");
    if (!isAccountRefusal(stream)) stream.end();
    // Remembered until its next request asks the agent.
    expect(accounts.size).toBe(1);
    // Its next request finds that the agent holds nothing of "t"; a refused request adds nothing.
    admitted(accounts.admitRun("a", agent.thread("u"))).end("refused");
    admitted(accounts.admitRun("b", { key: "v", holding: undefined })).end("ended");
    expect(accounts.size).toBe(0);
  });

  it("counts runs in flight as parks they may become: concurrent runs cannot overshoot the parked cap", () => {
    const accounts = new ClientAccounts(limits({ maxParkedThreads: 2 }));
    const agent = new FakeAgent();
    admitted(accounts.admitRun("a", agent.thread("p1")));
    admitted(accounts.admitRun("a", agent.thread("p2")));
    expect(accounts.admitRun("a", agent.thread("p3"))).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 1 });
  });
});

