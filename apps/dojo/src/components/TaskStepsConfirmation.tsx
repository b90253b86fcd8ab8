import { useState } from "react";
import { isRecord } from "../agent/json";
import { taskStepsFrom, type TaskStep } from "../features/taskSteps";

interface TaskStepsConfirmationProps {
  /** The tool call's arguments (`{ steps }`), undefined while they are still streaming. */
  args: unknown;
  /** The ToolMessage already sent for this call, parsed, if any. */
  answer: unknown;
  canRespond: boolean;
  onRespond(content: string): void;
}

/**
 * human_in_the_loop's plan: the user switches steps on or off, then confirms or rejects. The answer
 * goes back as the tool's result, `{ accepted, steps }`, and the model continues from it.
 */
export function TaskStepsConfirmation({ args, answer, canRespond, onRespond }: TaskStepsConfirmationProps) {
  const proposed = taskStepsFrom(args);
  // The user's toggles, by step index; untouched steps keep the status the model proposed.
  const [overrides, setOverrides] = useState<Record<number, boolean>>({});
  const answered = isRecord(answer);
  const answeredSteps = answered ? taskStepsFrom(answer) : [];
  const steps: TaskStep[] = answered && answeredSteps.length > 0
    ? answeredSteps
    : proposed.map((step, index) => {
        const enabled = overrides[index] ?? step.status !== "disabled";
        return { description: step.description, status: enabled ? "enabled" : "disabled" };
      });
  const respond = (accepted: boolean): void => onRespond(JSON.stringify({ accepted, steps }));
  const decision = answered ? (answer["accepted"] === true ? "confirmed" : "rejected") : undefined;

  return (
    <div className="steps-card" data-testid="select-steps" data-decision={decision ?? "pending"}>
      <div className="steps-header">
        <span className="card-label">Proposed plan</span>
        <span className="steps-count">
          {steps.filter((step) => step.status === "enabled").length} of {steps.length} selected
        </span>
      </div>
      {steps.length === 0 ? (
        <div className="haiku-placeholder">Drafting the plan…</div>
      ) : (
        <ul className="steps-list">
          {steps.map((step, index) => (
            <li key={index} className="step-item" data-testid="step-item" data-status={step.status}>
              <label>
                <input
                  type="checkbox"
                  data-testid="step-checkbox"
                  checked={step.status === "enabled"}
                  disabled={!canRespond}
                  onChange={(event) => setOverrides((current) => ({ ...current, [index]: event.target.checked }))}
                />
                <span className={step.status === "enabled" ? "step-text" : "step-text disabled"} data-testid="step-text">
                  {step.description}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {decision === undefined ? (
        <div className="button-row">
          <button type="button" className="button secondary" data-testid="reject-plan" disabled={!canRespond || steps.length === 0} onClick={() => respond(false)}>
            Reject
          </button>
          <button type="button" className="button primary" data-testid="confirm-plan" disabled={!canRespond || steps.length === 0} onClick={() => respond(true)}>
            Confirm plan
          </button>
        </div>
      ) : (
        <div className={`decision decision-${decision}`} data-testid="plan-decision">
          {decision === "confirmed" ? "✓ Plan confirmed" : "✕ Plan rejected"}
        </div>
      )}
    </div>
  );
}
