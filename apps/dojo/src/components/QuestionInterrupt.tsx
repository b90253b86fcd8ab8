import type { Interrupt, ResumeEntry } from "@ag-ui/client";
import { useState } from "react";
import { questionAnswerPayload, questionsOf } from "../features/questions";

interface QuestionInterruptProps {
  interrupt: Interrupt;
  disabled: boolean;
  onAnswer(entry: ResumeEntry): void;
}

/** The agent's multiple-choice questions, each with a free-text box; answered in the shape its responseSchema asks for. */
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
    const selections = questions.map((_, index) => ({ selectedIds: selected[index] ?? [], freeform: freeform[index] ?? "" }));
    onAnswer({ interruptId: interrupt.id, status: "resolved", payload: questionAnswerPayload(interrupt, questions, selections) });
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
