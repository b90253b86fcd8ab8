/**
 * The agent's questions as one form, and the form's answers back as the harness's answers: what
 * every server that asks its client through a form (an MCP or an ACP elicitation) shares. The
 * shapes are structural, so each server passes its own protocol's types through.
 */

/** A question as the harness reports it: choices to pick from (none: free text), one or several. */
export interface FormQuestion {
  question: string;
  choices: readonly string[];
  isMultiSelect: boolean;
}

/** One answer per question, in the harness's terms (choice indices and free text). */
export type FormQuestionAnswer = "unanswered" | { selected: number[]; freeform?: string };

/** A form field: free text, one choice of several, or several choices. */
export type QuestionFormField =
  | { type: "string"; title: string }
  | { type: "string"; title: string; enum: string[] }
  | { type: "array"; title: string; items: { type: "string"; enum: string[] } };

/** The field of question `index` (1-based names read better in a client's UI). */
export const questionFieldName = (index: number): string => `answer_${index + 1}`;

/**
 * One field per question: a single-choice field (string enum) per single-select question, a
 * multi-choice field (array of enum strings) per multi-select one, free text without choices.
 */
export function questionFormFields(questions: readonly FormQuestion[]): Record<string, QuestionFormField> {
  const fields: Record<string, QuestionFormField> = {};
  questions.forEach((question, index) => {
    const choices = [...new Set(question.choices)];
    if (choices.length === 0) fields[questionFieldName(index)] = { type: "string", title: question.question };
    else if (question.isMultiSelect) fields[questionFieldName(index)] = { type: "array", title: question.question, items: { type: "string", enum: choices } };
    else fields[questionFieldName(index)] = { type: "string", title: question.question, enum: choices };
  });
  return fields;
}

/** The form's headline. */
export function questionFormMessage(questions: readonly FormQuestion[]): string {
  return questions.length === 1 ? `The Antigravity agent asks: ${questions[0]?.question ?? ""}` : `The Antigravity agent asks ${questions.length} questions.`;
}

/**
 * An accepted form's content as answers: picked choices by index; text that is no choice (or any
 * text, for a question without choices) as free text; nothing picked, unanswered.
 */
export function answersOfQuestionForm(content: Readonly<Record<string, unknown>> | undefined, questions: readonly FormQuestion[]): FormQuestionAnswer[] {
  return questions.map((question, index): FormQuestionAnswer => {
    const value = content?.[questionFieldName(index)];
    const picked = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : typeof value === "string" && value !== "" ? [value] : [];
    if (picked.length === 0) return "unanswered";
    if (question.choices.length === 0) return { selected: [], freeform: picked.join(", ") };
    const selected = picked.map((choice) => question.choices.indexOf(choice)).filter((choiceIndex) => choiceIndex >= 0);
    const unknown = picked.filter((choice) => !question.choices.includes(choice));
    if (selected.length === 0 && unknown.length === 0) return "unanswered";
    return unknown.length === 0 ? { selected } : { selected, freeform: unknown.join(", ") };
  });
}
