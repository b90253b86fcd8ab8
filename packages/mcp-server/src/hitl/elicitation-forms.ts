import { answersOfQuestionForm, questionFormFields, questionFormMessage } from "@ag-ui-antigravity/foundation";
import type { QuestionsHookArgs, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

type Question = QuestionsHookArgs["questions"][number];

/**
 * The agent's questions as one elicitation form (foundation's question form: a single-choice
 * field per single-select question, a multi-choice field per multi-select one, free text without
 * choices).
 */
export function questionsForm(questions: readonly Question[]): ElicitRequestFormParams {
  const properties = questionFormFields(questions) as ElicitRequestFormParams["requestedSchema"]["properties"];
  return { mode: "form", message: questionFormMessage(questions), requestedSchema: { type: "object", properties } };
}

/** The client's form answer as the harness's answers; declined or cancelled means the questions were cancelled. */
export function answersOfForm(result: ElicitResult, questions: readonly Question[]): QuestionsHookResult {
  if (result.action !== "accept") return { cancelled: true };
  return { answers: answersOfQuestionForm(result.content, questions) };
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
