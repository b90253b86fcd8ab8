import { setTimeout as delay } from "node:timers/promises";
import type { CustomTool } from "@ag-ui-antigravity/harness";
import { getState, setState } from "@ag-ui-antigravity/hitl";

/** One step of the agentic_generative_ui task, as the page renders it from `state.steps`. */
export interface TaskStep {
  description: string;
  status: "pending" | "completed";
}

export interface TaskProgressToolOptions {
  /** How long each step "works" before it completes; the page shows progress in between. */
  stepDelayMs: number;
}


/**
 * `run_task`: the model hands over a plan, and the tool works through it, writing the progress to
 * the shared state after every step. The first write of a run reaches the client as a
 * STATE_SNAPSHOT (every step pending), each later one as a STATE_DELTA flipping one status.
 */
export function createTaskProgressTool(options: TaskProgressToolOptions): CustomTool {
  return {
    name: "run_task",
    description:
      "Carry out a task as a list of short steps (2 to 8). The user watches each step go from pending to completed; " +
      "call it once with the whole plan, then summarise what was done.",
    parameters: {
      type: "object",
      properties: {
        steps: { type: "array", items: { type: "string", description: "A step, in a few words." }, minItems: 2, maxItems: 8 },
      },
      required: ["steps"],
    },
    handler: async (args, context) => {
      const descriptions = (Array.isArray(args["steps"]) ? args["steps"] : []).filter((step): step is string => typeof step === "string" && step.trim() !== "").slice(0, 8);
      if (descriptions.length === 0) throw new Error("run_task needs at least one step.");
      const current = getState();
      const base = typeof current === "object" && current !== null && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
      const steps: TaskStep[] = descriptions.map((description) => ({ description, status: "pending" }));
      setState({ ...base, steps });
      for (const step of steps) {
        await delay(options.stepDelayMs, undefined, { signal: context.signal });
        step.status = "completed";
        setState({ ...base, steps });
      }
      return `Completed ${steps.length} steps: ${descriptions.join("; ")}.`;
    },
  };
}
