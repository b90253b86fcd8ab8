// The client's waits on the harness (end of turn, halt, ping/pong) were tuned against the emulator
// (docs/protocol.md, "Assumptions and how we hedge them"). These tests run the emulator faster and
// slower than its defaults and check that correctness does not depend on its timing, and that each
// wait is an option that does what it says.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HarnessError, type Conversation, type Turn } from "../../src/index.js";
import { EmulatorFixture, FLOWS_MODEL } from "../support/emulator.js";

const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The warnings the client logged, by message. */
function warnings() {
  const messages: string[] = [];
  return { messages, logger: { warn: (_fields: object, message = "") => void messages.push(message) } };
}

async function firstStep(turn: Turn): Promise<void> {
  for await (const _step of turn) return;
}

async function drained(turn: Turn) {
  for await (const _step of turn) void _step;
  return turn.result;
}

const emulatorTimings = {
  fast: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0", ANTIGRAVITY_EMULATOR_IDLE_DELAY_MS: "0", ANTIGRAVITY_EMULATOR_PONG_DELAY_MS: "0" },
  slow: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "40", ANTIGRAVITY_EMULATOR_IDLE_DELAY_MS: "700", ANTIGRAVITY_EMULATOR_PONG_DELAY_MS: "150" },
} as const;

describe.each(Object.entries(emulatorTimings))("a %s harness, with the client's default waits", (_label, env) => {
  it("ends each turn with its whole answer, keeps the socket through pings, and ends a halted turn on the harness's confirmation", async () => {
    const log = warnings();
    const harness = await fixture.start({ env, logger: log.logger });
    // Pings three times as often as the default, each answered late by the slow harness.
    const conversation: Conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], timings: { pingIntervalMs: 400 } });
    expect((await drained(conversation.send("plain please"))).text).toBe("Final answer");
    expect((await drained(conversation.send("think first"))).cancelled).toBe(false);
    await sleep(1_300);
    expect(conversation.signal.aborted).toBe(false);

    const halted = conversation.send("wait long please");
    await firstStep(halted);
    halted.cancel();
    const result = await halted.result;
    expect(result.cancelled).toBe(true);
    // The harness's idle ended it, not the client giving up on it.
    expect(log.messages).not.toContain("the harness did not end the trajectory in time; ending the turn anyway");
    expect((await drained(conversation.send("plain again"))).text).toBe("Final answer");
    expect(log.messages.filter((message) => message.includes("missed a pong"))).toEqual([]);
  });
});

describe("the client's waits are options", () => {
  it("haltDrainMs: a halt whose confirmation takes longer than the drain is given up on, said so, and the conversation goes on", async () => {
    const log = warnings();
    const harness = await fixture.start({ env: { ANTIGRAVITY_EMULATOR_IDLE_DELAY_MS: "1500" }, logger: log.logger });
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], timings: { haltDrainMs: 100 } });
    const halted = conversation.send("wait long please");
    await firstStep(halted);
    halted.cancel();
    expect((await halted.result).cancelled).toBe(true);
    expect(log.messages).toContain("the harness did not end the trajectory in time; ending the turn anyway");
    // The late idle of the halted turn must not end the next one.
    await sleep(1_600);
    expect((await drained(conversation.send("plain after"))).text).toBe("Final answer");
  });

  it("pingIntervalMs: a harness that answers pings later than the interval is closed; with pings off it never is", async () => {
    const log = warnings();
    const harness = await fixture.start({ env: { ANTIGRAVITY_EMULATOR_PONG_DELAY_MS: "5000" }, logger: log.logger });
    const pinged = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], timings: { pingIntervalMs: 200 } });
    const unpinged = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], timings: { pingIntervalMs: false } });
    const deadline = Date.now() + 10_000;
    while (!pinged.signal.aborted && Date.now() < deadline) await sleep(50);
    expect(pinged.signal.aborted).toBe(true);
    expect(log.messages.some((message) => message.includes("missed a pong"))).toBe(true);
    expect(unpinged.signal.aborted).toBe(false);
    expect((await drained(unpinged.send("plain still"))).text).toBe("Final answer");
  });

  it("rejects a wait out of bounds with CONFIG_INVALID naming it, before anything is sent", async () => {
    const harness = await fixture.start();
    const error = await harness.openConversation({ model: FLOWS_MODEL, timings: { idleSettleMs: -1 } }).catch((caught: unknown) => caught);
    expect(HarnessError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toContain("timings.idleSettleMs");
    const unknown = await harness.openConversation({ model: FLOWS_MODEL, timings: { pingEveryMs: 5 } as never }).catch((caught: unknown) => caught);
    expect(HarnessError.isInstance(unknown) && unknown.code).toBe("CONFIG_INVALID");
  });
});
