import type { CustomTool } from "@ag-ui-antigravity/harness";
import { interrupt } from "@ag-ui-antigravity/hitl";

/**
 * The answer form of `plan_weekend`'s interrupt. It carries no choices, so the dojo builds a form
 * from this schema (number, currency choice, checkbox); the bridge validates the answer against it.
 */
export const weekendBudgetSchema = {
  type: "object",
  properties: {
    budget: { type: "number", minimum: 0, title: "Budget", description: "Roughly how much you want to spend." },
    currency: { type: "string", enum: ["EUR", "USD", "GBP"], title: "Currency" },
    outdoors: { type: "boolean", title: "Outdoor activities" },
  },
  required: ["budget", "currency"],
};

interface WeekendBudget {
  budget: number;
  currency: string;
  outdoors?: boolean;
}

/**
 * `plan_weekend`: a server tool that stops to ask the user for structured input (an
 * `input_required` interrupt with a responseSchema) and resumes with their answer, across runs.
 */
export const planWeekendTool: CustomTool = {
  name: "plan_weekend",
  description: "Ask the user for their weekend budget (a form in the page) and return it, so you can suggest a plan that fits. Call it before suggesting weekend plans.",
  parameters: { type: "object", properties: {} },
  handler: async (_args, context) => {
    const answer = await interrupt(
      "input_required",
      { message: "What budget do you have for the weekend?", responseSchema: weekendBudgetSchema },
      { signal: context.signal },
    );
    if (answer.status !== "resolved") return "The user did not give a budget; offer to plan later.";
    const budget = answer.payload as WeekendBudget;
    return `Planning a weekend for ${budget.budget} ${budget.currency}${budget.outdoors === true ? " outdoors" : ""}.`;
  },
};
