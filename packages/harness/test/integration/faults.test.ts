import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HarnessError, type Turn, type WireRecord } from "../../src/index.js";
import { EmulatorFixture, FLOWS_MODEL } from "../support/emulator.js";

/** How long the parked custom tool waits; raise it for a soak (ANTIGRAVITY_TEST_PARK_MS=600000). */
const PARK_MS = Number(process.env.ANTIGRAVITY_TEST_PARK_MS ?? 30_000);

const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

async function firstStep(turn: Turn): Promise<AsyncIterator<unknown>> {
  const iterator = turn[Symbol.asyncIterator]();
  await iterator.next();
  return iterator;
}

describe("faults and long waits", () => {
  it("a process killed mid-turn rejects every conversation's turn within 1 s with CONNECTION_CLOSED and the stderr tail", async () => {
    const harness = await fixture.start();
    const conversations = await Promise.all([1, 2, 3].map(() => harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] })));
    const turns = conversations.map((conversation) => conversation.send("stall forever"));
    await Promise.all(turns.map((turn) => firstStep(turn)));
    const killedAt = Date.now();
    process.kill(harness.pid, "SIGKILL");
    const errors = await Promise.all(turns.map((turn) => turn.result.then(() => undefined, (error: unknown) => ({ error, at: Date.now() }))));
    for (const outcome of errors) {
      expect(outcome).toBeDefined();
      if (outcome === undefined) continue;
      expect(outcome.at - killedAt).toBeLessThan(1_000);
      expect(HarnessError.isInstance(outcome.error) && outcome.error.code).toBe("CONNECTION_CLOSED");
      expect((outcome.error as HarnessError).stderrTail.some((line) => line.includes("localharness-emulator"))).toBe(true);
    }
    await harness.closed;
    expect(conversations.every((conversation) => conversation.signal.aborted)).toBe(true);
  });

  it("a turn timeout halts the harness turn, drains, raises TIMEOUT, and the next turn works", async () => {
    const records: WireRecord[] = [];
    const harness = await fixture.start({ inspector: (record) => records.push(record) });
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], turnTimeoutMs: 600 });
    const started = Date.now();
    await expect(conversation.send("wait long please").result).rejects.toMatchObject({ code: "TIMEOUT" });
    // Halted and drained: the harness confirmed idle well before the 5 s drain bound.
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(records.some((record) => record.direction === "send" && record.messageKey === "haltRequest")).toBe(true);
    const next = conversation.send("plain next");
    for await (const _step of next) void _step;
    expect((await next.result).text).toBe("Final answer");
  });

  it(
    `a custom tool parked for ${PARK_MS} ms resumes, past a shorter turn timeout, without blocking a sibling conversation`,
    async () => {
      const harness = await fixture.start();
      let parkedSince = 0;
      const conversation = await harness.openConversation({
        model: FLOWS_MODEL,
        workspaces: ["/tmp"],
        turnTimeoutMs: Math.min(5_000, PARK_MS),
        customTools: [
          {
            name: "wait_for_human",
            description: "Waits for a human decision",
            parameters: { type: "object", properties: {} },
            handler: async () => {
              parkedSince = Date.now();
              await new Promise((resolve) => setTimeout(resolve, PARK_MS));
              return "approved";
            },
          },
        ],
      });
      const sibling = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
      const parked = conversation.send("park until a human answers");
      while (parkedSince === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const siblingTurn = sibling.send("plain while the other waits");
      expect((await siblingTurn.result).text).toBe("Final answer");
      const result = await parked.result;
      expect(Date.now() - parkedSince).toBeGreaterThanOrEqual(PARK_MS - 50);
      expect(result.text).toBe("Human said: approved");
    },
    PARK_MS + 30_000,
  );

  it("missed trigger intervals collapse into one delivery after a busy turn", async () => {
    const harness = await fixture.start();
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], triggers: [{ message: "tick", intervalMs: 40 }] });
    const first = conversation.send("plain first");
    await first.result;
    // Turns end on their idle, so a quick trigger turn may be followed by the next interval's: only the first is watched.
    const triggered: Turn[] = [];
    const unsubscribe = conversation.onTriggerTurn((turn) => {
      triggered.push(turn);
      unsubscribe();
    });
    while (triggered.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await triggered[0]?.result;
    // While a slow user turn runs, many intervals pass; afterwards at most one trigger is waiting.
    const seen: Turn[] = [];
    conversation.onTriggerTurn((turn) => seen.push(turn));
    const slow = conversation.send("slow please");
    await slow.result;
    // What the slow turn's end delivers at once: the next interval's own trigger is not the point here.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.length).toBeLessThanOrEqual(1);
    if (seen[0] !== undefined) expect((await seen[0].result).text).toBe("trigger ack: tick");
  });
});

describe("misbehaving harness", () => {
  it("a WebSocket the harness drops mid-turn fails only that conversation, with CONNECTION_CLOSED", async () => {
    const harness = await fixture.start();
    const dropped = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    const healthy = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    await expect(dropped.send("please drop the socket").result).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    await dropped.closed;
    expect(harness.conversationCount).toBe(1);
    expect((await healthy.send("plain still").result).text).toBe("Final answer");
  });

  it("a malformed frame is logged and skipped; the turn completes", async () => {
    const warnings: string[] = [];
    const harness = await fixture.start({ logger: { warn: (_fields, message = "") => void warnings.push(message) } });
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    expect((await conversation.send("send something malformed").result).text).toBe("Recovered.");
    expect(warnings.some((message) => message.includes("does not parse"))).toBe(true);
  });
});
