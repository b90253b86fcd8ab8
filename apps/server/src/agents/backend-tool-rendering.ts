import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { getWeatherTool } from "../tools/weather-tool.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * backend_tool_rendering: the server runs `get_weather`; its structured result travels in
 * TOOL_CALL_RESULT and the page renders it as a weather card.
 */
export function createBackendToolRenderingAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "backend_tool_rendering", "A weather assistant whose tool results the page renders as cards."),
    systemInstructions:
      "You answer weather questions. Always call get_weather for the place the user names (for a follow-up such as 'and in New York?', the new place). " +
      "The page shows the result as a card, so reply with one short sentence rather than repeating every number.",
    serverTools: [getWeatherTool],
  });
}
