import { EventType, type RunErrorEvent } from "@ag-ui/client";
import type { NormalizedStep } from "@ag-ui-antigravity/harness";

/**
 * An error step on the main trajectory: the model call (or the harness) failed. It ends the run
 * with RUN_ERROR whose code carries the HTTP status (`MODEL_ERROR_429`), and a message that says
 * what the harness said — model API errors hold no secrets of this server.
 */
export class StepFailure extends Error {
  readonly step: NormalizedStep;

  constructor(step: NormalizedStep) {
    super(step.error?.message ?? "The model call failed.");
    this.name = "StepFailure";
    this.step = step;
  }

  runError(): RunErrorEvent {
    const httpCode = this.step.error?.httpCode;
    const code = httpCode === undefined || httpCode === 0 ? "MODEL_ERROR" : `MODEL_ERROR_${httpCode}`;
    const detail = (this.step.error?.message ?? "").slice(0, 500);
    return {
      type: EventType.RUN_ERROR,
      code,
      message: `The model call failed${httpCode ? ` (HTTP ${httpCode})` : ""}${detail.length > 0 ? `: ${detail}` : "."}`,
    };
  }
}
