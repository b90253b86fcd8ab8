import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { getWeatherTool } from "../tools/weather-tool.js";
import { modelSeesStateSummary, sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * agentic_chat: streamed chat with reasoning, a server-side `get_weather` tool, and the page's own
 * `change_background` tool (declared by the dojo in every run's `tools`; the run ends with the call
 * open and the page answers it with a ToolMessage in the next run). What the page shares as
 * `RunAgentInput.context` (the user's name, say) reaches Gemini in the turn summary.
 */
export function createAgenticChatAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "agentic_chat", "A friendly assistant that can check the weather and change the page's background."),
    systemInstructions:
      "You are a friendly, concise assistant in a demo chat. Use get_weather for any weather question. " +
      "When the user asks to change the background, call change_background with a CSS background value (a colour or a gradient). " +
      "Remember what the user told you earlier in the conversation.",
    serverTools: [getWeatherTool],
    hitl: { turnSummary: modelSeesStateSummary(environment) },
  });
}
