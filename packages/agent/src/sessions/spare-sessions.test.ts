import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionCloseReason } from "./session-manager.js";
import { MAX_SPARES_OPENING, type SpareSession, SpareSessions } from "./spare-sessions.js";

class FakeSpare implements SpareSession {
  harnessLost = false;
  closedWith: SessionCloseReason | undefined;
  constructor(readonly id: number) {}
  async close(reason: SessionCloseReason): Promise<void> {
    this.closedWith = reason;
  }
}

/** A stock whose opens the test finishes by hand, one by one, to see when the next one starts. */
function setup(options: { spares?: number; refillDelayMs?: number } = {}) {
  const opens: Array<{ signature: string; finish(): void; fail(): void }> = [];
  const warnings: string[] = [];
  const made: FakeSpare[] = [];
  const spares = new SpareSessions<FakeSpare>({
    spares: options.spares ?? 2,
    idleTimeoutMs: 60_000,
    refillDelayMs: options.refillDelayMs ?? 0,
    open: (signature) =>
      new Promise<FakeSpare>((resolve, reject) => {
        opens.push({
          signature,
          finish: () => {
            const spare = new FakeSpare(made.length + 1);
            made.push(spare);
            resolve(spare);
          },
          fail: () => reject(new Error("harness refused")),
        });
      }),
    warn: (_details, message) => void warnings.push(message),
  });
  stocks.push(spares);
  /** Lets scheduled opens start and settled ones land. */
  const settle = async (): Promise<void> => {
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
  };
  return { spares, opens, made, warnings, settle };
}
const stocks: Array<SpareSessions<FakeSpare>> = [];
afterEach(async () => {
  await Promise.all(stocks.splice(0).map((spares) => spares.close()));
});

describe("SpareSessions", () => {
  it("fills a contract's stock one open at a time once a new thread asked for it", async () => {
    const { spares, opens, settle } = setup({ spares: 2 });
    expect(spares.take("contract", [])).toBeUndefined();
    await settle();
    expect(opens).toHaveLength(MAX_SPARES_OPENING);
    opens[0]?.finish();
    await settle();
    expect(spares.ready).toBe(1);
    expect(opens).toHaveLength(2);
    opens[1]?.finish();
    await settle();
    expect(spares.ready).toBe(2);
    expect(opens).toHaveLength(2);
    expect(spares.take("contract", [])?.id).toBe(1);
  });

  it("opens no spare while a run waits for its session, and tops up once the last hold is released", async () => {
    const { spares, opens, settle } = setup({ spares: 1 });
    const first = spares.hold();
    const second = spares.hold();
    expect(spares.take("contract", [])).toBeUndefined();
    await settle();
    expect(opens).toHaveLength(0);
    first.release();
    first.release();
    await settle();
    expect(opens).toHaveLength(0);
    second.release();
    await settle();
    expect(opens).toHaveLength(1);
  });

  it("a failed open is not retried until a new thread asks again, and does not stall other contracts", async () => {
    const { spares, opens, warnings, settle } = setup({ spares: 1 });
    spares.take("failing", []);
    spares.take("working", []);
    await settle();
    expect(opens.map((open) => open.signature)).toEqual(["failing"]);
    opens[0]?.fail();
    await settle();
    expect(warnings).toEqual(["a spare session could not be opened"]);
    expect(opens.map((open) => open.signature)).toEqual(["failing", "working"]);
    opens[1]?.finish();
    await settle();
    expect(opens).toHaveLength(2);
    expect(spares.ready).toBe(1);
    spares.refill("failing");
    await sleep(1);
    await settle();
    expect(opens.map((open) => open.signature)).toEqual(["failing", "working", "failing"]);
  });

  it("replaces a taken spare only after the refill delay, and not at all once closed", async () => {
    const { spares, opens, settle } = setup({ spares: 1, refillDelayMs: 40 });
    spares.take("contract", []);
    await settle();
    opens[0]?.finish();
    await settle();
    expect(spares.take("contract", [])).toBeDefined();
    spares.refill("contract");
    spares.refill("contract");
    await settle();
    expect(opens).toHaveLength(1);
    await sleep(60);
    await settle();
    expect(opens).toHaveLength(2);
    opens[1]?.finish();
    await settle();
    expect(spares.take("contract", [])).toBeDefined();
    spares.refill("contract");
    await spares.close();
    await sleep(60);
    await settle();
    expect(opens).toHaveLength(2);
  });

  it("skips a spare whose harness died while it waited, and closes it", async () => {
    const { spares, opens, made, settle } = setup({ spares: 2 });
    spares.take("contract", []);
    await settle();
    opens[0]?.finish();
    await settle();
    opens[1]?.finish();
    await settle();
    expect(spares.ready).toBe(2);
    const [dead] = made;
    if (dead !== undefined) dead.harnessLost = true;
    expect(spares.take("contract", [])?.id).toBe(2);
    expect(dead?.closedWith).toBe("evicted");
    expect(spares.ready).toBe(0);
  });

  it("a spare that finishes opening after close() is closed, and nothing opens after it", async () => {
    const { spares, opens, made, settle } = setup({ spares: 1 });
    spares.take("contract", []);
    await settle();
    await spares.close();
    opens[0]?.finish();
    await settle();
    expect(spares.ready).toBe(0);
    expect(made[0]?.closedWith).toBe("evicted");
    spares.refill("contract");
    expect(spares.take("contract", [])).toBeUndefined();
    await settle();
    expect(opens).toHaveLength(1);
  });
});
