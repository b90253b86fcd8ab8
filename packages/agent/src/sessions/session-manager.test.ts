import { afterEach, describe, expect, it } from "vitest";
import { AgentError } from "../errors/agent-error.js";
import { type ManagedSession, type SessionCloseReason, SessionManager } from "./session-manager.js";

class FakeSession implements ManagedSession {
  isParked = false;
  closedWith: SessionCloseReason | undefined;
  constructor(readonly threadId: string) {}
  async close(reason: SessionCloseReason): Promise<void> {
    this.closedWith = reason;
  }
}

function setup(options: { maxSessions?: number; idleTimeoutMs?: number; parkedTimeoutMs?: number } = {}) {
  let now = 0;
  const created: FakeSession[] = [];
  const manager = new SessionManager<FakeSession>({
    ...options,
    now: () => now,
    create: async (threadId) => {
      const session = new FakeSession(threadId);
      created.push(session);
      return session;
    },
  });
  managers.push(manager);
  return { manager, created, advance: (ms: number) => (now += ms) };
}
const managers: Array<SessionManager<FakeSession>> = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return AgentError.isInstance(error) ? error.code : String(error);
  }
}

describe("SessionManager", () => {
  it("reuses a thread's live session and keeps threads apart", async () => {
    const { manager, created } = setup();
    const first = await manager.acquire("a");
    first.release();
    const again = await manager.acquire("a");
    const other = await manager.acquire("b");
    expect(again.session).toBe(first.session);
    expect(other.session).not.toBe(first.session);
    expect(created).toHaveLength(2);
  });

  it("refuses a second run on a busy thread without blocking other threads", async () => {
    const { manager } = setup();
    const lease = await manager.acquire("a");
    expect(await codeOf(manager.acquire("a"))).toBe("THREAD_BUSY");
    const other = await manager.acquire("b");
    other.release();
    lease.release();
    lease.release();
    (await manager.acquire("a")).release();
  });

  it("rebuilds a session the caller no longer accepts", async () => {
    const { manager, created } = setup();
    (await manager.acquire("a")).release();
    const lease = await manager.acquire("a", { reuse: () => false });
    expect(created).toHaveLength(2);
    expect(created[0]!.closedWith).toBe("rebuilt");
    expect(lease.session).toBe(created[1]);
  });

  it("sweeps idle sessions after the idle timeout and parked ones only after the parked timeout", async () => {
    const { manager, created, advance } = setup({ idleTimeoutMs: 1_000, parkedTimeoutMs: 5_000 });
    (await manager.acquire("idle")).release();
    const parked = await manager.acquire("parked");
    parked.session.isParked = true;
    parked.release();
    const busy = await manager.acquire("busy");
    advance(2_000);
    expect(await manager.sweep()).toBe(1);
    expect(created[0]!.closedWith).toBe("idle-timeout");
    expect(manager.has("parked")).toBe(true);
    advance(4_000);
    await manager.sweep();
    expect(created[1]!.closedWith).toBe("parked-timeout");
    expect(manager.has("busy")).toBe(true);
    busy.release();
  });

  it("touching a lease keeps a long run from looking idle", async () => {
    const { manager, advance } = setup({ idleTimeoutMs: 1_000 });
    const lease = await manager.acquire("a");
    advance(5_000);
    lease.touch();
    lease.release();
    advance(500);
    expect(await manager.sweep()).toBe(0);
  });

  it("evicts the least recently used idle session at the cap and refuses only when all are busy or parked", async () => {
    const { manager, created, advance } = setup({ maxSessions: 2 });
    (await manager.acquire("old")).release();
    advance(10);
    (await manager.acquire("new")).release();
    advance(10);
    const third = await manager.acquire("third");
    expect(created[0]!.closedWith).toBe("evicted");
    expect(manager.has("new")).toBe(true);
    const parked = await manager.acquire("new");
    parked.session.isParked = true;
    parked.release();
    expect(await codeOf(manager.acquire("fourth"))).toBe("SESSION_LIMIT");
    expect(manager.has("fourth")).toBe(false);
    third.release();
    (await manager.acquire("fourth")).release();
    expect(created[2]!.closedWith).toBe("evicted");
  });

  it("reports stats and closes everything on close", async () => {
    const { manager, created } = setup();
    const busy = await manager.acquire("a");
    const parked = await manager.acquire("b");
    parked.session.isParked = true;
    parked.release();
    expect(manager.stats()).toMatchObject({ liveSessions: 2, busySessions: 1, parkedSessions: 1 });
    busy.release();
    await manager.close();
    expect(created.map((session) => session.closedWith)).toEqual(["manager-closed", "manager-closed"]);
    expect(await codeOf(manager.acquire("a"))).toBe("AGENT_CLOSED");
  });

  it("forgets a thread whose session could not be created", async () => {
    let fail = true;
    const manager = new SessionManager<FakeSession>({
      create: async (threadId) => {
        if (fail) throw new Error("spawn failed");
        return new FakeSession(threadId);
      },
    });
    managers.push(manager);
    expect(await codeOf(manager.acquire("a"))).toBe("Error: spawn failed");
    fail = false;
    const lease = await manager.acquire("a");
    expect(lease.session.threadId).toBe("a");
    lease.release();
  });

  it("holds the session cap exactly when many threads arrive at once", async () => {
    const { manager } = setup({ maxSessions: 100 });
    const outcomes = await Promise.all(Array.from({ length: 120 }, (_, index) => codeOf(manager.acquire(`t${index}`))));
    expect(manager.stats().liveSessions).toBe(100);
    expect(outcomes.filter((code) => code === "SESSION_LIMIT")).toHaveLength(20);
  });

  it("does not echo a huge thread id in THREAD_BUSY", async () => {
    const { manager } = setup();
    const threadId = "x".repeat(100_000);
    await manager.acquire(threadId);
    await expect(manager.acquire(threadId)).rejects.toThrow(/^This thread already has a run in progress\.$/);
  });

  it("says what it holds of a thread: running while leased, parked, idle, none", async () => {
    const { manager, created } = setup();
    expect(manager.holding("t")).toBe("none");
    const lease = await manager.acquire("t");
    expect(manager.holding("t")).toBe("running");
    lease.release();
    expect(manager.holding("t")).toBe("idle");
    created[0]!.isParked = true;
    expect(manager.holding("t")).toBe("parked");
    await manager.closeThread("t");
    expect(manager.holding("t")).toBe("none");
  });

  it("evicts a session only while no run holds it and it is still the thread's", async () => {
    const { manager, created } = setup();
    const lease = await manager.acquire("t");
    const session = created[0]!;
    expect(manager.evict("t", session, "reclaimed")).toBe(false);
    lease.release();
    expect(manager.evict("t", new FakeSession("t"), "reclaimed")).toBe(false);
    expect(manager.evict("t", session, "reclaimed")).toBe(true);
    expect(session.closedWith).toBe("reclaimed");
    expect(manager.holding("t")).toBe("none");
  });

  it("a lease that does not refresh the idle clock (a trigger turn) leaves the thread to retire on time", async () => {
    const { manager, created, advance } = setup({ idleTimeoutMs: 1_000 });
    (await manager.acquire("t")).release();
    advance(900);
    const background = await manager.acquire("t", { refreshesIdle: false });
    background.touch();
    background.release();
    advance(200);
    expect(await manager.sweep()).toBe(1);
    expect(created[0]!.closedWith).toBe("idle-timeout");
  });
});

