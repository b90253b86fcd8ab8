import type { Interrupt } from "@ag-ui/client";
import { describe, expect, test } from "vitest";
import { approvalRequestOf, deniedToolCallIds, denialPayload, isApprovalInterrupt } from "../../src/features/approval.js";
import { questionAnswerPayload, questionsOf } from "../../src/features/questions.js";

describe("questions", () => {
  const projectShape: Interrupt = {
    id: "q1",
    reason: "input_required",
    responseSchema: { type: "object", properties: { answers: { type: "array" } } },
    metadata: {
      questions: [
        { question: "Which language?", multiSelect: false, choices: [{ id: "0", text: "TypeScript" }, { id: "1", text: "Python" }] },
        { question: "Anything else?", multiSelect: false, choices: [] },
      ],
    },
  };
  const referenceShape: Interrupt = {
    id: "q2",
    reason: "ask_question",
    responseSchema: { type: "object", properties: { responses: { type: "array" } } },
    metadata: { questions: [{ question: "Pick toppings", is_multi_select: true, options: [{ id: "ch", text: "Cheese" }, "Olives"] }] },
  };

  test("reads both metadata shapes", () => {
    expect(questionsOf(projectShape)[0]).toEqual({ question: "Which language?", multiSelect: false, options: [{ id: "0", text: "TypeScript" }, { id: "1", text: "Python" }] });
    expect(questionsOf(referenceShape)[0]).toEqual({ question: "Pick toppings", multiSelect: true, options: [{ id: "ch", text: "Cheese" }, { id: "1", text: "Olives" }] });
  });

  test("answers with `answers` when the schema asks for it, leaving out keys the question does not have", () => {
    const payload = questionAnswerPayload(projectShape, questionsOf(projectShape), [
      { selectedIds: ["1"], freeform: "" },
      { selectedIds: [], freeform: "  " },
    ]);
    expect(payload).toEqual({ answers: [{ selected: ["1"], skipped: false }, { skipped: true }] });
  });

  test("answers with the reference `responses` shape otherwise", () => {
    const payload = questionAnswerPayload(referenceShape, questionsOf(referenceShape), [{ selectedIds: ["ch", "1"], freeform: "extra basil" }]);
    expect(payload).toEqual({ responses: [{ selected_option_ids: ["ch", "1"], freeform_response: "extra basil", skipped: false }] });
  });
});

describe("approvals", () => {
  const projectShape: Interrupt = {
    id: "a1",
    reason: "tool_call",
    toolCallId: "call-1",
    responseSchema: { type: "object", properties: { approved: { type: "boolean" }, reason: { type: "string" }, editedArgs: { type: "object" } } },
    metadata: { toolName: "write_file", arguments: { path: "a.txt" } },
  };
  const referenceShape: Interrupt = {
    id: "a2",
    reason: "tool_approval",
    responseSchema: { type: "object", properties: { approved: { type: "boolean" }, message: { type: "string" } } },
    metadata: { tool_name: "delete_file", args: '{"path":"b.txt"}' },
  };

  test("recognises approval interrupts by reason, or by a tool call with an `approved` answer", () => {
    expect(isApprovalInterrupt(projectShape)).toBe(true);
    expect(isApprovalInterrupt(referenceShape)).toBe(true);
    expect(isApprovalInterrupt({ id: "x", reason: "custom:check", toolCallId: "c", responseSchema: { properties: { approved: {} } } })).toBe(true);
    expect(isApprovalInterrupt({ id: "y", reason: "input_required" })).toBe(false);
  });

  test("reads the tool and arguments from either metadata shape, and whether edits are allowed", () => {
    expect(approvalRequestOf(projectShape, [])).toEqual({ toolName: "write_file", args: { path: "a.txt" }, canEdit: true, denialKey: "reason" });
    expect(approvalRequestOf(referenceShape, [])).toEqual({ toolName: "delete_file", args: { path: "b.txt" }, canEdit: false, denialKey: "message" });
  });

  test("falls back to the tool call in the conversation when the metadata names none", () => {
    const bare: Interrupt = { id: "a3", reason: "tool_call", toolCallId: "call-9" };
    const request = approvalRequestOf(bare, [{ id: "m", role: "assistant", toolCalls: [{ id: "call-9", type: "function", function: { name: "send_mail", arguments: '{"to":"x"}' } }] }]);
    expect(request).toMatchObject({ toolName: "send_mail", args: { to: "x" } });
  });

  test("a denial carries the reason under the key the schema names, and nothing when there is none", () => {
    expect(denialPayload(approvalRequestOf(projectShape, []), " too risky ")).toEqual({ approved: false, reason: "too risky" });
    expect(denialPayload(approvalRequestOf(referenceShape, []), "no")).toEqual({ approved: false, message: "no" });
    expect(denialPayload(approvalRequestOf(projectShape, []), "")).toEqual({ approved: false });
  });

  test("the calls the user refused are those answered approved: false or cancelled, never a question's", () => {
    const question: Interrupt = { id: "q1", reason: "input_required", toolCallId: "call-q", metadata: { questions: [] } };
    const second: Interrupt = { ...projectShape, id: "a4", toolCallId: "call-2" };
    const third: Interrupt = { ...projectShape, id: "a5", toolCallId: "call-3" };
    const denied = deniedToolCallIds(
      [projectShape, second, third, question],
      [
        { interruptId: "a1", status: "resolved", payload: { approved: false, reason: "no" } },
        { interruptId: "a4", status: "resolved", payload: { approved: true, editedArgs: { path: "b.txt" } } },
        { interruptId: "a5", status: "cancelled" },
        { interruptId: "q1", status: "cancelled" },
        { interruptId: "unknown", status: "resolved", payload: { approved: false } },
      ],
    );
    expect(denied).toEqual(["call-1", "call-3"]);
  });
});
