import type { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAgenticChatAgent } from "./agentic-chat.js";
import { createAgenticGenerativeUiAgent } from "./agentic-generative-ui.js";
import { createAutonomousWorkAgent } from "./autonomous-work.js";
import { createBackendToolRenderingAgent } from "./backend-tool-rendering.js";
import type { DemoAgentEnvironment, DemoFeature } from "./demo-agent-environment.js";
import { createHumanInTheLoopAgent } from "./human-in-the-loop.js";
import { createQuestionsAgent } from "./questions.js";
import { createReconnectAgent } from "./reconnect.js";
import { createSharedStateAgent } from "./shared-state.js";
import { createToolApprovalAgent } from "./tool-approval.js";
import { createToolBasedGenerativeUiAgent } from "./tool-based-generative-ui.js";

const factories: Record<DemoFeature, (environment: DemoAgentEnvironment) => AntigravityAgent> = {
  agentic_chat: createAgenticChatAgent,
  backend_tool_rendering: createBackendToolRenderingAgent,
  human_in_the_loop: createHumanInTheLoopAgent,
  tool_based_generative_ui: createToolBasedGenerativeUiAgent,
  shared_state: createSharedStateAgent,
  agentic_generative_ui: createAgenticGenerativeUiAgent,
  tool_approval: createToolApprovalAgent,
  questions: createQuestionsAgent,
  reconnect: createReconnectAgent,
  autonomous_work: createAutonomousWorkAgent,
};

/** One agent per dojo feature; the feature name is the agent's route. */
export function createDemoAgents(environment: DemoAgentEnvironment): Record<DemoFeature, AntigravityAgent> {
  return Object.fromEntries(Object.entries(factories).map(([feature, create]) => [feature, create(environment)])) as Record<DemoFeature, AntigravityAgent>;
}
