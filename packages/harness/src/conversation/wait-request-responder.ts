import type { Logger } from "@ag-ui-antigravity/foundation";
import type { ToolConfirmation, UserQuestionAnswer, UserQuestionsResponse } from "../protocol/messages.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import type { ConversationHooks, QuestionAnswer } from "./conversation-config.js";
import type { ToolGate } from "./tool-gate.js";

function answerToWire(answer: QuestionAnswer): UserQuestionAnswer {
  if (answer === "unanswered") return { unanswered: true };
  return {
    multipleChoiceAnswer: {
      selectedChoiceIndices: answer.selected,
      ...(answer.freeform === undefined ? {} : { freeformResponse: answer.freeform }),
    },
  };
}

/** Answers a questionsRequest step: the hook's answers, or "unanswered" for each (with a warning) so nothing deadlocks. */
export async function answerQuestions(
  step: NormalizedStep,
  options: { hooks: ConversationHooks; logger: Logger; conversationId: string; signal: AbortSignal },
): Promise<UserQuestionsResponse> {
  const questions = step.questions ?? [];
  const base = { trajectoryId: step.trajectoryId, stepIndex: step.stepIndex };
  if (questions.length === 0) return { ...base, response: {} };
  const hook = options.hooks.onQuestions;
  if (hook === undefined) {
    options.logger.warn({
      questions: questions.map((question) => question.question),
    }, "the model asked questions and no onQuestions hook is configured; answering them as unanswered");
    return { ...base, response: { answers: questions.map(() => ({ unanswered: true })) } };
  }
  try {
    const result = await hook({
      conversationId: options.conversationId,
      trajectoryId: step.trajectoryId,
      stepIndex: step.stepIndex,
      questions,
      step,
      signal: options.signal,
    });
    if ("cancelled" in result) return { ...base, cancelled: true };
    // One answer per question, in order; missing answers are unanswered rather than misaligned.
    return { ...base, response: { answers: questions.map((_question, index) => answerToWire(result.answers[index] ?? "unanswered")) } };
  } catch (error) {
    const message = `SDK error processing question: ${error instanceof Error ? error.message : String(error)}`;
    return { ...base, response: { answers: questions.map(() => ({ multipleChoiceAnswer: { selectedChoiceIndices: [], freeformResponse: message } })) } };
  }
}

/**
 * Answers a toolConfirmationRequest step. A waiting step with no action is the notice that a
 * host-side tool call follows (that call is gated when it arrives), so it is accepted. Otherwise the
 * onConfirmation hook decides, else the policies; a step whose tool cannot be identified is rejected.
 */
export async function answerConfirmation(
  step: NormalizedStep,
  options: { hooks: ConversationHooks; gate: ToolGate; conversationId: string; signal: AbortSignal },
): Promise<ToolConfirmation> {
  const reply = (accepted: boolean): ToolConfirmation => ({ trajectoryId: step.trajectoryId, stepIndex: step.stepIndex, accepted });
  const tool = step.tool;
  const hasUnknownAction = step.kind === "unknown";
  if (tool === undefined && !hasUnknownAction) return reply(true);
  if (options.hooks.onConfirmation !== undefined) {
    try {
      const accepted = await options.hooks.onConfirmation({
        conversationId: options.conversationId,
        step,
        ...(tool === undefined ? {} : { toolName: tool.name }),
        arguments: tool?.arguments ?? {},
        signal: options.signal,
      });
      return reply(accepted === true);
    } catch {
      return reply(false);
    }
  }
  if (tool === undefined) return reply(false);
  const request = { toolName: tool.name, argumentsJson: JSON.stringify(tool.arguments), ...(tool.serverName ? { serverName: tool.serverName } : {}) };
  try {
    const decision = await options.gate.decide(request, { remember: false });
    return reply(decision.decision === "allow");
  } catch {
    return reply(false);
  }
}
