import { describe, expect, it } from "vitest";
import { SchemaValidator } from "../schema/schema-validator.js";
import { approvalResponseSchema, coerceApprovalPayload } from "./approval-interrupt.js";
import { coerceQuestionPayload, describeQuestions, harnessAnswers, questionResponseSchema } from "./question-interrupt.js";
import { serverToolInterrupt } from "./server-tool-interrupt.js";

const validator = new SchemaValidator();
const questions = describeQuestions([
  { question: "Colour?", choices: ["Red", "Blue"], isMultiSelect: false },
  { question: "Extras?", choices: ["A", "B", "C"], isMultiSelect: true },
  { question: "Anything else?", choices: [], isMultiSelect: false },
]);
const schema = questionResponseSchema(questions);

describe("question responseSchema", () => {
  it("accepts one response per question and enforces single-select", () => {
    expect(validator.check(schema, { answers: [{ selected: ["1"] }, { selected: ["0", "2"] }, { freeform: "no" }] }).valid).toBe(true);
    expect(validator.check(schema, { answers: [{ selected: ["0", "1"] }, {}, {}] }).problems).toEqual(["/answers/0/selected: Array has too many items (2 > 1)."]);
    expect(validator.check(schema, { answers: [{}, {}] }).valid).toBe(false);
    expect(validator.check(schema, { answers: [{}, {}, { selected: ["0"] }] }).valid).toBe(false);
  });

  it("coerces loose shapes into the canonical payload", () => {
    expect(coerceQuestionPayload(questions, "Blue")).toEqual({ answers: [{ selected: ["1"] }, { skipped: true }, { skipped: true }] });
    expect(coerceQuestionPayload(questions, [0, { selected: ["A", "C"] }, "nothing"])).toEqual({ answers: [{ selected: ["0"] }, { selected: ["0", "2"] }, { freeform: "nothing" }] });
    expect(coerceQuestionPayload(questions, { responses: { selected_option_ids: ["1"], freeform_response: "" } })).toEqual({ answers: [{ selected: ["1"] }, { skipped: true }, { skipped: true }] });
  });

  it("keeps a response's unknown keys so the schema refuses them instead of recording no answer", () => {
    const schema = questionResponseSchema(questions);
    const coerced = coerceQuestionPayload(questions, { answer: "Go" });
    expect(coerced).toEqual({ answers: [{ answer: "Go" }, { skipped: true }, { skipped: true }] });
    expect(validator.check(schema, coerced).problems.join("\n")).toMatch(/"answer" does not match additional properties/);
  });

  it("maps a payload to the harness's answers", () => {
    expect(harnessAnswers({ answers: [{ selected: ["1"] }, { skipped: true }, { freeform: "x" }] })).toEqual([{ selected: [1] }, "unanswered", { selected: [], freeform: "x" }]);
  });
});

describe("approval responseSchema", () => {
  it("uses the tool's own argument schema for edited arguments when known", () => {
    const withArguments = approvalResponseSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] });
    expect(validator.check(withArguments, { approved: true, editedArgs: { path: "/tmp" } }).valid).toBe(true);
    expect(validator.check(withArguments, { approved: true, editedArgs: {} }).valid).toBe(false);
  });

  it("coerces words, booleans and legacy keys", () => {
    expect(coerceApprovalPayload("Deny")).toEqual({ approved: false });
    expect(coerceApprovalPayload(false)).toEqual({ approved: false });
    expect(coerceApprovalPayload({ allowed: "yes", edited_args: { a: 1 } })).toEqual({ approved: true, editedArgs: { a: 1 } });
    expect(coerceApprovalPayload("perhaps")).toBe("perhaps");
  });
});

describe("server-tool interrupts", () => {
  it("carry extras at the top level without letting them override the bridge's fields", () => {
    expect(serverToolInterrupt({ id: "i", reason: "app:x", toolCallId: "c", expiresAt: "2030-01-01T00:00:00.000Z", options: { id: "spoof", toolCallId: "spoof", extra: 1, message: "m" } })).toEqual({
      id: "i", reason: "app:x", toolCallId: "c", expiresAt: "2030-01-01T00:00:00.000Z", extra: 1, message: "m",
    });
  });
});
