import { isRecord } from "../agent/json";

/** One step of a plan: used by human_in_the_loop's tool arguments and agentic_generative_ui's state. */
export interface TaskStep {
  description: string;
  status: string;
}

export function taskStepsFrom(value: unknown): TaskStep[] {
  const steps = isRecord(value) ? value["steps"] : undefined;
  if (!Array.isArray(steps)) return [];
  return steps.filter(isRecord).map((step) => ({
    description: typeof step["description"] === "string" ? step["description"] : "",
    status: typeof step["status"] === "string" ? step["status"] : "pending",
  }));
}
