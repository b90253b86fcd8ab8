import type { AgentCapabilities } from "@ag-ui/client";
import { ACTIVITY_TYPES } from "@ag-ui-antigravity/translator";
import type { AntigravityAgentOptions } from "./agent-options.js";

/** What the agent has learned about its harness, for `/capabilities`. */
export interface HarnessFacts {
  /** The harness release the agent speaks. */
  harnessVersion: string;
  /** Whether the harness could set up its command sandbox (harness 0.1.17+, once a conversation opened). */
  sandbox?: { available: boolean; unavailableReason?: string };
}

/**
 * What the agent can do, derived from its configuration so it never advertises a channel that
 * cannot be reached (no interrupts without questions or approvals, no code execution without
 * run_command), and from what its harness said (the command sandbox).
 */
export function capabilitiesOf(options: AntigravityAgentOptions, facts?: HarnessFacts): AgentCapabilities {
  if (options.capabilities !== undefined) return options.capabilities;
  const builtins = new Set(options.builtinTools ?? []);
  const asksQuestions = builtins.has("ask_question");
  const approvals = options.toolApproval !== undefined && options.toolApproval !== false;
  const structured = options.responseSchema !== undefined;
  const runsCommands = builtins.has("run_command") || builtins.has("run_workflow");
  // Commands run sandboxed only where the harness has a sandbox and it was not turned off.
  const sandboxed = runsCommands && facts?.sandbox?.available === true && options.runCommand?.sandbox !== false;
  return {
    identity: {
      name: options.agentId ?? "antigravity",
      type: "antigravity",
      description: options.description ?? "A Google Antigravity agent",
      provider: "google-antigravity",
    },
    // `connect` replays a run from its start and follows it live; the binding adds Last-Event-ID.
    transport: { streaming: true, resumable: true },
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
    // The harness takes audio and video as media parts in every release (docs/protocol.md, "Messages").
    multimodal: { input: { image: true, pdf: true, audio: true, video: true, file: false } },
    execution: { codeExecution: runsCommands, sandboxed },
    humanInTheLoop: {
      supported: true,
      approvals,
      approveWithEdits: approvals,
      interventions: true,
      interrupts: asksQuestions || approvals,
    },
    custom: {
      antigravity: {
        ...(facts === undefined ? {} : { harnessVersion: facts.harnessVersion }),
        ...(facts?.sandbox === undefined ? {} : { sandbox: facts.sandbox }),
        activityTypes: Object.values(ACTIVITY_TYPES),
      },
    },
  };
}
