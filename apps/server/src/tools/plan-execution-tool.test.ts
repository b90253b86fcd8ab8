import { describe, expect, it } from "vitest";
import { executePlan, parsePlanDecision, PlanDecisionError } from "./plan-execution-tool.js";

describe("execute_plan", () => {
  it("executes the enabled steps and reports the skipped ones", () => {
    const decision = parsePlanDecision(
      JSON.stringify({ accepted: true, steps: [{ description: "A", status: "enabled" }, { description: "B", status: "disabled" }, { description: "C", status: "enabled" }] }),
    );
    expect(executePlan(decision)).toBe("Executing 2 steps: A; C. Skipped 1 step the user switched off.");
  });

  it("does nothing for a rejected plan or one with every step off", () => {
    expect(executePlan({ accepted: false, steps: [{ description: "A", status: "enabled" }] })).toBe("The user rejected the plan, so nothing was done.");
    expect(executePlan({ accepted: true, steps: [{ description: "A", status: "disabled" }] })).toContain("nothing was done");
  });

  it("refuses answers that are not generate_task_steps answers", () => {
    expect(() => parsePlanDecision("not json")).toThrow(PlanDecisionError);
    expect(() => parsePlanDecision(JSON.stringify({ steps: [] }))).toThrow(PlanDecisionError);
  });
});
