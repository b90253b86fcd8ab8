import type { Interrupt } from "@ag-ui/core";
import type { HarnessQuestion, QuestionAnswer } from "../harness/harness-shapes.js";
import { isPlainObject } from "../json/json-value.js";
import type { JsonSchema } from "../schema/schema-validator.js";

/** The `reason` of a question interrupt: the AG-UI core reason for "the agent needs input". */
export const questionReason = "input_required";

/** One question as the interrupt's metadata shows it; choice ids are what an answer selects. */
export interface QuestionDescription {
  /** The question's text, as the model asked it. */
  question: string;
  /** True when an answer may select several choices; false allows at most one. */
  multiSelect: boolean;
  /** The offered choices, in order; empty for a free-form-only question. */
  choices: {
    /** What an answer's `selected` names: the choice's index as a string (`"0"`, `"1"`, …). */
    id: string;
    /** The choice as shown to the user. */
    text: string;
  }[];
}

/** One answer as `responseSchema` describes it. */
export interface QuestionResponse {
  /** Choice ids (see the interrupt's `metadata.questions[].choices`). */
  selected?: string[];
  /** A typed answer, instead of or beside the choices. */
  freeform?: string;
  /** True when the user chose not to answer; the harness is told the question was unanswered. */
  skipped?: boolean;
}

/** The payload a question interrupt accepts: one response per question, in order. */
export interface QuestionPayload {
  /** Exactly one response per question of the interrupt, in the order of `metadata.questions`. */
  answers: QuestionResponse[];
}

export function describeQuestions(questions: readonly HarnessQuestion[]): QuestionDescription[] {
  return questions.map((question) => ({
    question: question.question,
    multiSelect: question.isMultiSelect,
    choices: question.choices.map((text, index) => ({ id: String(index), text })),
  }));
}

/** The JSON Schema of a question interrupt's answer, one tuple item per question. */
export function questionResponseSchema(questions: readonly QuestionDescription[]): JsonSchema {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      answers: {
        type: "array",
        minItems: questions.length,
        maxItems: questions.length,
        items: questions.map(responseItemSchema),
        additionalItems: false,
      },
    },
    required: ["answers"],
    additionalProperties: false,
  };
}

function responseItemSchema(question: QuestionDescription): JsonSchema {
  const properties: Record<string, unknown> = {
    freeform: { type: "string", description: "A free-form answer, instead of or beside the choices." },
    skipped: { type: "boolean", description: "True when the user chose not to answer this question." },
  };
  if (question.choices.length > 0) {
    properties.selected = {
      type: "array",
      items: { type: "string", enum: question.choices.map((choice) => choice.id) },
      uniqueItems: true,
      maxItems: question.multiSelect ? question.choices.length : 1,
      description: question.multiSelect ? "Ids of the chosen choices." : "The id of the chosen choice.",
    };
  }
  return { type: "object", title: question.question, properties, additionalProperties: false };
}

export interface QuestionInterruptInput {
  id: string;
  questions: readonly QuestionDescription[];
  expiresAt: string;
}

export function questionInterrupt(input: QuestionInterruptInput): Interrupt {
  return {
    id: input.id,
    reason: questionReason,
    message: input.questions[0]?.question ?? "The agent has a question.",
    responseSchema: questionResponseSchema(input.questions),
    expiresAt: input.expiresAt,
    metadata: { kind: "antigravity:question", questions: input.questions },
  };
}

/**
 * Reads the loose answer shapes clients send into the canonical payload, so it can then be checked
 * against `responseSchema`. Accepted: `{answers: [...]}`; the reference adapter's `{responses: [...]}`
 * with `selected_option_ids` / `freeform_response`; a bare list (one item per question); a single
 * response object; a bare string (a choice's text or id, else the free-form answer to the first
 * question); a number (a choice index of the first question). Missing answers are padded as skipped.
 */
export function coerceQuestionPayload(questions: readonly QuestionDescription[], raw: unknown): unknown {
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (isPlainObject(raw) && Array.isArray(raw.answers)) items = raw.answers;
  else if (isPlainObject(raw) && Array.isArray(raw.responses)) items = raw.responses;
  else if (isPlainObject(raw) && isPlainObject(raw.responses)) items = [raw.responses];
  else if (raw === undefined || raw === null) items = [];
  else items = [raw];
  const answers = questions.map((question, index) => coerceResponse(question, items[index]));
  return { answers };
}

function coerceResponse(question: QuestionDescription, raw: unknown): unknown {
  if (raw === undefined || raw === null) return { skipped: true };
  if (typeof raw === "string" || typeof raw === "number") {
    const choice = findChoice(question, raw);
    return choice === undefined ? { freeform: String(raw) } : { selected: [choice] };
  }
  if (!isPlainObject(raw)) return raw;
  const response: Record<string, unknown> = {};
  const selected = raw.selected ?? raw.selected_option_ids ?? raw.selectedOptionIds ?? raw.choices;
  if (Array.isArray(selected)) response.selected = selected.map((value) => (typeof value === "string" || typeof value === "number" ? (findChoice(question, value) ?? value) : value));
  else if (typeof selected === "string" || typeof selected === "number") response.selected = [findChoice(question, selected) ?? selected];
  const freeform = raw.freeform ?? raw.freeform_response ?? raw.freeformResponse ?? raw.text;
  if (freeform !== undefined && freeform !== "") response.freeform = freeform;
  if (raw.skipped !== undefined) response.skipped = raw.skipped;
  // A key none of these spellings knows stays in, so the schema refuses it by name: taking
  // `{answer: "Go"}` as an empty response would record "(unanswered)" and lose the user's answer.
  for (const [key, value] of Object.entries(raw)) {
    if (!knownResponseKeys.has(key)) response[key] = value;
  }
  return response;
}

const knownResponseKeys = new Set(["selected", "selected_option_ids", "selectedOptionIds", "choices", "freeform", "freeform_response", "freeformResponse", "text", "skipped"]);

function findChoice(question: QuestionDescription, value: string | number): string | undefined {
  if (typeof value === "number") return question.choices[value]?.id;
  return question.choices.find((choice) => choice.id === value)?.id ?? question.choices.find((choice) => choice.text === value)?.id;
}

/** The harness's answers for a validated payload: choice ids become indices; empty answers "unanswered". */
export function harnessAnswers(payload: QuestionPayload): QuestionAnswer[] {
  return payload.answers.map((response) => {
    const selected = (response.selected ?? []).map(Number);
    if (response.skipped === true || (selected.length === 0 && (response.freeform ?? "") === "")) return "unanswered";
    return response.freeform === undefined ? { selected } : { selected, freeform: response.freeform };
  });
}
