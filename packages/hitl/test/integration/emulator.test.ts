import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CustomTool } from "@ag-ui-antigravity/harness";
import { interrupt, setState, type InterruptAnswer } from "../../src/index.js";
import { changeColor, EmulatorSessions, modelText } from "../support/emulator-session.js";
import { driveRun, MiniAgent, runInput, verify } from "../support/mini-agent.js";

const repeatedCallsModel = `emulator:${fileURLToPath(new URL("../scenarios/repeated-calls.json", import.meta.url))}`;

const sessions = new EmulatorSessions();
beforeEach(() => sessions.begin());
afterEach(() => sessions.end());

describe("the bridge over the harness client and the emulator", () => {
  it.each([
    ["a resume entry", (id: string) => ({ resume: [{ interruptId: id, status: "resolved" as const, payload: { answers: [{ selected: ["1"] }] } }] })],
    ["a bare forwardedProps.command", () => ({ forwardedProps: { command: "Option B" } })],
    ["forwardedProps.command { interruptId, payload }", (id: string) => ({ forwardedProps: { command: { interruptId: id, payload: { answers: [{ selected: ["1"] }] } } } })],
    ["CopilotKit's { resume, interruptEvent }", (id: string) => ({ forwardedProps: { command: { resume: "Option B", interruptEvent: JSON.stringify({ id }) } } })],
  ])("answers a question interrupt through %s", async (_label, answer) => {
    const { bridge, startTurn } = await sessions.open();
    const first = await driveRun(bridge, runInput(), { newInput: "ask me something", startTurn });
    await verify(first.events);
    expect(first.conclusion?.type).toBe("interrupt");
    const [question] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(question).toMatchObject({ reason: "input_required", metadata: { questions: [{ choices: [{ text: "Option A" }, { text: "Option B" }, { text: "Option C" }] }] } });
    const second = await driveRun(bridge, runInput(answer(question?.id ?? "")), { startTurn });
    await verify(second.events);
    expect(modelText(second.items)).toContain("You chose: Option B");
  });

  it("refuses an answer that breaks the responseSchema and keeps the question parked", async () => {
    const { bridge, startTurn } = await sessions.open();
    const first = await driveRun(bridge, runInput(), { newInput: "ask me something", startTurn });
    const [question] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    const refused = await driveRun(bridge, runInput({ resume: [{ interruptId: question?.id ?? "", status: "resolved", payload: { answers: [{ selected: ["9"] }] } }] }), { startTurn });
    await verify(refused.events);
    expect(refused.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "INVALID_ANSWER" });
    expect(bridge.parkedIds).toEqual([question?.id]);
    const answered = await driveRun(bridge, runInput({ resume: [{ interruptId: question?.id ?? "", status: "resolved", payload: { answers: [{ selected: ["2"] }] } }] }), { startTurn });
    expect(modelText(answered.items)).toContain("You chose: Option C");
  });

  it("refuses an interrupt answer offered to a parked frontend tool", async () => {
    const { bridge, startTurn } = await sessions.open();
    await driveRun(bridge, runInput({ tools: [changeColor] }), { newInput: "please use change_color", startTurn });
    const refused = await driveRun(bridge, runInput({ tools: [changeColor], forwardedProps: { command: "teal" } }), { startTurn });
    await verify(refused.events);
    expect(refused.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "ANSWER_FOR_FRONTEND_TOOL" });
    expect(bridge.parkedIds).toHaveLength(1);
  });

  it("asks before a builtin tool runs and passes the decision on", async () => {
    const { bridge, startTurn } = await sessions.open({ toolApproval: true });
    const first = await driveRun(bridge, runInput(), { newInput: "list the files", startTurn });
    const [approval] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(approval).toMatchObject({ reason: "tool_call", metadata: { toolName: "list_directory" } });
    const second = await driveRun(bridge, runInput({ resume: [{ interruptId: approval?.id ?? "", status: "resolved", payload: { approved: false, reason: "not now" } }] }), { startTurn });
    await verify(second.events);
    expect(modelText(second.items)).toContain("Error: not now");
    expect(second.conclusion).toEqual({ type: "completed" });
  });

  it("approves a builtin tool call, and it runs", async () => {
    const { bridge, startTurn } = await sessions.open({ toolApproval: true });
    const first = await driveRun(bridge, runInput(), { newInput: "list the files", startTurn });
    const [approval] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    const second = await driveRun(bridge, runInput({ forwardedProps: { command: { interruptId: approval?.id ?? "", payload: "yes" } } }), { startTurn });
    await verify(second.events);
    expect(modelText(second.items)).toMatch(/The workspace contains: (?!Error)/);
  });

  it("emits state before a server tool's result, and tells cancelled from abandoned", async () => {
    const answers: InterruptAnswer[] = [];
    const bookSlot: CustomTool = {
      name: "book_slot",
      description: "Books a slot after asking the user",
      parameters: { type: "object", properties: { slot: { type: "string" } } },
      handler: async () => {
        setState({ booking: "pending" });
        const answer = await interrupt("demo:confirm", { message: "Book it?" });
        answers.push(answer);
        return answer.status;
      },
    };
    const { bridge, startTurn } = await sessions.open({ serverTools: [bookSlot] });
    const first = await driveRun(bridge, runInput({ tools: [changeColor], state: {} }), { newInput: "please use book_slot", startTurn });
    await verify(first.events);
    expect(first.items.filter((item) => item.type !== "step").map((item) => item.type)).toEqual(["tool-call", "state", "interrupt"]);
    const [raised] = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    const cancelled = await driveRun(bridge, runInput({ tools: [changeColor], resume: [{ interruptId: raised?.id ?? "", status: "cancelled" }] }), { startTurn });
    await verify(cancelled.events);
    const order = cancelled.items.filter((item) => item.type !== "step").map((item) => item.type);
    expect(order).toEqual(["tool-result", "turn-ended"]);
    expect(modelText(cancelled.items)).toContain("cancelled");

    await driveRun(bridge, runInput({ tools: [changeColor] }), { newInput: "please use book_slot again", startTurn });
    const movedOn = await driveRun(bridge, runInput({ tools: [changeColor] }), { newInput: "forget it, hello", startTurn });
    await verify(movedOn.events);
    expect(answers.map((answer) => answer.status)).toEqual(["cancelled", "abandoned"]);
    expect(modelText(movedOn.items)).toContain('You said: "forget it, hello"');
  });

  it("dispatches a frontend tool once per (name, arguments) in a turn", async () => {
    const { bridge, startTurn } = await sessions.open({}, { model: repeatedCallsModel });
    const first = await driveRun(bridge, runInput({ tools: [changeColor] }), { newInput: "repeat it", startTurn });
    const calls = first.items.filter((item) => item.type === "tool-call");
    expect(calls).toHaveLength(1);
    const redId = calls[0]?.type === "tool-call" ? calls[0].toolCallId : "";
    const second = await driveRun(bridge, runInput({ tools: [changeColor], messages: [{ id: "t1", role: "tool", toolCallId: redId, content: "red done" }] }), { startTurn });
    await verify(second.events);
    // The identical repeat was answered from the first result; only the call with new arguments reached the client.
    const secondCalls = second.items.filter((item) => item.type === "tool-call");
    expect(secondCalls).toMatchObject([{ toolName: "change_color", arguments: { color: "blue" } }]);
    const blueId = secondCalls[0]?.type === "tool-call" ? secondCalls[0].toolCallId : "";
    const third = await driveRun(bridge, runInput({ tools: [changeColor], messages: [{ id: "t2", role: "tool", toolCallId: blueId, content: "blue done" }] }), { startTurn });
    expect(modelText([...second.items, ...third.items])).toMatch(/first: .*red done.*second: .*red done.*third: .*blue done/);
  });

  it("refuses an id-less answer while several interrupts wait, resolving none, then takes answers by id", async () => {
    const statuses: string[] = [];
    const doubleCheck: CustomTool = {
      name: "double_check",
      description: "Asks two things at once",
      parameters: { type: "object", properties: {} },
      handler: async () => {
        const answers = await Promise.all([interrupt("demo:first"), interrupt("demo:second")]);
        statuses.push(...answers.map((answer) => answer.status));
        return answers.map((answer) => answer.payload).join(" & ");
      },
    };
    const { bridge, startTurn } = await sessions.open({ serverTools: [doubleCheck] });
    const first = await driveRun(bridge, runInput(), { newInput: "please use double_check", startTurn });
    const interrupts = first.conclusion?.type === "interrupt" ? first.conclusion.interrupts : [];
    expect(interrupts.map((entry) => entry.reason)).toEqual(["demo:first", "demo:second"]);
    const refused = await driveRun(bridge, runInput({ forwardedProps: { command: "yes" } }), { startTurn });
    await verify(refused.events);
    expect(refused.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "AMBIGUOUS_ANSWER" });
    expect(statuses).toEqual([]);
    const answered = await driveRun(bridge, runInput({ resume: interrupts.map((entry, index) => ({ interruptId: entry.id, status: "resolved" as const, payload: `answer ${index + 1}` })) }), { startTurn });
    await verify(answered.events);
    expect(statuses).toEqual(["resolved", "resolved"]);
    expect(modelText(answered.items)).toContain("answer 1 & answer 2");
  });

  it("a multi-run conversation applied with @ag-ui/client's reducer ends with the expected messages", async () => {
    const { bridge, startTurn } = await sessions.open();
    const agent = new MiniAgent(bridge, startTurn);
    agent.messages = [{ id: "user-1", role: "user", content: "please use change_color" }];
    await agent.runAgent({ tools: [changeColor] });
    const call = agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).at(-1);
    expect(call?.function.name).toBe("change_color");
    agent.messages = [...agent.messages, { id: "tool-1", role: "tool", toolCallId: call?.id ?? "", content: "teal it is" }];
    await agent.runAgent({ tools: [changeColor] });
    agent.messages = [...agent.messages, { id: "user-2", role: "user", content: "ask me something" }];
    await agent.runAgent({ tools: [changeColor] });
    const [question] = agent.pendingInterrupts;
    expect(question?.reason).toBe("input_required");
    await agent.runAgent({ tools: [changeColor], resume: [{ interruptId: question?.id ?? "", status: "resolved", payload: { answers: [{ selected: ["0"] }] } }] });
    expect(agent.pendingInterrupts).toEqual([]);
    const assistantText = agent.messages.flatMap((message) => (message.role === "assistant" && typeof message.content === "string" ? [message.content] : []));
    expect(assistantText.join("\n")).toMatch(/I called change_color\. It returned:.*teal it is/s);
    expect(assistantText.at(-1)).toContain("You chose: Option A");
    expect(agent.messages.filter((message) => message.role === "user").map((message) => message.id)).toEqual(["user-1", "user-2"]);
    expect(agent.messages.some((message) => message.role === "tool" && message.toolCallId === call?.id)).toBe(true);
  });
});
