import type { AgentCapabilities } from "@ag-ui/client";
import type { AntigravityAgentOptions } from "./agent-options.js";

/**
 * What the agent can do, derived from its configuration so it never advertises a channel that
 * cannot be reached (no interrupts without questions or approvals, no code execution without
 * run_command).
 */
export function capabilitiesOf(options: AntigravityAgentOptions): AgentCapabilities {
  if (options.capabilities !== undefined) return options.capabilities;
  const builtins = new Set(options.builtinTools ?? []);
  const asksQuestions = builtins.has("ask_question");
  const approvals = options.toolApproval !== undefined && options.toolApproval !== false;
  const structured = options.responseSchema !== undefined;
  return {
    identity: {
      name: options.agentId ?? "antigravity",
      type: "antigravity",
      description: options.description ?? "A Google Antigravity agent",
      provider: "google-antigravity",
    },
    transport: { streaming: true },
    tools: {
      supported: true,
      parallelCalls: true,
      clientProvided: true,
      items: (options.serverTools ?? []).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    },
    output: { structuredOutput: structured },
    state: {
      snapshots: true,
      deltas: true,
      persistentState: true,
    },
    multiAgent: {
      supported: (options.subagents ?? []).length > 0,
      delegation: (options.subagents ?? []).length > 0,
      subagents: (options.subagents ?? []).map((subagent) => ({ name: subagent.name, description: subagent.description })),
    },
    reasoning: { supported: true, streaming: true },
    multimodal: { input: { image: true, pdf: true, audio: false, video: false, file: false } },
    execution: { codeExecution: builtins.has("run_command"), sandboxed: false },
    humanInTheLoop: {
      supported: true,
      approvals,
      approveWithEdits: approvals,
      interventions: true,
      interrupts: asksQuestions || approvals,
    },
  };
}
