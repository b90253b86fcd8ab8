import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { readRecipeTool, updateRecipeTool } from "../tools/recipe-tools.js";
import { modelSeesStateSummary, sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * shared_state: `{ recipe }` is edited by both sides. The page's edits arrive as the run's state
 * (and, with Gemini, in a summary in front of each message); the agent reads them with
 * `read_recipe` and writes with `update_recipe`, whose writes stream back as state events.
 */
export function createSharedStateAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "shared_state", "A cooking assistant that edits the recipe shown in the page, together with the user."),
    systemInstructions:
      "You help the user improve the recipe shown in the page. The user edits it too, so call read_recipe before answering questions about it. " +
      "Change it only with update_recipe (prefer add_ingredients / add_instructions, which keep the user's edits), then say briefly what you changed. " +
      "Respect the dietary preferences in the recipe.",
    serverTools: [readRecipeTool, updateRecipeTool],
    hitl: { turnSummary: modelSeesStateSummary(environment) },
  });
}
