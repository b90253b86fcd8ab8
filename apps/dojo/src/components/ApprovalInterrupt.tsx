import type { Interrupt, Message, ResumeEntry } from "@ag-ui/client";
import { useState } from "react";
import { isRecord, parseJsonSafely, prettyJson } from "../agent/json";
import { approvalRequestOf, denialPayload } from "../features/approval";

interface ApprovalInterruptProps {
  interrupt: Interrupt;
  messages: readonly Message[];
  disabled: boolean;
  onAnswer(entry: ResumeEntry): void;
}

type Mode = "choose" | "deny" | "edit";

/**
 * A tool call waiting for approval. Approve sends `{ approved: true }`; deny sends
 * `{ approved: false, reason }`; edit sends `{ approved: true, editedArgs }` (a full replacement),
 * offered only when the interrupt's responseSchema declares `editedArgs`.
 */
export function ApprovalInterrupt({ interrupt, messages, disabled, onAnswer }: ApprovalInterruptProps) {
  const request = approvalRequestOf(interrupt, messages);
  const [mode, setMode] = useState<Mode>("choose");
  const [reason, setReason] = useState("");
  const [editedText, setEditedText] = useState(() => prettyJson(request.args));
  const editedArgs = parseJsonSafely(editedText);
  const editError = mode === "edit" && !isRecord(editedArgs) ? "The arguments must be a JSON object." : undefined;

  const resolve = (payload: Record<string, unknown>): void => onAnswer({ interruptId: interrupt.id, status: "resolved", payload });

  return (
    <div className="interrupt-card approval" data-testid="approval-interrupt" data-interrupt-id={interrupt.id}>
      <div className="interrupt-title">{interrupt.message ?? `Allow the agent to run ${request.toolName}?`}</div>
      <div className="approval-tool">
        <span className="card-label">Tool</span> <code data-testid="approval-tool-name">{request.toolName}</code>
      </div>
      {mode === "edit" ? (
        <>
          <textarea className="code-editor" data-testid="edit-args" rows={8} value={editedText} disabled={disabled} onChange={(event) => setEditedText(event.target.value)} />
          {editError !== undefined && <div className="field-error">{editError}</div>}
        </>
      ) : (
        <pre className="code-block" data-testid="approval-args">
          {prettyJson(request.args)}
        </pre>
      )}
      {mode === "deny" && (
        <textarea
          className="reason-input"
          data-testid="deny-reason"
          rows={2}
          placeholder="Why not? The agent will see this."
          value={reason}
          disabled={disabled}
          onChange={(event) => setReason(event.target.value)}
        />
      )}
      <div className="button-row">
        {mode === "choose" && (
          <>
            <button type="button" className="button secondary" data-testid="deny-button" disabled={disabled} onClick={() => setMode("deny")}>
              Deny…
            </button>
            {request.canEdit && (
              <button type="button" className="button secondary" data-testid="edit-args-button" disabled={disabled} onClick={() => setMode("edit")}>
                Edit arguments…
              </button>
            )}
            <button type="button" className="button primary" data-testid="approve-button" disabled={disabled} onClick={() => resolve({ approved: true })}>
              Approve
            </button>
          </>
        )}
        {mode === "deny" && (
          <>
            <button type="button" className="button secondary" disabled={disabled} onClick={() => setMode("choose")}>
              Back
            </button>
            <button type="button" className="button danger" data-testid="deny-confirm" disabled={disabled} onClick={() => resolve(denialPayload(request, reason))}>
              Deny
            </button>
          </>
        )}
        {mode === "edit" && (
          <>
            <button type="button" className="button secondary" disabled={disabled} onClick={() => setMode("choose")}>
              Back
            </button>
            <button
              type="button"
              className="button primary"
              data-testid="approve-edited"
              disabled={disabled || editError !== undefined}
              onClick={() => resolve({ approved: true, editedArgs })}
            >
              Approve with these arguments
            </button>
          </>
        )}
      </div>
    </div>
  );
}
