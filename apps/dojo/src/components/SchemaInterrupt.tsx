import type { Interrupt, ResumeEntry } from "@ag-ui/client";
import { useState } from "react";
import { isRecord } from "../agent/json";
import { SchemaForm } from "./SchemaForm";

interface SchemaInterruptProps {
  interrupt: Interrupt;
  disabled: boolean;
  onAnswer(entry: ResumeEntry): void;
}

/**
 * Any other interrupt (`input_required`, `confirmation`, a custom reason): a form built from its
 * `responseSchema`, or a plain text answer when it has none.
 */
export function SchemaInterrupt({ interrupt, disabled, onAnswer }: SchemaInterruptProps) {
  const [text, setText] = useState("");
  const resolve = (payload: unknown): void => onAnswer({ interruptId: interrupt.id, status: "resolved", payload });
  return (
    <div className="interrupt-card" data-testid="schema-interrupt" data-interrupt-id={interrupt.id} data-reason={interrupt.reason}>
      <div className="interrupt-title">{interrupt.message ?? "The agent needs your input."}</div>
      {isRecord(interrupt.responseSchema) ? (
        <SchemaForm schema={interrupt.responseSchema} disabled={disabled} onSubmit={resolve} />
      ) : (
        <div className="add-row">
          <input data-testid="schema-text-answer" value={text} disabled={disabled} placeholder="Your answer" onChange={(event) => setText(event.target.value)} />
          <button type="button" className="button primary" data-testid="schema-submit" disabled={disabled || text.trim() === ""} onClick={() => resolve(text.trim())}>
            Send
          </button>
        </div>
      )}
    </div>
  );
}
