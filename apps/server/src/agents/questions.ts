import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { planWeekendTool } from "../tools/weekend-budget-tool.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * questions: the harness's `ask_question` builtin becomes an `input_required` interrupt whose
 * metadata lists the choices; `plan_weekend` raises one with a form-like responseSchema instead.
 * Either way the run parks until the next run's `resume` answers.
 */
export function createQuestionsAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "questions", "An assistant that stops to ask the user to choose before it answers."),
    systemInstructions:
      "Before recommending anything, ask the user to choose with ask_question (two to five short choices). " +
      "For weekend plans, call plan_weekend first to get the user's budget. Keep answers short.",
    builtinTools: ["ask_question"],
    serverTools: [planWeekendTool],
  });
}
