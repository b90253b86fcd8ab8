import type { Interrupt } from "@ag-ui/client";
import { isRecord } from "../agent/json";

export interface QuestionOption {
  id: string;
  text: string;
}

export interface Question {
  question: string;
  multiSelect: boolean;
  options: QuestionOption[];
}

/** What the user did with one question. */
export interface QuestionSelection {
  selectedIds: string[];
  freeform: string;
}

/**
 * Reads `metadata.questions`. Two shapes are in use: this project's
 * `[{ question, multiSelect, choices: [{ id, text }] }]`, and the reference adapter's
 * `[{ question, is_multi_select, options: [{ id, text }] }]`; plain strings are accepted as choices.
 */
export function questionsOf(interrupt: Interrupt): Question[] {
  const raw = isRecord(interrupt.metadata) ? interrupt.metadata["questions"] : undefined;
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map((question) => {
    const options = Array.isArray(question["choices"]) ? question["choices"] : Array.isArray(question["options"]) ? question["options"] : [];
    return {
      question: typeof question["question"] === "string" ? question["question"] : "",
      multiSelect: question["multiSelect"] === true || question["is_multi_select"] === true || question["isMultiSelect"] === true,
      options: options.flatMap((option, index): QuestionOption[] => {
        if (typeof option === "string") return [{ id: String(index), text: option }];
        if (isRecord(option) && typeof option["text"] === "string") return [{ id: typeof option["id"] === "string" ? option["id"] : String(index), text: option["text"] }];
        return [];
      }),
    };
  });
}

/**
 * The answer payload, in the shape the interrupt's `responseSchema` asks for: `{ answers: [{ selected,
 * freeform, skipped }] }` when it has an `answers` property (this project's server), otherwise the
 * reference adapter's `{ responses: [{ selected_option_ids, freeform_response, skipped }] }`. One
 * entry per question, in order; a question with no choice and no text is marked skipped.
 */
export function questionAnswerPayload(interrupt: Interrupt, questions: readonly Question[], selections: readonly QuestionSelection[]): unknown {
  const properties = isRecord(interrupt.responseSchema) && isRecord(interrupt.responseSchema["properties"]) ? interrupt.responseSchema["properties"] : {};
  const answered = questions.map((question, index) => {
    const selection = selections[index] ?? { selectedIds: [], freeform: "" };
    const freeform = selection.freeform.trim();
    return { question, selectedIds: selection.selectedIds, freeform, skipped: selection.selectedIds.length === 0 && freeform === "" };
  });
  if ("answers" in properties) {
    return {
      answers: answered.map(({ question, selectedIds, freeform, skipped }) => ({
        // The schema only has `selected` for questions that offer choices, and forbids unknown keys.
        ...(question.options.length > 0 ? { selected: selectedIds } : {}),
        ...(freeform === "" ? {} : { freeform }),
        skipped,
      })),
    };
  }
  return { responses: answered.map(({ selectedIds, freeform, skipped }) => ({ selected_option_ids: selectedIds, freeform_response: freeform, skipped })) };
}
