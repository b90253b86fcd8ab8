import { validateConversationConfig, type ConversationConfig } from "@ag-ui-antigravity/harness";
import type { AntigravityAgentOptions } from "./agent-options.js";
import { AgentError } from "./errors/agent-error.js";

/**
 * The harness conversation config every thread of the agent shares (model, key, instructions,
 * builtins, hooks, …), built from the agent's options. A thread's session adds its workspace, its
 * tools and the bridge's hooks when it opens its conversation.
 */
export function baseConversationConfig(options: AntigravityAgentOptions): ConversationConfig {
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.thinkingLevel === undefined ? {} : { thinkingLevel: options.thinkingLevel }),
    ...(options.systemInstructions === undefined ? {} : { systemInstructions: options.systemInstructions }),
    ...(options.workspaces === undefined ? {} : { workspaces: options.workspaces }),
    // A chat-safe default: no builtin but finish.
    builtinTools: options.builtinTools ?? [],
    ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
    ...(options.subagents === undefined ? {} : { subagents: options.subagents }),
    ...(options.responseSchema === undefined ? {} : { responseSchema: options.responseSchema }),
    ...(options.policies === undefined ? {} : { policies: options.policies }),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    ...(options.turnTimeoutMs === undefined ? {} : { turnTimeoutMs: options.turnTimeoutMs }),
    ...(options.harnessTimings === undefined ? {} : { timings: options.harnessTimings }),
    ...(options.triggers === undefined ? {} : { triggers: options.triggers }),
    ...harnessFeatureOptionsOf(options),
  };
}

/** The pool partition of the agent's conversations: its save dir and env. */
export function poolPartitionOf(options: AntigravityAgentOptions): { storageDirectory?: string; env?: Record<string, string> } {
  return {
    ...(options.saveDir === undefined ? {} : { storageDirectory: options.saveDir }),
    ...(options.env === undefined ? {} : { env: options.env }),
  };
}

/** The harness client owns the bounds of its waits; checked here so a bad value fails the constructor, not a run. */
export function assertHarnessTimings(timings: NonNullable<AntigravityAgentOptions["harnessTimings"]>): void {
  try {
    validateConversationConfig({ builtinTools: [], timings });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^invalid conversation config: /, "") : String(error);
    throw new AgentError("CONFIG_INVALID", `Invalid agent option harnessTimings: ${detail}`, { cause: error });
  }
}

/** The agent's options for what the harness learned after 0.1.10, as the harness client takes them. */
function harnessFeatureOptionsOf(options: AntigravityAgentOptions): Partial<ConversationConfig> {
  const picked: Partial<ConversationConfig> = {};
  const keys = ["agentBehavior", "budget", "compaction", "skills", "rules", "runCommand", "runWorkflowExecutionMode", "workspaceContainment", "maxSubagentDepth", "allowedSubagents"] as const;
  for (const key of keys) if (options[key] !== undefined) Object.assign(picked, { [key]: options[key] });
  return picked;
}
