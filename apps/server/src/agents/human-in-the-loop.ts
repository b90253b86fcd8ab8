import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { executePlanTool } from "../tools/plan-execution-tool.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * human_in_the_loop: the page declares `generate_task_steps`, a frontend tool that shows the
 * proposed steps and waits for the user to switch some off and confirm (or reject). The run ends
 * with the call open; the user's answer comes back as a ToolMessage, and the parked turn goes on
 * to `execute_plan`.
 */
export function createHumanInTheLoopAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "human_in_the_loop", "A planner that asks the user to confirm its plan before carrying it out."),
    systemInstructions:
      "You plan tasks with the user. When asked to plan or do something, call generate_task_steps with 3 to 8 short steps, all with status 'enabled'. " +
      "The user answers with JSON { accepted, steps }. Then call execute_plan with that answer verbatim, and tell the user in one or two sentences what was done. " +
      "Never execute a step the user disabled, and nothing at all when the plan was rejected.",
    serverTools: [executePlanTool],
  });
}
