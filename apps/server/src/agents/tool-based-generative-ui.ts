import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * tool_based_generative_ui: the page declares `generate_haiku({ japanese[3], english[3] })` and
 * renders its arguments as a haiku card; the page answers the call itself ("Haiku generated!").
 */
export function createToolBasedGenerativeUiAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "tool_based_generative_ui", "A poet that shows its haiku through the page's generate_haiku tool."),
    systemInstructions:
      "You write haiku. For every haiku request, call generate_haiku exactly once with three lines in Japanese and their three-line English translation; " +
      "do not write the haiku in your reply. After the tool answers, say one short sentence.",
  });
}
