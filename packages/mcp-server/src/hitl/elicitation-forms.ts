import type { QuestionAnswer, QuestionsHookArgs, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

type Question = QuestionsHookArgs["questions"][number];

/** The form field of question `index` (1-based names read better in a client's UI). */
const fieldOf = (index: number): string => `answer_${index + 1}`;

/**
 * The agent's questions as one elicitation form: a single-choice field (string enum) per
 * single-select question, a multi-choice field (array of enum strings) per multi-select one.
 * Questions without choices become free-text fields.
 */
export function questionsForm(questions: readonly Question[]): ElicitRequestFormParams {
  const properties: ElicitRequestFormParams["requestedSchema"]["properties"] = {};
  questions.forEach((question, index) => {
    const choices = [...new Set(question.choices)];
    if (choices.length === 0) properties[fieldOf(index)] = { type: "string", title: question.question };
    else if (question.isMultiSelect) properties[fieldOf(index)] = { type: "array", title: question.question, items: { type: "string", enum: choices } };
    else properties[fieldOf(index)] = { type: "string", title: question.question, enum: choices };
  });
  const message = questions.length === 1 ? `The Antigravity agent asks: ${questions[0]?.question ?? ""}` : `The Antigravity agent asks ${questions.length} questions.`;
  return { mode: "form", message, requestedSchema: { type: "object", properties } };
}

/** The client's form answer as the harness's answers; declined or cancelled means the questions were cancelled. */
export function answersOfForm(result: ElicitResult, questions: readonly Question[]): QuestionsHookResult {
  if (result.action !== "accept") return { cancelled: true };
  const content = result.content ?? {};
  const answers = questions.map((question, index): QuestionAnswer => {
    const value = content[fieldOf(index)];
    const picked = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : typeof value === "string" && value !== "" ? [value] : [];
    if (picked.length === 0) return "unanswered";
    if (question.choices.length === 0) return { selected: [], freeform: picked.join(", ") };
    const selected = picked.map((choice) => question.choices.indexOf(choice)).filter((choiceIndex) => choiceIndex >= 0);
    const unknown = picked.filter((choice) => !question.choices.includes(choice));
    if (selected.length === 0 && unknown.length === 0) return "unanswered";
    return unknown.length === 0 ? { selected } : { selected, freeform: unknown.join(", ") };
  });
  return { answers };
}

/** A yes/no form for running a tool. */
export function approvalForm(toolName: string, args: Record<string, unknown>): ElicitRequestFormParams {
  let shown = JSON.stringify(args);
  if (shown.length > 2_000) shown = `${shown.slice(0, 2_000)}…`;
  return {
    mode: "form",
    message: `The Antigravity agent wants to run ${toolName} with ${shown}. Allow it?`,
    requestedSchema: {
      type: "object",
      properties: { approve: { type: "boolean", title: `Allow ${toolName}`, description: "Run the tool with these arguments." } },
      required: ["approve"],
    },
  };
}

/** Only an accepted form with `approve: true` approves. */
export function isApproved(result: ElicitResult): boolean {
  return result.action === "accept" && result.content?.["approve"] === true;
}
