import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HarnessError } from "../../src/index.js";
import { EmulatorFixture, FLOWS_MODEL } from "../support/emulator.js";

/*
 * The client and a harness that speak different releases (docs/protocol.md, "Versions"), with the
 * emulator as strict as the real harness: a frame the harness cannot parse fails fast with
 * PROTOCOL_SKEW instead of a turn that never starts; a harness newer than every known release is
 * spoken to as the newest, with a warning and a drift entry.
 */
const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

describe("protocol versions against the emulator", () => {
  it("a turn input the harness cannot parse gives PROTOCOL_SKEW in under 2 s", async () => {
    // The client is told 0.1.10 (userInput as a string); the emulator runs 0.1.21 (userInput{parts}).
    const harness = await fixture.start({ harnessVersion: "0.1.10", env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.21" } });
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    const started = Date.now();
    const error = (await conversation.send("plain hello").result.catch((caught: unknown) => caught)) as HarnessError;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(HarnessError.isInstance(error) && error.code).toBe("PROTOCOL_SKEW");
    expect(error.subject).toBe("userInput");
    expect(error.message).toContain("this client speaks harness protocol 0.1.10");
  });

  it("an init the harness cannot parse fails the open with PROTOCOL_SKEW naming the field", async () => {
    const harness = await fixture.start({ harnessVersion: "0.1.21", env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10" } });
    const started = Date.now();
    const error = (await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"], budget: { maxToolCalls: 3 } }).catch((caught: unknown) => caught)) as HarnessError;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(HarnessError.isInstance(error) && error.code).toBe("PROTOCOL_SKEW");
    // The harness names the first field it cannot read, in the order the frame has them.
    expect(error.message).toMatch(/unknown field "(manageTask|schedule|agentBehavior|budgetConfig)"/);
  });

  it("a harness newer than every known release is spoken to as the newest, with one warning and a drift entry", async () => {
    const logged: { level: string; message: string }[] = [];
    const record = (level: string) => (_fields: Record<string, unknown>, message = "") => void logged.push({ level, message });
    const harness = await fixture.start({ harnessVersion: "0.1.22", logger: { info: record("info"), warn: record("warn") } });
    expect(harness.protocol).toMatchObject({ version: "0.1.22", source: "option", newerThanKnown: true });
    expect(harness.protocol.dialect.version).toBe("0.1.21");
    expect(logged.filter((entry) => entry.message.includes("newer than 0.1.21"))).toEqual([
      { level: "warn", message: expect.stringContaining("harness 0.1.22 is newer than 0.1.21") },
    ]);
    expect(harness.driftReport().harnessVersions).toEqual([{ kind: "harness-version", path: "harness", value: "0.1.22", count: 1 }]);
    const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    expect((await conversation.send("plain hello").result).text).toBe("Final answer");
  });

  it("says at startup which release it speaks and why", async () => {
    const logged: string[] = [];
    await fixture.start({ harnessVersion: "0.1.18", logger: { info: (_fields, message = "") => void logged.push(message) } });
    expect(logged).toContain("speaking harness protocol 0.1.18 (from the harnessVersion option)");
  });
});
