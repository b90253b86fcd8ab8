import type { State } from "@ag-ui/client";
import { taskStepsFrom } from "../features/taskSteps";

/** agentic_generative_ui: `state.steps` rendered live as the agent's STATE_DELTAs flip each status. */
export function TaskProgress({ state, isRunning }: { state: State; isRunning: boolean }) {
  const steps = taskStepsFrom(state);
  const done = steps.filter((step) => step.status === "completed").length;
  return (
    <aside className="side-panel" data-testid="task-progress" data-complete={steps.length > 0 && done === steps.length ? "true" : "false"}>
      <h2 className="side-panel-title">Task progress</h2>
      {steps.length === 0 ? (
        <p className="side-panel-empty">Ask the agent for a task; its steps appear here as it works through them.</p>
      ) : (
        <>
          <div className="progress-summary" data-testid="task-progress-summary">
            {done} of {steps.length} steps done
          </div>
          <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={steps.length} aria-valuenow={done}>
            <div className="progress-fill" style={{ width: `${(done / steps.length) * 100}%` }} />
          </div>
          <ol className="task-steps">
            {steps.map((step, index) => (
              <li key={index} className={`task-step task-step-${step.status}`} data-testid="task-step" data-status={step.status}>
                <span className="task-step-marker" aria-hidden="true">
                  {step.status === "completed" ? "✓" : step.status === "in_progress" || (isRunning && index === done) ? "●" : "○"}
                </span>
                <span>{step.description}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}
