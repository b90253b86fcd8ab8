import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createTaskProgressTool } from "../tools/task-progress-tool.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * agentic_generative_ui: `run_task` works through a plan and writes `state.steps` after every step,
 * so the page's progress panel fills in from a STATE_SNAPSHOT and then one STATE_DELTA per step.
 */
export function createAgenticGenerativeUiAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "agentic_generative_ui", "An agent that carries out tasks step by step, with live progress."),
    systemInstructions:
      "You carry out tasks for the user. For any task, break it into 3 to 6 short steps and call run_task once with them; " +
      "the user watches the progress. Then summarise the result in one or two sentences.",
    serverTools: [createTaskProgressTool({ stepDelayMs: environment.taskStepDelayMs })],
  });
}
