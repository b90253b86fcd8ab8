import type { Interrupt, ResumeEntry } from "@ag-ui/client";
import { useState } from "react";
import { isRecord } from "../agent/json";

interface QuestionOption {
  id: string;
  text: string;
}

interface Question {
  question: string;
  multiSelect: boolean;
  options: QuestionOption[];
}

/** Reads `metadata.questions`: `[{ question, is_multi_select, options: [{ id, text }] }]` (strings accepted as options). */
function questionsOf(interrupt: Interrupt): Question[] {
  const raw = isRecord(interrupt.metadata) ? interrupt.metadata["questions"] : undefined;
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map((question) => {
    const options = Array.isArray(question["options"]) ? question["options"] : Array.isArray(question["choices"]) ? question["choices"] : [];
    return {
      question: typeof question["question"] === "string" ? question["question"] : "",
      multiSelect: question["is_multi_select"] === true || question["isMultiSelect"] === true,
      options: options.flatMap((option, index): QuestionOption[] => {
        if (typeof option === "string") return [{ id: String(index), text: option }];
        if (isRecord(option) && typeof option["text"] === "string") return [{ id: typeof option["id"] === "string" ? option["id"] : String(index), text: option["text"] }];
        return [];
      }),
    };
  });
}

interface QuestionInterruptProps {
  interrupt: Interrupt;
  disabled: boolean;
  onAnswer(entry: ResumeEntry): void;
}

/**
 * The agent's multiple-choice questions. The answer is
 * `{ responses: [{ selected_option_ids, freeform_response, skipped }] }`, one entry per question in order.
 */
export function QuestionInterrupt({ interrupt, disabled, onAnswer }: QuestionInterruptProps) {
  const questions = questionsOf(interrupt);
  const [selected, setSelected] = useState<string[][]>(() => questions.map(() => []));
  const [freeform, setFreeform] = useState<string[]>(() => questions.map(() => ""));

  const choose = (questionIndex: number, optionId: string, multiSelect: boolean): void =>
    setSelected((current) =>
      current.map((ids, index) => {
        if (index !== questionIndex) return ids;
        if (!multiSelect) return [optionId];
        return ids.includes(optionId) ? ids.filter((id) => id !== optionId) : [...ids, optionId];
      }),
    );
  const submit = (): void => {
    const responses = questions.map((_, index) => {
      const ids = selected[index] ?? [];
      const text = (freeform[index] ?? "").trim();
      return { selected_option_ids: ids, freeform_response: text, skipped: ids.length === 0 && text === "" };
    });
    onAnswer({ interruptId: interrupt.id, status: "resolved", payload: { responses } });
  };
  const anything = selected.some((ids) => ids.length > 0) || freeform.some((text) => text.trim() !== "");

  return (
    <div className="interrupt-card question" data-testid="question-interrupt" data-interrupt-id={interrupt.id}>
      {questions.map((question, questionIndex) => (
        <fieldset key={questionIndex} className="question-fieldset" data-testid="question">
          <legend className="interrupt-title">{question.question || interrupt.message}</legend>
          {question.multiSelect && <div className="question-hint">Choose any that apply.</div>}
          <div className="question-options">
            {question.options.map((option) => {
              const isSelected = (selected[questionIndex] ?? []).includes(option.id);
              return (
                <button
                  key={option.id}
                  type="button"
                  className={isSelected ? "option selected" : "option"}
                  aria-pressed={isSelected}
                  data-testid="question-option"
                  data-option-id={option.id}
                  disabled={disabled}
                  onClick={() => choose(questionIndex, option.id, question.multiSelect)}
                >
                  {option.text}
                </button>
              );
            })}
          </div>
          <input
            className="question-freeform"
            data-testid="question-freeform"
            placeholder="Or answer in your own words"
            value={freeform[questionIndex] ?? ""}
            disabled={disabled}
            onChange={(event) => setFreeform((current) => current.map((text, index) => (index === questionIndex ? event.target.value : text)))}
          />
        </fieldset>
      ))}
      <div className="button-row">
        <button type="button" className="button primary" data-testid="question-submit" disabled={disabled || !anything} onClick={submit}>
          Send answer
        </button>
      </div>
    </div>
  );
}
