import { answersOfQuestionForm, questionFormFields, questionFormMessage } from "@ag-ui-antigravity/foundation";
import type { QuestionAnswer, QuestionsHookArgs, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import { methods, type ElicitationPropertySchema, type PermissionOption } from "@agentclientprotocol/sdk";
import { askUser, type PromptInteraction } from "./prompt-interaction.js";

type Question = QuestionsHookArgs["questions"][number];

/** A question offered as permission options has at most this many choices (a longer list is no button row). */
const MAX_CHOICES_AS_OPTIONS = 8;
const SKIP = "skip";

/** How the questions of one request reach this client. */
export type QuestionChannel = "elicitation" | "permission" | "text";

/**
 * The richest way this client can be asked: a form when it offers form elicitation (any question,
 * several choices, free text); else, when every question is a single choice among a few, one
 * `session/request_permission` per question with a choice per option; else the questions as text
 * in the agent's message, cancelled for the agent, for the user to answer in the next prompt.
 */
export function questionChannel(interaction: Pick<PromptInteraction, "capabilities">, questions: readonly Question[]): QuestionChannel {
  if (interaction.capabilities.elicitation?.form !== undefined && interaction.capabilities.elicitation.form !== null) return "elicitation";
  const asOptions = questions.every((question) => !question.isMultiSelect && question.choices.length > 0 && question.choices.length <= MAX_CHOICES_AS_OPTIONS);
  return asOptions ? "permission" : "text";
}

async function askByForm(interaction: PromptInteraction, questions: readonly Question[], toolCallId: string): Promise<QuestionsHookResult> {
  const result = await askUser(interaction, (signal) =>
    interaction.client.request(
      methods.client.elicitation.create,
      {
        mode: "form",
        sessionId: interaction.sessionId,
        toolCallId,
        message: questionFormMessage(questions),
        requestedSchema: { type: "object", properties: questionFormFields(questions) as Record<string, ElicitationPropertySchema> },
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    ),
  );
  if (result.action !== "accept") return { cancelled: true };
  const content = "content" in result ? (result.content as Record<string, unknown> | undefined) : undefined;
  return { answers: answersOfQuestionForm(content, questions) };
}

async function askByPermission(interaction: PromptInteraction, questions: readonly Question[], toolCallId: string): Promise<QuestionsHookResult> {
  const answers: QuestionAnswer[] = [];
  for (const question of questions) {
    const options: PermissionOption[] = [
      ...question.choices.map((choice, index): PermissionOption => ({ optionId: `choice-${index}`, name: choice, kind: "allow_once" })),
      { optionId: SKIP, name: "Skip this question", kind: "reject_once" },
    ];
    const { outcome } = await askUser(interaction, (signal) =>
      interaction.client.request(
        methods.client.session.requestPermission,
        { sessionId: interaction.sessionId, toolCall: { toolCallId, title: question.question, kind: "other", status: "pending" }, options },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      ),
    );
    if (outcome.outcome === "cancelled") return { cancelled: true };
    const picked = /^choice-(\d+)$/.exec(outcome.optionId);
    const index = picked === null ? -1 : Number(picked[1]);
    answers.push(index >= 0 && index < question.choices.length ? { selected: [index] } : "unanswered");
  }
  return { answers };
}

function describeAnswers(questions: readonly Question[], result: QuestionsHookResult): string {
  if ("cancelled" in result) return "No answer.";
  return questions
    .map((question, index) => {
      const answer = result.answers[index];
      if (answer === undefined || answer === "unanswered") return `${question.question}: (no answer)`;
      const picked = answer.selected.map((choice) => question.choices[choice] ?? "").filter((choice) => choice !== "");
      return `${question.question}: ${[...picked, ...(answer.freeform === undefined ? [] : [answer.freeform])].join(", ")}`;
    })
    .join("\n");
}

/**
 * The `onQuestions` hook: the agent's questions go to the client running the prompt by the richest
 * channel it offers (questionChannel), shown as a tool call of their own. With no prompt running,
 * or no answer (a cancelled prompt, an error, the permission timeout), the questions are cancelled.
 */
export function questionHook(current: () => PromptInteraction | undefined): (args: QuestionsHookArgs) => Promise<QuestionsHookResult> {
  return async (args) => {
    const interaction = current();
    if (interaction === undefined) return { cancelled: true };
    const toolCallId = `question-${args.step.id}`;
    const title = args.questions.length === 1 ? `Question: ${args.questions[0]?.question ?? ""}` : `${args.questions.length} questions`;
    const channel = questionChannel(interaction, args.questions);
    if (channel === "text") {
      const lines = args.questions.map((question) => `- ${question.question}${question.choices.length === 0 ? "" : ` (${question.isMultiSelect ? "one or more of" : "one of"}: ${question.choices.join(", ")})`}`);
      interaction.channel.enqueue(() => [
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\nThe agent has a question this editor cannot show as a choice; answer it in your next message:\n${lines.join("\n")}\n\n` } },
      ]);
      return { cancelled: true };
    }
    interaction.channel.enqueue(() => [{ sessionUpdate: "tool_call", toolCallId, title, kind: "other", status: "pending", rawInput: { questions: args.questions } }]);
    await interaction.channel.flush();
    let result: QuestionsHookResult;
    try {
      result = channel === "elicitation" ? await askByForm(interaction, args.questions, toolCallId) : await askByPermission(interaction, args.questions, toolCallId);
    } catch {
      result = { cancelled: true };
    }
    interaction.channel.enqueue(() => [
      { sessionUpdate: "tool_call_update", toolCallId, status: "cancelled" in result ? "failed" : "completed", content: [{ type: "content", content: { type: "text", text: describeAnswers(args.questions, result) } }] },
    ]);
    return result;
  };
}
