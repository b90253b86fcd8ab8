// What the emulator refuses, as the real harness refuses it: an init frame its release cannot parse
// ends the process with the parse error on stderr; a later frame it cannot parse is dropped with a
// line on stderr and the connection stays up. With ANTIGRAVITY_EMULATOR_STRICT=0 the same frames pass.
import { afterAll, describe, expect, it } from "vitest";
import { configFor, isAlive, outboundViolations, reapLeaks, spawnEmulator, waitForStderr, type EmulatorProcess } from "./support/emulator-driver.js";

const spawned: EmulatorProcess[] = [];

async function start(env: Record<string, string> = {}): Promise<EmulatorProcess> {
  const emulator = await spawnEmulator({ env });
  spawned.push(emulator);
  return emulator;
}

afterAll(async () => {
  for (const emulator of spawned) if (isAlive(emulator.child.pid) && emulator.child.exitCode === null) await emulator.stop();
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

describe("an init frame the release cannot parse", () => {
  it("makes the process exit with the parse error naming the field, as the harness does", async () => {
    const emulator = await start();
    const other = await emulator.connect();
    await other.init(configFor("plain"));
    const conversation = await emulator.connect();
    conversation.send({ config: { ...configFor("plain"), futureField: true } });
    const exit = await emulator.exited;
    expect(exit.code).toBe(1);
    expect(emulator.stderr()).toMatch(/Failed to parse initial message: proto: \(line 1:\d+\): unknown field "futureField"/);
    // The whole process went: every conversation with it.
    await other.closed;
    expect(conversation.messages).toEqual([]);
  });

  it("refuses an enum name newer than the release (0.1.15 and LIFECYCLE_HOOK_STOP)", async () => {
    const emulator = await start({ ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.15" });
    const conversation = await emulator.connect();
    conversation.send({ config: configFor("plain", { enabledHooks: ["LIFECYCLE_HOOK_PRE_TURN", "LIFECYCLE_HOOK_STOP"] }) });
    expect((await emulator.exited).code).toBe(1);
    expect(emulator.stderr()).toContain('invalid value for enum field enabledHooks: "LIFECYCLE_HOOK_STOP"');
  });

  it("takes the same frame with strictness off", async () => {
    const emulator = await start({ ANTIGRAVITY_EMULATOR_STRICT: "0" });
    const conversation = await emulator.connect();
    const init = await conversation.init({ ...configFor("plain"), futureField: true });
    expect(init["initializeConversationResponse"].cascadeId).toMatch(/^[0-9a-f]{32}$/);
    conversation.say("hello");
    await conversation.untilIdle();
    await conversation.close();
  });
});

describe("a later frame the release cannot parse", () => {
  it("is dropped with a line on stderr; the connection stays up and the next frame works", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("plain"));
    conversation.send({ userInput: { parts: [{ text: "never runs" }] }, futureField: 1 });
    await waitForStderr(emulator, 'Failed to parse input event: proto: (line 1:48): unknown field "futureField"');
    // The 0.1.10 shape of a turn, sent to a newer release: the turn silently never starts.
    conversation.send({ userInput: "plain text" });
    await waitForStderr(emulator, 'Failed to parse input event: proto: (line 1:2): invalid value for message field userInput: "plain text"');
    conversation.send({ complexUserInput: { parts: [{ text: "old" }] } });
    await waitForStderr(emulator, 'unknown field "complexUserInput"');
    conversation.send("{ this is not json");
    await waitForStderr(emulator, "Failed to parse input event: proto: syntax error (line 1:");
    // Binary frames carry no message; they are ignored.
    conversation.socket.send(Buffer.from([1, 2, 3]));
    expect(conversation.messages.some((message) => message["trajectoryStateUpdate"] !== undefined)).toBe(false);
    conversation.say("this one runs");
    const turn = await conversation.untilIdle();
    expect(turn.filter((message) => message["trajectoryStateUpdate"]?.state === "STATE_RUNNING")).toHaveLength(1);
    expect(conversation.closeEvent).toBeUndefined();
    await conversation.close();
  });

  it("runs with strictness off: unknown fields ignored, both generations of turn input read", async () => {
    const emulator = await start({ ANTIGRAVITY_EMULATOR_STRICT: "0" });
    const conversation = await emulator.connect();
    await conversation.init(configFor("plain"));
    conversation.send({ userInput: { parts: [{ text: "hello" }] }, futureField: 1 });
    await conversation.untilIdle();
    conversation.send({ userInput: "plain text" });
    await conversation.untilIdle();
    expect(emulator.stderr()).not.toContain("Failed to parse");
    await conversation.close();
  });
});

describe("the harness version", () => {
  it("refuses to start for a release it does not know", async () => {
    await expect(spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.2.0" } })).rejects.toThrow(/unknown harness version "0.2.0"/);
  });
});
