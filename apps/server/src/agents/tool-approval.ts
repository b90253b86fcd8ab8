import { join } from "node:path";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createWriteFileTool } from "../tools/write-file-tool.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/**
 * tool_approval: `write_file` really writes (into a per-conversation sandbox), so every call first
 * raises an approval interrupt (`reason: "tool_call"`, bound to the call's `toolCallId`). The run
 * ends with it; the next run's `resume` approves, denies with a reason, or approves edited arguments.
 */
export function createToolApprovalAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "tool_approval", "An assistant that writes files, only with the user's approval."),
    systemInstructions:
      "You write text files for the user with write_file. The user approves every call and may edit its arguments or deny it with a reason. " +
      "After the tool answers, say what happened: the file written (path and size), or that the user denied it and why.",
    serverTools: [createWriteFileTool({ sandboxRoot: join(environment.sandboxRoot, "tool_approval") })],
    toolApproval: true,
  });
}
