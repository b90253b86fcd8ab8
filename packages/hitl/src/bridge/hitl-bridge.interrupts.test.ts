import { describe, expect, it } from "vitest";
import type { PreToolHookResult, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import { HitlBridge } from "../index.js";
import { driveRun, runInput, verify } from "../../test/support/mini-agent.js";
import { preToolArgs, ScriptedHarness, type TurnScript } from "../../test/support/scripted-harness.js";

const colours = { question: "Which colour?", choices: ["Red", "Blue", "Green"], isMultiSelect: false };
const toppings = { question: "Which toppings?", choices: ["Cheese", "Ham"], isMultiSelect: true };

function setup(scripts: TurnScript[], options: ConstructorParameters<typeof HitlBridge>[0] = {}) {
  let counter = 0;
  const bridge = new HitlBridge({ settleMs: 20, createId: () => `id-${++counter}`, ...options });
  const harness = new ScriptedHarness(scripts).connect(bridge.harnessPieces([]));
  return { bridge, harness };
}

async function askedOnce(questions = [colours]) {
  const decisions: QuestionsHookResult[] = [];
  const { bridge, harness } = setup([async (turn) => void decisions.push(await turn.ask(questions))]);
  const first = await driveRun(bridge, runInput(), { newInput: "ask me", startTurn: harness.startTurn });
  return { bridge, harness, decisions, first };
}

describe("question interrupts", () => {
  it("end the run with an AG-UI interrupt carrying the questions, a deadline and a responseSchema", async () => {
    const { first } = await askedOnce([colours, toppings]);
    await verify(first.events);
    expect(first.conclusion?.type).toBe("interrupt");
    const [interrupt] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(interrupt).toMatchObject({
      id: "id-1",
      reason: "input_required",
      message: "Which colour?",
      metadata: {
        kind: "antigravity:question",
        questions: [
          { question: "Which colour?", multiSelect: false, choices: [{ id: "0", text: "Red" }, { id: "1", text: "Blue" }, { id: "2", text: "Green" }] },
          { question: "Which toppings?", multiSelect: true, choices: [{ id: "0", text: "Cheese" }, { id: "1", text: "Ham" }] },
        ],
      },
    });
    expect(Date.parse(interrupt?.expiresAt ?? "")).toBeGreaterThan(Date.now() + 60 * 60 * 1000);
    expect(interrupt?.responseSchema).toMatchObject({ type: "object", required: ["answers"], properties: { answers: { minItems: 2, maxItems: 2 } } });
    const finished = first.events.at(-1) as any;
    expect(finished.outcome).toEqual({ type: "interrupt", interrupts: [interrupt] });
  });

  it("resumes from a resume entry in the canonical shape", async () => {
    const { bridge, harness, decisions } = await askedOnce([colours, toppings]);
    const payload = { answers: [{ selected: ["1"] }, { selected: ["0", "1"], freeform: "extra cheese" }] };
    const second = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload }] }), { startTurn: harness.startTurn });
    await verify(second.events);
    expect(second.start?.resolvedInterruptIds).toEqual(["id-1"]);
    expect(decisions).toEqual([{ answers: [{ selected: [1] }, { selected: [0, 1], freeform: "extra cheese" }] }]);
    expect(second.conclusion).toEqual({ type: "completed" });
  });

  it.each([
    ["a bare command string matching a choice", { command: "Blue" }, { answers: [{ selected: [1] }] }],
    ["a bare command string that is free text", { command: "Purple, please" }, { answers: [{ selected: [], freeform: "Purple, please" }] }],
    ["{ interruptId, payload }", { command: { interruptId: "id-1", payload: { answers: [{ selected: ["2"] }] } } }, { answers: [{ selected: [2] }] }],
    ["{ interrupt_id, payload }", { command: { interrupt_id: "id-1", payload: "Red" } }, { answers: [{ selected: [0] }] }],
    ["CopilotKit's { resume, interruptEvent } with the interrupt as JSON", { command: { resume: "Green", interruptEvent: JSON.stringify({ id: "id-1", reason: "input_required" }) } }, { answers: [{ selected: [2] }] }],
    ["LangGraph's { resume, interruptEvent } with no id in it", { command: { resume: ["Blue"], interruptEvent: "Which colour?" } }, { answers: [{ selected: [1] }] }],
    ["the reference's { responses: [...] }", { command: { responses: [{ selected_option_ids: ["0"], freeform_response: "" }] } }, { answers: [{ selected: [0] }] }],
  ])("accepts forwardedProps.command as %s", async (_label, forwardedProps, expected) => {
    const { bridge, harness, decisions } = await askedOnce();
    const second = await driveRun(bridge, runInput({ forwardedProps }), { startTurn: harness.startTurn });
    expect(second.error).toBeUndefined();
    expect(decisions).toEqual([expected]);
  });

  it("refuses an answer that does not match the responseSchema with INVALID_ANSWER and keeps the interrupt parked", async () => {
    const { bridge, harness, decisions } = await askedOnce();
    const refused = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: { answers: [{ selected: ["7"] }] } }] }), { startTurn: harness.startTurn });
    await verify(refused.events);
    expect(refused.error).toMatchObject({ code: "INVALID_ANSWER", subject: "id-1" });
    expect(refused.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "INVALID_ANSWER" });
    expect(refused.error?.message).toMatch(/responseSchema.*selected\/0: Instance does not match any of/);
    expect(bridge.parkedIds).toEqual(["id-1"]);
    expect(decisions).toEqual([]);
    await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: { answers: [{ selected: ["0"] }] } }] }), { startTurn: harness.startTurn });
    expect(decisions).toEqual([{ answers: [{ selected: [0] }] }]);
  });

  it("with lenient answers off, only the canonical shape is accepted", async () => {
    const decisions: QuestionsHookResult[] = [];
    const { bridge, harness } = setup([async (turn) => void decisions.push(await turn.ask([colours]))], { lenientAnswers: false });
    await driveRun(bridge, runInput(), { newInput: "ask", startTurn: harness.startTurn });
    const refused = await driveRun(bridge, runInput({ forwardedProps: { command: "Blue" } }), { startTurn: harness.startTurn });
    expect(refused.error?.code).toBe("INVALID_ANSWER");
  });

  it("tells the harness a cancelled question was cancelled", async () => {
    const { bridge, harness, decisions } = await askedOnce();
    await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "cancelled" }] }), { startTurn: harness.startTurn });
    expect(decisions).toEqual([{ cancelled: true }]);
  });
});

describe("matching answers to parked requests", () => {
  async function twoParked() {
    const decisions: QuestionsHookResult[] = [];
    const { bridge, harness } = setup([async (turn) => void decisions.push(...(await Promise.all([turn.ask([colours]), turn.ask([toppings])])))]);
    const first = await driveRun(bridge, runInput(), { newInput: "ask twice", startTurn: harness.startTurn });
    return { bridge, harness, decisions, first };
  }

  it("announces every parked interrupt in one outcome", async () => {
    const { first } = await twoParked();
    expect(first.conclusion?.type === "interrupt" && first.conclusion.interrupts.map((interrupt) => interrupt.id)).toEqual(["id-1", "id-2"]);
  });

  it("refuses an id-less command while several interrupts wait, and resolves none of them", async () => {
    const { bridge, harness, decisions } = await twoParked();
    const refused = await driveRun(bridge, runInput({ forwardedProps: { command: "Red" } }), { startTurn: harness.startTurn });
    expect(refused.error).toMatchObject({ code: "AMBIGUOUS_ANSWER" });
    expect(refused.error?.message).toMatch(/2 interrupts are waiting \(id-1, id-2\).*Nothing was resolved/);
    expect(bridge.parkedIds).toEqual(["id-1", "id-2"]);
    expect(decisions).toEqual([]);
  });

  it("refuses a batch in which one answer is bad, resolving none", async () => {
    const { bridge, harness, decisions } = await twoParked();
    const refused = await driveRun(bridge, runInput({ resume: [
      { interruptId: "id-1", status: "resolved", payload: { answers: [{ selected: ["0"] }] } },
      { interruptId: "id-9", status: "resolved", payload: {} },
    ] }), { startTurn: harness.startTurn });
    expect(refused.error).toMatchObject({ code: "UNKNOWN_INTERRUPT", subject: "id-9" });
    expect(bridge.parkedIds).toEqual(["id-1", "id-2"]);
    expect(decisions).toEqual([]);
  });

  it("resolves several interrupts by id in one run", async () => {
    const { bridge, harness, decisions } = await twoParked();
    const second = await driveRun(bridge, runInput({ resume: [
      { interruptId: "id-2", status: "resolved", payload: { answers: [{ selected: ["1"] }] } },
      { interruptId: "id-1", status: "cancelled" },
    ] }), { startTurn: harness.startTurn });
    expect(second.start?.resolvedInterruptIds).toEqual(["id-2", "id-1"]);
    expect(decisions).toEqual([{ cancelled: true }, { answers: [{ selected: [1] }] }]);
  });

  it("keeps answering the rest after a partial resume by announcing what still waits", async () => {
    const { bridge, harness } = await twoParked();
    const partial = await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "cancelled" }] }), { startTurn: harness.startTurn });
    expect(partial.conclusion?.type === "interrupt" && partial.conclusion.interrupts.map((interrupt) => interrupt.id)).toEqual(["id-2"]);
  });

  it("refuses an unknown interrupt id instead of ignoring it, and treats a replayed answer as a no-op", async () => {
    const { bridge, harness } = await askedOnce();
    const unknown = await driveRun(bridge, runInput({ resume: [{ interruptId: "nope", status: "resolved", payload: "Red" }] }), { startTurn: harness.startTurn });
    expect(unknown.error).toMatchObject({ code: "UNKNOWN_INTERRUPT", subject: "nope" });
    const answer = { interruptId: "id-1", status: "resolved" as const, payload: "Red" };
    expect((await driveRun(bridge, runInput({ resume: [answer] }), { startTurn: harness.startTurn })).error).toBeUndefined();
    const replay = await driveRun(bridge, runInput({ resume: [answer] }), { startTurn: harness.startTurn });
    expect(replay.error).toBeUndefined();
    expect(replay.start?.ignored[0]).toMatch(/id-1 was already answered/);
  });

  it("resume entries win over forwardedProps.command when both arrive", async () => {
    const { bridge, harness, decisions } = await askedOnce();
    await driveRun(bridge, runInput({ resume: [{ interruptId: "id-1", status: "resolved", payload: "Red" }], forwardedProps: { command: "Blue" } }), { startTurn: harness.startTurn });
    expect(decisions).toEqual([{ answers: [{ selected: [0] }] }]);
  });

  it("never lets an interrupt answer resolve a frontend tool", async () => {
    const tool = { name: "pick", description: "Picks", parameters: { type: "object", properties: {} } };
    const bridge = new HitlBridge({ settleMs: 20 });
    const harness = new ScriptedHarness([async (turn) => void (await turn.callTool("pick", {}, "call-1"))]).connect(bridge.harnessPieces([tool]));
    await driveRun(bridge, runInput({ tools: [tool] }), { newInput: "pick", startTurn: harness.startTurn });
    const byId = await driveRun(bridge, runInput({ tools: [tool], resume: [{ interruptId: "call-1", status: "resolved", payload: "x" }] }), { startTurn: harness.startTurn });
    expect(byId.error).toMatchObject({ code: "ANSWER_FOR_FRONTEND_TOOL", subject: "call-1" });
    const bare = await driveRun(bridge, runInput({ tools: [tool], forwardedProps: { command: "x" } }), { startTurn: harness.startTurn });
    expect(bare.error).toMatchObject({ code: "ANSWER_FOR_FRONTEND_TOOL" });
    expect(bridge.parkedIds).toEqual(["call-1"]);
  });
});

describe("tool approval", () => {
  async function approvalFor(payload: unknown, status: "resolved" | "cancelled" = "resolved", options = {}) {
    const decisions: PreToolHookResult[] = [];
    const { bridge, harness } = setup([async (turn) => void decisions.push(await turn.approveBuiltin("run_command", { command: "ls" }, "harness-call-1"))], { toolApproval: true, ...options });
    const first = await driveRun(bridge, runInput(), { newInput: "list", startTurn: harness.startTurn });
    const second = await driveRun(bridge, runInput({ resume: [status === "resolved" ? { interruptId: "id-1", status, payload } : { interruptId: "id-1", status }] }), { startTurn: harness.startTurn });
    return { first, second, decisions };
  }

  it("raises a tool_call interrupt bound to the call, with approve / deny / edit in its responseSchema", async () => {
    const { first } = await approvalFor(true);
    await verify(first.events);
    const interrupt = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts[0] : undefined;
    expect(interrupt).toMatchObject({
      reason: "tool_call",
      toolCallId: "harness-call-1",
      message: "Allow the agent to run run_command?",
      metadata: { toolName: "run_command", arguments: { command: "ls" } },
      responseSchema: { required: ["approved"], properties: { approved: { type: "boolean" }, reason: { type: "string" }, editedArgs: { type: "object" } } },
    });
    const notice = first.items.find((item) => item.type === "interrupt");
    expect(notice).toMatchObject({ approval: { toolCallId: "harness-call-1", toolName: "run_command", arguments: { command: "ls" } } });
  });

  it.each([
    ["approve", { approved: true }, { decision: "allow" }],
    ["approve (a bare true)", true, { decision: "allow" }],
    ["approve (\"yes\")", "yes", { decision: "allow" }],
    ["deny with a reason", { approved: false, reason: "not on prod" }, { decision: "deny", reason: "not on prod" }],
    ["deny (legacy { allow, message })", { allow: false, message: "no" }, { decision: "deny", reason: "no" }],
    ["deny without a reason", { approved: false }, { decision: "deny", reason: "The user denied this tool call." }],
    ["approve with edited arguments", { approved: true, editedArgs: { command: "ls -la" } }, { decision: "allow", arguments: { command: "ls -la" } }],
  ])("%s", async (_label, payload, expected) => {
    const { decisions, second } = await approvalFor(payload);
    expect(second.error).toBeUndefined();
    expect(decisions).toEqual([expected]);
    // A denial is reported to the run loop, so the call's card closes whatever the harness sends next.
    const denied = second.items.filter((item) => item.type === "tool-denied");
    expect(denied).toEqual(
      "reason" in expected ? [{ type: "tool-denied", toolCallId: "harness-call-1", toolName: "run_command", arguments: { command: "ls" }, reason: expected.reason }] : [],
    );
  });

  it("refuses a denial that carries edits, and an answer that is no decision", async () => {
    const { second: withEdits } = await approvalFor({ approved: false, editedArgs: { command: "rm" } });
    expect(withEdits.error?.code).toBe("INVALID_ANSWER");
    const { second: noDecision } = await approvalFor("maybe later");
    expect(noDecision.error?.code).toBe("INVALID_ANSWER");
  });

  it("denies a cancelled approval", async () => {
    const { decisions } = await approvalFor(undefined, "cancelled");
    expect(decisions).toEqual([{ decision: "deny", reason: "The user cancelled the approval request." }]);
  });

  it("does not ask for frontend tools, silent built-ins or auto-approved tools", async () => {
    const tool = { name: "pick", description: "Picks", parameters: { type: "object", properties: {} } };
    const bridge = new HitlBridge({ toolApproval: true, autoApproveTools: ["view_file"], appContextTool: true });
    const pieces = bridge.harnessPieces([tool]);
    for (const toolName of ["pick", "view_file", "get_app_context"]) {
      expect(await pieces.hooks.preTool?.(preToolArgs(toolName, {}, "c"))).toEqual({ decision: "allow" });
    }
    expect(bridge.hasParked).toBe(false);
  });

  it("binds the approval to the id the host's card of the call has, and denies under that id", async () => {
    const asked: unknown[] = [];
    const toolCallIdOf = (call: unknown) => {
      asked.push(call);
      return "card-7";
    };
    const { first, second } = await approvalFor({ approved: false, reason: "no" }, "resolved", { toolCallIdOf });
    expect(asked).toEqual([{ toolName: "run_command", callId: "harness-call-1" }]);
    const interrupt = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts[0] : undefined;
    expect(interrupt).toMatchObject({ toolCallId: "card-7" });
    expect(second.items.filter((item) => item.type === "tool-denied")).toEqual([expect.objectContaining({ toolCallId: "card-7" })]);
  });

  it("keeps the harness's call id when the host has no card id for the call", async () => {
    const { first } = await approvalFor(true, "resolved", { toolCallIdOf: () => undefined });
    const interrupt = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts[0] : undefined;
    expect(interrupt).toMatchObject({ toolCallId: "harness-call-1" });
  });

  it("registers no pre-tool hook without toolApproval", () => {
    expect(new HitlBridge().harnessPieces([]).hooks.preTool).toBeUndefined();
  });
});
