import type { CustomTool } from "@ag-ui-antigravity/harness";
import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/**
 * What the dojo's plan confirmation answers to `generate_task_steps` (the frontend tool of
 * human_in_the_loop): `{ accepted, steps: [{ description, status: "enabled" | "disabled" }] }`.
 */
export interface PlanDecision {
  accepted: boolean;
  steps: { description: string; status: string }[];
}

/** The client's answer to generate_task_steps is not a plan decision. */
export class PlanDecisionError extends CodedError<"INVALID_PLAN_DECISION"> {
  static {
    nameErrorClass(this, "PlanDecisionError");
  }

  constructor(message: string) {
    super("INVALID_PLAN_DECISION", message);
  }
}

export function parsePlanDecision(text: string): PlanDecision {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PlanDecisionError("The plan is not the JSON answer of generate_task_steps.");
  }
  const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (typeof record["accepted"] !== "boolean" || !Array.isArray(record["steps"])) {
    throw new PlanDecisionError("The plan answer must be { accepted: boolean, steps: [...] }.");
  }
  const steps = record["steps"].flatMap((step: unknown) => {
    if (typeof step !== "object" || step === null) return [];
    const { description, status } = step as Record<string, unknown>;
    return typeof description === "string" ? [{ description, status: typeof status === "string" ? status : "enabled" }] : [];
  });
  return { accepted: record["accepted"], steps };
}

/** What carrying out a confirmed plan amounts to, in words the model (or the emulator) repeats to the user. */
export function executePlan(decision: PlanDecision): string {
  if (!decision.accepted) return "The user rejected the plan, so nothing was done.";
  const enabled = decision.steps.filter((step) => step.status === "enabled").map((step) => step.description);
  if (enabled.length === 0) return "The user confirmed the plan but switched every step off, so nothing was done.";
  const skipped = decision.steps.length - enabled.length;
  return `Executing ${enabled.length} step${enabled.length === 1 ? "" : "s"}: ${enabled.join("; ")}.${skipped > 0 ? ` Skipped ${skipped} step${skipped === 1 ? "" : "s"} the user switched off.` : ""}`;
}

/**
 * `execute_plan`: carries out the steps the user kept enabled. It takes the answer of
 * `generate_task_steps` verbatim, so the model never has to re-derive which steps survived.
 */
export const executePlanTool: CustomTool = {
  name: "execute_plan",
  description:
    "Carry out a plan the user has answered. Pass the JSON answer you received from generate_task_steps verbatim as `plan`; " +
    "only the steps the user left enabled are executed, and a rejected plan is not executed at all.",
  parameters: {
    type: "object",
    properties: { plan: { type: "string", description: "The JSON answer of generate_task_steps, unchanged." } },
    required: ["plan"],
  },
  handler: (args) => executePlan(parsePlanDecision(typeof args["plan"] === "string" ? args["plan"] : "")),
};
