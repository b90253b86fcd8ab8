import { describe, expect, it } from "vitest";
import type { CustomTool } from "@ag-ui-antigravity/harness";
import { HitlBridge, HitlError, getContext, getState, interrupt, setState, type InterruptAnswer } from "../index.js";
import { driveRun, runInput, verify } from "../../test/support/mini-agent.js";
import { ScriptedHarness, type TurnScript } from "../../test/support/scripted-harness.js";

function setup(serverTools: CustomTool[], scripts: TurnScript[], options: ConstructorParameters<typeof HitlBridge>[0] = {}) {
  let counter = 0;
  const bridge = new HitlBridge({ settleMs: 20, createId: () => `id-${++counter}`, serverTools, ...options });
  const harness = new ScriptedHarness(scripts).connect(bridge.harnessPieces([]));
  return { bridge, harness };
}

function tool(name: string, handler: CustomTool["handler"]): CustomTool {
  return { name, description: `${name} tool`, parameters: { type: "object", properties: {} }, handler };
}

describe("server tools", () => {
  it("report their call and result, and every state write before the result", async () => {
    const addItem = tool("add_item", (args) => {
      const state = getState() as { items: string[] };
      setState({ items: [...state.items, String(args.item)] });
      setState({ items: [...state.items, String(args.item)], count: state.items.length + 1 });
      return { added: args.item };
    });
    const { bridge, harness } = setup([addItem], [async (turn) => void (await turn.callTool("add_item", { item: "milk" }, "call-1"))]);
    const run = await driveRun(bridge, runInput({ state: { items: ["eggs"] } }), { newInput: "add milk", startTurn: harness.startTurn });
    await verify(run.events);
    expect(run.events.map((event) => event.type)).toEqual([
      "RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STATE_SNAPSHOT", "STATE_SNAPSHOT", "TOOL_CALL_RESULT", "RUN_FINISHED",
    ]);
    expect(run.items.filter((item) => item.type === "state")).toEqual([
      { type: "state", state: { items: ["eggs", "milk"] } },
      { type: "state", state: { items: ["eggs", "milk"], count: 2 } },
    ]);
    expect(run.items.find((item) => item.type === "tool-result")).toEqual({ type: "tool-result", toolCallId: "call-1", toolName: "add_item", content: '{"added":"milk"}', output: { added: "milk" }, failed: false });
  });

  it("report a failure with a generic text and pass the error on to the harness", async () => {
    const errors: unknown[] = [];
    const failing = tool("explode", () => {
      throw new Error("secret path /etc/x");
    });
    const { bridge, harness } = setup([failing], [async (turn) => void (await turn.callTool("explode", {}, "call-1").catch((error: unknown) => errors.push(error)))]);
    const run = await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    expect(run.items.find((item) => item.type === "tool-result")).toMatchObject({ content: "The tool explode failed.", failed: true });
    expect((errors[0] as Error).message).toBe("secret path /etc/x");
  });

  it("refuse non-JSON state with a TypeError", async () => {
    const thrown: unknown[] = [];
    const writer = tool("write", () => {
      for (const bad of [[1, 2], { when: new Date() }, { n: Number.NaN }, { f: () => 1 }]) {
        try {
          setState(bad as Record<string, unknown>);
        } catch (error) {
          thrown.push(error);
        }
      }
      return "ok";
    });
    const { bridge, harness } = setup([writer], [async (turn) => void (await turn.callTool("write", {}))]);
    await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    expect(thrown).toHaveLength(4);
    for (const error of thrown) expect(error).toBeInstanceOf(TypeError);
    expect((thrown[1] as Error).message).toContain("$.when");
  });

  it("read the run's context, and a copy of the state", async () => {
    const seen: unknown[] = [];
    const reader = tool("read", () => {
      const state = getState() as { a: number };
      state.a = 99;
      seen.push(getContext(), getState());
      return "ok";
    });
    const { bridge, harness } = setup([reader], [async (turn) => void (await turn.callTool("read", {}))]);
    await driveRun(bridge, runInput({ state: { a: 1 }, context: [{ description: "page", value: "checkout" }] }), { newInput: "go", startTurn: harness.startTurn });
    expect(seen).toEqual([[{ description: "page", value: "checkout" }], { a: 1 }]);
  });

  it("refuse an empty or core: reason and an invalid responseSchema", async () => {
    const failures: string[] = [];
    const asker = tool("ask", async () => {
      for (const call of [() => interrupt(""), () => interrupt("core:thing"), () => interrupt("app:x", { responseSchema: { type: "nonsense" } })]) {
        await call().catch((error: unknown) => failures.push(`${(error as Error).name}: ${(error as Error).message}`));
      }
      return "ok";
    });
    const { bridge, harness } = setup([asker], [async (turn) => void (await turn.callTool("ask", {}))]);
    await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    expect(failures).toHaveLength(3);
    expect(failures[1]).toMatch(/TypeError: interrupt\(\): "core:thing" is not a usable reason/);
    expect(failures[2]).toMatch(/responseSchema is not a valid JSON Schema/);
    expect(bridge.hasParked).toBe(false);
  });

  it("outside a server tool, the helpers throw NOT_IN_SERVER_TOOL", () => {
    for (const call of [() => getState(), () => setState({}), () => getContext(), () => interrupt("x")]) {
      let caught: unknown;
      try {
        void call();
      } catch (error) {
        caught = error;
      }
      expect(HitlError.isInstance(caught) && caught.code).toBe("NOT_IN_SERVER_TOOL");
    }
  });
});

describe("server-tool interrupts", () => {
  function booking(answers: InterruptAnswer[]) {
    return tool("book", async () => {
      const answer = await interrupt("myapp:confirm_booking", { message: "Book 10:00?", metadata: { slot: "10:00" }, responseSchema: { type: "object", properties: { confirmed: { type: "boolean" } }, required: ["confirmed"] }, priority: "high" });
      answers.push(answer);
      return answer.status;
    });
  }

  it("park the tool, end the run with the interrupt, and return the answer", async () => {
    const answers: InterruptAnswer[] = [];
    const { bridge, harness } = setup([booking(answers)], [async (turn) => void (await turn.callTool("book", {}, "call-1"))]);
    const first = await driveRun(bridge, runInput(), { newInput: "book it", startTurn: harness.startTurn });
    await verify(first.events);
    const interrupts = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(interrupts).toEqual([
      expect.objectContaining({ id: "id-1", reason: "myapp:confirm_booking", message: "Book 10:00?", toolCallId: "call-1", metadata: { slot: "10:00" }, priority: "high", expiresAt: expect.any(String) }),
    ]);
    const refused = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: { confirmed: "yes" } }] }), { startTurn: harness.startTurn });
    expect(refused.error?.code).toBe("INVALID_ANSWER");
    const second = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: { confirmed: true } }] }), { startTurn: harness.startTurn });
    await verify(second.events);
    expect(answers).toEqual([{ status: "resolved", payload: { confirmed: true } }]);
    expect(second.items.find((item) => item.type === "tool-result")).toMatchObject({ toolCallId: "call-1", content: "resolved" });
  });

  it("tell cancelled and abandoned apart", async () => {
    const answers: InterruptAnswer[] = [];
    const { bridge, harness } = setup([booking(answers)], [
      async (turn) => void (await turn.callTool("book", {}, "call-1")),
      async (turn) => void (await turn.callTool("book", {}, "call-2")),
      async (turn) => turn.say("Sure, something else."),
    ]);
    await driveRun(bridge, runInput(), { newInput: "book it", startTurn: harness.startTurn });
    await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "cancelled" }] }), { startTurn: harness.startTurn });
    await driveRun(bridge, runInput(), { newInput: "book again", startTurn: harness.startTurn });
    const movedOn = await driveRun(bridge, runInput(), { newInput: "never mind, something else", startTurn: harness.startTurn });
    expect(answers).toEqual([{ status: "cancelled" }, { status: "abandoned", cause: "new-input" }]);
    expect(movedOn.start?.abandonedIds).toEqual(["id-2"]);
    expect(harness.turns.map((turn) => turn.input)).toEqual(["book it", "book again", "never mind, something else"]);
    expect(movedOn.conclusion).toEqual({ type: "completed" });
  });

  it("queue state written while parked for the next run, preferring it over the client's older copy", async () => {
    const writer = tool("write_later", async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      setState({ written: "while parked" });
      return "ok";
    });
    const asker = tool("ask", async () => (await interrupt("myapp:ask")).status);
    const { bridge, harness } = setup([writer, asker], [
      async (turn) => {
        await Promise.all([turn.callTool("ask", {}, "call-ask"), turn.callTool("write_later", {}, "call-write")]);
      },
    ]);
    const first = await driveRun(bridge, runInput({ state: { written: "no" } }), { newInput: "go", startTurn: harness.startTurn });
    expect(first.conclusion?.type).toBe("interrupt");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await driveRun(bridge, runInput({ state: { written: "no" }, resume: [{ interruptId: "id-1", status: "resolved", payload: null }] }), { startTurn: harness.startTurn });
    await verify(second.events);
    expect(second.items[0]).toEqual({ type: "state", state: { written: "while parked" } });
    expect(second.events.slice(0, 2).map((event) => event.type)).toEqual(["RUN_STARTED", "STATE_SNAPSHOT"]);
  });
});

describe("what the model sees", () => {
  it("offers silent get_app_context and get_shared_state that emit nothing to the client", async () => {
    const results: unknown[] = [];
    const { bridge, harness } = setup([], [
      async (turn) => {
        results.push(await turn.callTool("get_app_context", {}), await turn.callTool("get_shared_state", {}));
        turn.say("ok");
      },
    ], { appContextTool: true, sharedStateTool: true });
    const pieces = bridge.harnessPieces([]);
    expect([...pieces.silentToolNames]).toEqual(["get_app_context", "get_shared_state"]);
    const run = await driveRun(bridge, runInput({ state: { cart: ["tea"] }, context: [{ description: "user", value: "Ada" }] }), { newInput: "hi", startTurn: harness.startTurn });
    expect(results).toEqual([{ context: [{ description: "user", value: "Ada" }] }, { state: { cart: ["tea"] } }]);
    expect(run.items.filter((item) => item.type !== "step" && item.type !== "turn-ended")).toEqual([]);
  });

  it("lets a client or server tool of the same name win over a silent built-in", () => {
    const custom = tool("get_shared_state", () => "mine");
    const bridge = new HitlBridge({ sharedStateTool: true, appContextTool: true, serverTools: [custom] });
    const pieces = bridge.harnessPieces([{ name: "get_app_context", description: "client's" }]);
    expect(pieces.customTools.map((entry) => entry.description)).toEqual(["get_shared_state tool", "client's"]);
    expect(pieces.silentToolNames.size).toBe(0);
  });

  it("prepends a bounded summary of context and state to each turn's input when asked", async () => {
    const { bridge, harness } = setup([], [async (turn) => turn.say("a"), async (turn) => turn.say("b")], { turnSummary: { maxChars: 200 } });
    await driveRun(bridge, runInput({ context: [{ description: "page", value: "cart" }], state: { items: ["x"] } }), { newInput: "first", startTurn: harness.startTurn });
    await driveRun(bridge, runInput({ context: [], state: { items: Array.from({ length: 50 }, (_, index) => `item-${index}`) } }), { newInput: "second", startTurn: harness.startTurn });
    const [first, second] = harness.turns;
    expect(first?.preamble).toContain("- page: cart");
    expect(first?.preamble).toContain('{"items":["x"]}');
    expect(second?.preamble?.length).toBe(200);
    expect(second?.preamble).toMatch(/\[\.\.\. truncated\]$/);
  });
});
