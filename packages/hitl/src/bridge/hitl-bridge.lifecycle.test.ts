import { describe, expect, it } from "vitest";
import { EventType } from "@ag-ui/core";
import type { CustomTool, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import { HitlBridge, HitlError, interrupt, type InterruptAnswer } from "../index.js";
import { driveRun, MiniAgent, runInput, verify } from "../../test/support/mini-agent.js";
import { ScriptedHarness, type TurnScript } from "../../test/support/scripted-harness.js";

const pick = { name: "pick_colour", description: "Shows a colour picker", parameters: { type: "object", properties: { palette: { type: "string" } } } };

function setup(scripts: TurnScript[], options: ConstructorParameters<typeof HitlBridge>[0] = {}) {
  let counter = 0;
  const bridge = new HitlBridge({ settleMs: 20, createId: () => `id-${++counter}`, ...options });
  const harness = new ScriptedHarness(scripts).connect(bridge.harnessPieces([pick]));
  return { bridge, harness };
}

describe("moving on", () => {
  it("a new message abandons parked interrupts and frontend tools, the model is told, and the new message runs next", async () => {
    const returned: unknown[] = [];
    const { bridge, harness } = setup([
      async (turn) => {
        const [question, tool] = await Promise.all([turn.ask([{ question: "Size?", choices: ["S", "M"], isMultiSelect: false }]), turn.callTool("pick_colour", { palette: "warm" }, "call-1")]);
        returned.push(question, tool);
        turn.say("Fine, moving on.");
      },
      async (turn) => turn.say("Here is your new answer."),
    ]);
    const first = await driveRun(bridge, runInput({ tools: [pick] }), { newInput: "start", startTurn: harness.startTurn });
    expect(first.conclusion).toMatchObject({ type: "interrupt", pendingToolCallIds: ["call-1"] });
    const second = await driveRun(bridge, runInput({ tools: [pick] }), { newInput: "something else", startTurn: harness.startTurn });
    await verify(second.events);
    expect(second.start?.abandonedIds).toEqual(["id-1", "call-1"]);
    expect(returned[0]).toEqual({ cancelled: true });
    expect(returned[1]).toMatch(/new message instead of answering.*Do not report it as declined/);
    const texts = second.items.flatMap((item) => (item.type === "step" ? [item.step.text] : []));
    expect(texts).toEqual(["Fine, moving on.", "Here is your new answer."]);
    expect(second.items.filter((item) => item.type === "turn-ended")).toHaveLength(2);
    expect(harness.turns.map((turn) => turn.input)).toEqual(["start", "something else"]);
    expect(second.conclusion).toEqual({ type: "completed" });
  });

  it("an answer with new text settles the answer and sends the text once the turn ends", async () => {
    const decisions: QuestionsHookResult[] = [];
    const { bridge, harness } = setup([
      async (turn) => void decisions.push(await turn.ask([{ question: "Size?", choices: ["S", "M"], isMultiSelect: false }])),
      async (turn) => turn.say("and the follow-up"),
    ]);
    await driveRun(bridge, runInput(), { newInput: "start", startTurn: harness.startTurn });
    const second = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: "M" }] }), { newInput: "also, hurry", startTurn: harness.startTurn });
    expect(second.start?.abandonedIds).toEqual([]);
    expect(decisions).toEqual([{ answers: [{ selected: [1] }] }]);
    expect(harness.turns.map((turn) => turn.input)).toEqual(["start", "also, hurry"]);
  });

  it("can refuse new input while interrupts wait, as AG-UI's strict contract says", async () => {
    const { bridge, harness } = setup([async (turn) => void (await turn.ask([{ question: "Size?", choices: [], isMultiSelect: false }]))], { newInputWhileParked: "refuse" });
    await driveRun(bridge, runInput(), { newInput: "start", startTurn: harness.startTurn });
    const refused = await driveRun(bridge, runInput(), { newInput: "other", startTurn: harness.startTurn });
    expect(refused.error?.code).toBe("INTERRUPTS_PENDING");
    expect(bridge.parkedIds).toEqual(["id-1"]);
  });
});

describe("deadlines and teardown", () => {
  it("releases an expired interrupt as abandoned and refuses a late answer with INTERRUPT_EXPIRED", async () => {
    const answers: InterruptAnswer[] = [];
    const asker: CustomTool = { name: "ask", description: "asks", parameters: { type: "object" }, handler: async () => void answers.push(await interrupt("myapp:ask")) };
    const warnings: string[] = [];
    let counter = 0;
    const bridge = new HitlBridge({ settleMs: 10, parkTimeoutMs: 80, serverTools: [asker], createId: () => `id-${++counter}`, logger: { warn: (_fields, message = "") => warnings.push(message) } });
    const harness = new ScriptedHarness([async (turn) => void (await turn.callTool("ask", {}, "call-1"))]).connect(bridge.harnessPieces([]));
    const first = await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    const [announced] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(Date.parse(announced?.expiresAt ?? "") - Date.now()).toBeLessThanOrEqual(80);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(answers).toEqual([{ status: "abandoned", cause: "expired" }]);
    expect(warnings[0]).toMatch(/expired unanswered/);
    const late = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: 1 }] }), { startTurn: harness.startTurn });
    expect(late.error?.code).toBe("INTERRUPT_EXPIRED");
  });

  it("close() releases every parked caller with CLOSED and refuses later runs", async () => {
    const failures: unknown[] = [];
    const { bridge, harness } = setup([async (turn) => void (await turn.callTool("pick_colour", {}, "call-1").catch((error: unknown) => failures.push(error)))]);
    await driveRun(bridge, runInput({ tools: [pick] }), { newInput: "go", startTurn: harness.startTurn });
    const closing = bridge.close();
    expect(bridge.close()).toBe(closing);
    expect(bridge.signal.aborted).toBe(true);
    await closing;
    expect(failures).toHaveLength(1);
    expect(HitlError.isInstance(failures[0]) && failures[0].code).toBe("CLOSED");
    await bridge.closed;
    expect(() => bridge.beginRun(runInput(), { startTurn: harness.startTurn })).toThrow(expect.objectContaining({ code: "CLOSED" }));
  });

  it("refuses a second run while one is attached", async () => {
    const { bridge, harness } = setup([async (turn) => turn.say("x")]);
    const run = bridge.beginRun(runInput(), { newInput: "a", startTurn: harness.startTurn });
    expect(() => bridge.beginRun(runInput(), { startTurn: harness.startTurn })).toThrow(expect.objectContaining({ code: "RUN_ACTIVE" }));
    run.finish();
    expect(() => bridge.beginRun(runInput(), { startTurn: harness.startTurn }).finish()).not.toThrow();
  });
});

describe("turn scope", () => {
  it("tells listeners when a turn ends, is halted, or the bridge closes", async () => {
    const { bridge, harness } = setup([
      async (turn) => turn.say("one"),
      async (turn) => void (await new Promise((resolve) => turn.signal.addEventListener("abort", resolve, { once: true }))),
    ]);
    let ended = 0;
    const unsubscribe = bridge.onTurnEnd(() => void ended++);
    await driveRun(bridge, runInput(), { newInput: "first", startTurn: harness.startTurn });
    expect(ended).toBe(1);
    const run = bridge.beginRun(runInput(), { newInput: "second", startTurn: harness.startTurn });
    const pending = run.items().next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bridge.hasTurn).toBe(true);
    const closing = bridge.close();
    expect(await pending).toEqual({ done: false, value: { type: "turn-ended" } });
    await closing;
    expect(ended).toBe(2);
    unsubscribe();
  });

  it("passes a failed turn's error to the run and retires the turn", async () => {
    const { bridge, harness } = setup([
      async (turn) => {
        turn.say("partial");
        throw new Error("TURN_FAILED: model unavailable");
      },
      async (turn) => turn.say("recovered"),
    ]);
    const run = bridge.beginRun(runInput(), { newInput: "first", startTurn: harness.startTurn });
    const seen: string[] = [];
    await expect((async () => {
      for await (const item of run.items()) seen.push(item.type);
    })()).rejects.toThrow("model unavailable");
    expect(seen).toEqual(["step"]);
    expect(bridge.hasTurn).toBe(false);
    const next = await driveRun(bridge, runInput(), { newInput: "second", startTurn: harness.startTurn });
    expect(next.items.flatMap((item) => (item.type === "step" ? [item.step.text] : []))).toEqual(["recovered"]);
  });

  it("reports its HITL capabilities", () => {
    expect(new HitlBridge({ toolApproval: true }).capabilities).toEqual({ supported: true, interrupts: true, approvals: true, approveWithEdits: true });
    expect(new HitlBridge().capabilities).toMatchObject({ approvals: false, approveWithEdits: false });
  });
});

describe("relayed notes", () => {
  it("reach the run between the steps they came between, and wait for the next run when none is attached", async () => {
    const host: { bridge?: HitlBridge } = {};
    const { bridge, harness } = setup([
      async (turn) => {
        turn.say("First answer.");
        // The host learned something from a hook after that step (a continuation, say).
        await new Promise((resolve) => setTimeout(resolve, 5));
        host.bridge?.relay({ kind: "continuation", count: 1 });
        // The harness goes on only once the hook's answer reached it.
        await new Promise((resolve) => setTimeout(resolve, 5));
        turn.say("Second answer.");
      },
    ]);
    host.bridge = bridge;
    const run = await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn });
    expect(run.items.map((item) => (item.type === "step" ? item.step.text : item.type === "relayed" ? item.note : item.type))).toEqual([
      "First answer.",
      { kind: "continuation", count: 1 },
      "Second answer.",
      "turn-ended",
    ]);

    bridge.relay("after the run");
    const later = bridge.beginRun(runInput(), { startTurn: harness.startTurn });
    const items = [];
    for await (const item of later.items()) items.push(item);
    later.finish();
    expect(items).toEqual([{ type: "relayed", note: "after the run" }]);
  });
});

describe("starting the turn before the first pull", () => {
  const textsOf = (items: { type: string; step?: { text: string } }[]): string[] => items.flatMap((item) => (item.type === "step" && item.step !== undefined ? [item.step.text] : []));

  it("startTurn() sends the new input at once; items() then streams that turn, and the next run's input starts a turn of its own", async () => {
    const { bridge, harness } = setup([async (turn) => turn.say("first reply"), async (turn) => turn.say("second reply")]);
    const run = bridge.beginRun(runInput(), { newInput: "first", startTurn: harness.startTurn });
    expect(harness.turns).toEqual([]);
    run.startTurn();
    expect(harness.turns.map((turn) => turn.input)).toEqual(["first"]);
    run.startTurn();
    const items = [];
    for await (const item of run.items()) items.push(item);
    run.finish();
    expect(textsOf(items)).toEqual(["first reply"]);
    expect(items.at(-1)).toEqual({ type: "turn-ended" });
    expect(harness.turns).toHaveLength(1);

    const next = bridge.beginRun(runInput(), { newInput: "second", startTurn: harness.startTurn });
    next.startTurn();
    const nextItems = [];
    for await (const item of next.items()) nextItems.push(item);
    next.finish();
    expect(textsOf(nextItems)).toEqual(["second reply"]);
    expect(harness.turns.map((turn) => turn.input)).toEqual(["first", "second"]);
  });

  it("a start that fails is thrown by items(), not by startTurn(), and leaves no turn behind", async () => {
    const bridge = new HitlBridge({ settleMs: 20 });
    const startTurn = (): never => {
      throw new Error("the conversation is not open");
    };
    const run = bridge.beginRun(runInput(), { newInput: "hello", startTurn });
    expect(() => run.startTurn()).not.toThrow();
    expect(bridge.hasTurn).toBe(false);
    await expect((async () => {
      for await (const item of run.items()) void item;
    })()).rejects.toThrow("the conversation is not open");
    run.finish();
  });

  it("does nothing for a run that answers a parked turn: items() goes on with that turn", async () => {
    const { bridge, harness } = setup([
      async (turn) => {
        const colour = await turn.callTool("pick_colour", {}, "call-1");
        turn.say(`got ${String(colour)}`);
      },
    ]);
    const first = await driveRun(bridge, runInput({ tools: [pick] }), { newInput: "go", startTurn: harness.startTurn });
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-1"] });
    const run = bridge.beginRun(runInput({ tools: [pick], messages: [{ id: "t", role: "tool", toolCallId: "call-1", content: "teal" }] }), { startTurn: harness.startTurn });
    run.startTurn();
    const items = [];
    for await (const item of run.items()) items.push(item);
    run.finish();
    expect(textsOf(items)).toEqual(["got teal"]);
    expect(harness.turns).toHaveLength(1);
  });

  it("after a halted turn has drained, the next run's turn starts at once", async () => {
    const { bridge, harness } = setup([
      async (turn) => {
        turn.say("working");
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
      },
      async (turn) => turn.say("fresh start"),
    ]);
    const controller = new AbortController();
    await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn, signal: controller.signal, onItem: () => controller.abort() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bridge.hasTurn).toBe(false);
    const run = bridge.beginRun(runInput(), { newInput: "again", startTurn: harness.startTurn });
    run.startTurn();
    expect(harness.turns.map((turn) => turn.input)).toEqual(["go", "again"]);
    const items = [];
    for await (const item of run.items()) items.push(item);
    run.finish();
    expect(textsOf(items)).toEqual(["fresh start"]);
  });
});

describe("client detaching", () => {
  it("a run aborted while parked leaves the turn parked and its in-flight read for the next run", async () => {
    const { bridge, harness } = setup([
      async (turn) => {
        const result = await turn.callTool("pick_colour", {}, "call-1");
        turn.say(`got ${String(result)}`);
      },
    ]);
    const controller = new AbortController();
    const first = await driveRun(bridge, runInput({ tools: [pick] }), {
      newInput: "go",
      startTurn: harness.startTurn,
      signal: controller.signal,
      onItem: (item) => item.type === "tool-call" && controller.abort(),
    });
    expect(first.conclusion).toEqual({ type: "pending-tools", pendingToolCallIds: ["call-1"] });
    expect(bridge.hasTurn).toBe(true);
    const second = await driveRun(bridge, runInput({ tools: [pick], messages: [{ id: "t", role: "tool", toolCallId: "call-1", content: "teal" }] }), { startTurn: harness.startTurn });
    expect(second.items.flatMap((item) => (item.type === "step" ? [item.step.text] : []))).toEqual(["got teal"]);
  });

  it("a run aborted while the turn is busy halts the turn", async () => {
    let haltedWith: unknown;
    const { bridge, harness } = setup([
      async (turn) => {
        turn.say("working");
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
        haltedWith = turn.signal.reason;
      },
    ]);
    const controller = new AbortController();
    await driveRun(bridge, runInput(), { newInput: "go", startTurn: harness.startTurn, signal: controller.signal, onItem: () => controller.abort() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((haltedWith as Error).name).toBe("AbortError");
    expect(bridge.hasTurn).toBe(false);
  });
});

describe("with @ag-ui/client's reducer", () => {
  it("a multi-run conversation (frontend tool, question, approval) ends with the expected messages", async () => {
    const bridge = new HitlBridge({ settleMs: 20, toolApproval: true });
    const harness = new ScriptedHarness([
      async (turn) => {
        const colour = await turn.callTool("pick_colour", { palette: "cool" }, "call-pick");
        const size = await turn.ask([{ question: "Size?", choices: ["S", "M"], isMultiSelect: false }]);
        const approval = await turn.approveBuiltin("run_command", { command: "order" }, "call-order");
        turn.say(`Ordered a ${JSON.stringify(size)} in ${String(colour)} (${approval.decision}).`);
      },
    ]).connect(bridge.harnessPieces([pick]));
    const agent = new MiniAgent(bridge, harness.startTurn);
    agent.messages = [{ id: "user-1", role: "user", content: "order a shirt" }];

    await agent.runAgent({ tools: [pick] });
    const pending = agent.messages.at(-1);
    expect(pending).toMatchObject({ role: "assistant", toolCalls: [{ id: "call-pick", function: { name: "pick_colour", arguments: '{"palette":"cool"}' } }] });
    agent.messages = [...agent.messages, { id: "tool-1", role: "tool", toolCallId: "call-pick", content: "navy" }];

    await agent.runAgent({ tools: [pick] });
    expect(agent.pendingInterrupts.map((entry) => entry.reason)).toEqual(["input_required"]);
    const [question] = agent.pendingInterrupts;
    await agent.runAgent({ tools: [pick], resume: [{ interruptId: question!.id, status: "resolved", payload: { answers: [{ selected: ["1"] }] } }] });
    expect(agent.pendingInterrupts.map((entry) => [entry.reason, entry.toolCallId])).toEqual([["tool_call", "call-order"]]);
    const [approval] = agent.pendingInterrupts;
    await agent.runAgent({ tools: [pick], resume: [{ interruptId: approval!.id, status: "resolved", payload: { approved: true } }] });

    expect(agent.pendingInterrupts).toEqual([]);
    expect(agent.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: 'Ordered a {"answers":[{"selected":[1]}]} in navy (allow).' });
    for (const run of agent.runs) expect(run.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(harness.turns).toHaveLength(1);
  });
});
