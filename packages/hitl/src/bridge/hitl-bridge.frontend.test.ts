import { describe, expect, it } from "vitest";
import { HitlBridge, HitlError } from "../index.js";
import { driveRun, runInput, verify } from "../../test/support/mini-agent.js";
import { ScriptedHarness } from "../../test/support/scripted-harness.js";

const changeColor = { name: "change_color", description: "Changes the page colour", parameters: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } };

function setup(scripts: ConstructorParameters<typeof ScriptedHarness>[0], options: ConstructorParameters<typeof HitlBridge>[0] = {}) {
  const bridge = new HitlBridge({ settleMs: 20, ...options });
  const harness = new ScriptedHarness(scripts).connect(bridge.harnessPieces([changeColor]));
  return { bridge, harness };
}

describe("frontend tools", () => {
  it("emits the call, ends the run with the call pending, and a later ToolMessage is the tool's return value", async () => {
    const seen: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => {
        turn.say("Changing it.");
        seen.push(await turn.callTool("change_color", { color: "red" }, "call-7"));
        turn.say("Done.");
      },
    ]);
    const first = await driveRun(bridge, runInput({ tools: [changeColor] }), { newInput: "make it red", startTurn: harness.startTurn });
    await verify(first.events);
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-7"] });
    expect(first.events.map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
      "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
      "RUN_FINISHED",
    ]);
    expect(harness.turns).toEqual([{ input: "make it red", preamble: undefined }]);

    const second = await driveRun(bridge, runInput({ tools: [changeColor], messages: [{ id: "tool-1", role: "tool", toolCallId: "call-7", content: "colour is now red" }] }), { startTurn: harness.startTurn });
    await verify(second.events);
    expect(seen).toEqual(["colour is now red"]);
    expect(second.start?.resolvedToolCallIds).toEqual(["call-7"]);
    expect(second.start?.continuesTurn).toBe(true);
    // The resumed run does not repeat the call's START/ARGS/END; it only carries what came after.
    expect(second.events.map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(second.conclusion).toEqual({ type: "completed" });
    expect(harness.turns).toHaveLength(1);
  });

  it("ignores ToolMessages for unknown or settled calls, since clients resend whole transcripts", async () => {
    const { bridge, harness } = setup([async (turn) => void (await turn.callTool("change_color", { color: "blue" }, "call-1"))]);
    await driveRun(bridge, runInput(), { newInput: "blue", startTurn: harness.startTurn });
    const stale = [{ id: "t0", role: "tool" as const, toolCallId: "call-0", content: "old" }];
    const answered = await driveRun(bridge, runInput({ messages: [...stale, { id: "t1", role: "tool", toolCallId: "call-1", content: "ok" }] }), { startTurn: harness.startTurn });
    expect(answered.error).toBeUndefined();
    const replay = await driveRun(bridge, runInput({ messages: [...stale, { id: "t1", role: "tool", toolCallId: "call-1", content: "ok" }] }), { startTurn: harness.startTurn });
    expect(replay.error).toBeUndefined();
    expect(replay.conclusion).toEqual({ type: "completed" });
  });

  it("turns a ToolMessage error into a tool error the model sees", async () => {
    const outcomes: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => {
        await turn.callTool("change_color", { color: "x" }, "call-1").catch((error: unknown) => outcomes.push((error as Error).message));
      },
    ]);
    await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    await driveRun(bridge, runInput({ messages: [{ id: "t", role: "tool", toolCallId: "call-1", content: "", error: "no such colour" }] }), { startTurn: harness.startTurn });
    expect(outcomes).toEqual(["no such colour"]);
  });

  it("refuses a client tool whose schema is malformed, naming the tool", () => {
    const bridge = new HitlBridge();
    const broken = { name: "broken", description: "", parameters: { type: "object", properties: { a: { type: "no-such-type" } } } };
    let caught: unknown;
    try {
      bridge.harnessPieces([changeColor, broken]);
    } catch (error) {
      caught = error;
    }
    expect(HitlError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "INVALID_TOOL_SCHEMA", subject: "broken" });
    expect((caught as Error).message).toContain("broken");
    expect(() => bridge.beginRun(runInput({ tools: [broken] }), { startTurn: () => (async function* () {})() })).toThrow(/broken/);
  });

  it("gives tools without a schema an empty object schema and a default description", () => {
    const pieces = new HitlBridge().harnessPieces([{ name: "ping", description: "" }]);
    expect(pieces.customTools[0]).toMatchObject({ name: "ping", description: "Client-side tool: ping", parameters: { type: "object", properties: {} } });
    expect([...pieces.hostToolNames]).toEqual(["ping"]);
  });

  it("tells when the client's tool contract changed since the harness was configured", () => {
    const bridge = new HitlBridge();
    const other = { name: "other", description: "Other", parameters: { type: "object", properties: { b: { type: "string" }, a: { type: "number" } } } };
    bridge.harnessPieces([changeColor, other]);
    const reordered = { ...other, parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "string" } } } };
    expect(bridge.toolsChanged([reordered, changeColor])).toBe(false);
    expect(bridge.toolsChanged([changeColor])).toBe(true);
    expect(bridge.toolsChanged([changeColor, { ...other, description: "Changed" }])).toBe(true);
    expect(bridge.toolsChanged([changeColor, { ...other, parameters: { type: "object" } }])).toBe(true);
    expect(new HitlBridge({ frontendTools: false }).toolsChanged([changeColor])).toBe(true);
    const off = new HitlBridge({ frontendTools: false });
    off.harnessPieces([changeColor]);
    expect(off.toolsChanged([other])).toBe(false);
  });

  it("can leave client tools out of the harness", () => {
    const pieces = new HitlBridge({ frontendTools: false }).harnessPieces([changeColor]);
    expect(pieces.customTools).toEqual([]);
  });
});

describe("repeated frontend calls in one turn", () => {
  it("dispatches once per (name, arguments): an identical repeat gets the same result without a second request", async () => {
    const results: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => {
        const first = turn.callTool("change_color", { color: "red" }, "call-a");
        const repeat = turn.callTool("change_color", { color: "red" }, "call-b");
        results.push(await first, await repeat);
        results.push(await turn.callTool("change_color", { color: "red" }, "call-c"));
      },
    ]);
    const first = await driveRun(bridge, runInput(), { newInput: "red", startTurn: harness.startTurn });
    expect(first.items.filter((item) => item.type === "tool-call")).toHaveLength(1);
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-a"] });
    const second = await driveRun(bridge, runInput({ messages: [{ id: "t", role: "tool", toolCallId: "call-a", content: "red!" }] }), { startTurn: harness.startTurn });
    expect(second.items.filter((item) => item.type === "tool-call")).toHaveLength(0);
    expect(results).toEqual(["red!", "red!", "red!"]);
  });

  it("tells a call with other arguments, made while the first still waits, what already ran", async () => {
    const results: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => {
        const first = turn.callTool("change_color", { color: "red" }, "call-a");
        const retry = turn.callTool("change_color", { color: "crimson" }, "call-b");
        results.push(await first, await retry);
        // After the first settled, new arguments are a legitimate second use.
        results.push(await turn.callTool("change_color", { color: "blue" }, "call-c"));
      },
    ]);
    const first = await driveRun(bridge, runInput(), { newInput: "red", startTurn: harness.startTurn });
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-a"] });
    const second = await driveRun(bridge, runInput({ messages: [{ id: "t", role: "tool", toolCallId: "call-a", content: "red!" }] }), { startTurn: harness.startTurn });
    expect(second.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-c"] });
    await driveRun(bridge, runInput({ messages: [{ id: "t2", role: "tool", toolCallId: "call-c", content: "blue!" }] }), { startTurn: harness.startTurn });
    expect(results[0]).toBe("red!");
    expect(results[1]).toMatch(/change_color already ran in this turn with arguments \{"color":"red"\} and returned: red!.*not run again with arguments \{"color":"crimson"\}/);
    expect(results[2]).toBe("blue!");
  });

  it.each([
    ["globally", { deduplicateToolCalls: false }],
    ["for one tool", { deduplicationExemptTools: ["change_color"] }],
  ])("can be switched off %s", async (_label, options) => {
    const { bridge, harness } = setup([
      async (turn) => {
        await Promise.all([turn.callTool("change_color", { color: "red" }, "call-a"), turn.callTool("change_color", { color: "red" }, "call-b")]);
      },
    ], options);
    const first = await driveRun(bridge, runInput(), { newInput: "red", startTurn: harness.startTurn });
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-a", "call-b"] });
  });

  it("forgets dispatches when the turn ends", async () => {
    const results: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => void results.push(await turn.callTool("change_color", { color: "red" }, "call-a")),
      async (turn) => void results.push(await turn.callTool("change_color", { color: "red" }, "call-b")),
    ]);
    await driveRun(bridge, runInput(), { newInput: "one", startTurn: harness.startTurn });
    await driveRun(bridge, runInput({ messages: [{ id: "t", role: "tool", toolCallId: "call-a", content: "1" }] }), { startTurn: harness.startTurn });
    const again = await driveRun(bridge, runInput(), { newInput: "two", startTurn: harness.startTurn });
    expect(again.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-b"] });
  });
});
