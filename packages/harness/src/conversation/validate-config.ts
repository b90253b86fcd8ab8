import { HarnessError } from "../errors/harness-error.js";
import type { HarnessDialect } from "../protocol/dialect.js";
import type { HarnessConfig } from "../protocol/messages.js";
import { DEFAULT_BUILTIN_TOOLS, WRITE_CAPABLE_BUILTIN_TOOLS } from "./builtin-tools.js";
import { conversationConfigSchema, type ConversationConfig, type ResolvedConversationConfig } from "./conversation-config.js";

/**
 * Validates a conversation config and applies the safety gate: a write-capable builtin or an MCP
 * server needs a policy or a pre-tool hook, because otherwise the model could change the machine
 * with nobody able to say no. Throws CONFIG_INVALID naming the offending field.
 */
export function validateConversationConfig(config: ConversationConfig): ResolvedConversationConfig {
  const result = conversationConfigSchema.safeParse(config);
  if (!result.success) {
    const details = result.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(config)"}: ${issue.message}`);
    throw new HarnessError("CONFIG_INVALID", `invalid conversation config: ${details.join("; ")}`, { cause: result.error });
  }
  const resolved = result.data;
  const gated = resolved.policies.length > 0 || resolved.hooks.preTool !== undefined;
  if (!gated) {
    const builtins = resolved.builtinTools ?? DEFAULT_BUILTIN_TOOLS;
    const writeCapable = builtins.filter((name) => WRITE_CAPABLE_BUILTIN_TOOLS.includes(name));
    if (writeCapable.length > 0) {
      throw new HarnessError(
        "CONFIG_INVALID",
        `invalid conversation config: builtinTools: ${writeCapable.join(", ")} can change the machine; add policies or a hooks.preTool to gate them`,
      );
    }
    if (resolved.mcpServers.length > 0) {
      throw new HarnessError(
        "CONFIG_INVALID",
        "invalid conversation config: mcpServers: MCP tools run unchecked; add policies or a hooks.preTool to gate them",
      );
    }
  }
  return resolved;
}

/** Wire paths of HarnessConfig and the conversation option that writes each, for errors a user can act on. */
const OPTION_OF_WIRE_PATH: readonly (readonly [RegExp, string])[] = [
  [/^config\.agentBehavior/, "agentBehavior"],
  [/^config\.budgetConfig\.scope/, "budget.scope"],
  [/^config\.budgetConfig/, "budget"],
  [/^config\.compactionConfig\.summaryPromptOverride/, "compaction.summaryPrompt"],
  [/^config\.compactionConfig/, "compaction"],
  [/^config\.skillsConfig\.skills\[\d+\]\.skill/, "skills.inline"],
  [/^config\.skillsConfig/, "skills"],
  [/^config\.rulesConfig/, "rules"],
  [/^config\.harnessSideTools\.runCommand\.maxTimeoutMs/, "runCommand.maxTimeoutMs"],
  [/^config\.harnessSideTools\.runCommand\.enableDaemonCommands/, "runCommand.daemons"],
  [/^config\.harnessSideTools\.runCommand\.enableSandbox/, "runCommand.sandbox"],
  [/^config\.harnessSideTools\.runCommand\.executionMode/, "runCommand.executionMode"],
  [/^config\.harnessSideTools\.subagents\.maxNestingDepth/, "maxSubagentDepth"],
  [/^config\.harnessSideTools\.subagents\.allowedSubagents/, "allowedSubagents"],
  [/^config\.harnessSideTools\.manageTask/, "builtinTools: manage_task"],
  [/^config\.harnessSideTools\.schedule/, "builtinTools: schedule"],
  [/^config\.harnessSideTools\.runWorkflow\.executionMode/, "runWorkflowExecutionMode"],
  [/^config\.harnessSideTools\.runWorkflow/, "builtinTools: run_workflow"],
  [/^config\.policyConfig\.workspaceContainment/, "workspaceContainment"],
  [/^config\.policyConfig\.autoConfig/, "autoPolicy"],
  [/^config\.policyConfig/, "sendPoliciesToHarness"],
  [/^config\.customSubagents\[(\d+)\]\.model/, "subagents[$1].model"],
  [/^config\.models\[\d+\]\.vertexEndpoint\.apiKey/, "endpoint.apiKey"],
  [/^config\.models\[\d+\]\.\w+\.options\.serviceTier/, "serviceTier"],
];

const OPTION_OF_HOOK: Readonly<Record<string, string>> = {
  LIFECYCLE_HOOK_ON_COMPACTION: "hooks.onCompaction",
  LIFECYCLE_HOOK_STOP: "hooks.stop",
};

/**
 * Refuses, before anything is sent, an init the harness's release would not parse: an option that
 * release lacks (CONFIG_INVALID naming the option and the first release that has it). The harness
 * itself would refuse the whole init and exit (docs/protocol.md, "Versions").
 */
export async function checkHarnessConfig(config: HarnessConfig, dialect: HarnessDialect): Promise<void> {
  // Loaded with the first conversation, like the frame parser: it brings every message schema.
  const { checkWireMessage } = await import("../protocol/strict-check.js");
  const issues = checkWireMessage("InitializeConversationEvent", { config }, dialect.version);
  if (issues.length === 0) return;
  const details = issues.map((issue) => {
    const wirePath = issue.path.replace(/^InitializeConversationEvent\./, "");
    const hookOption = issue.kind === "enum-value" && issue.value !== undefined ? OPTION_OF_HOOK[issue.value] : undefined;
    const option = hookOption ?? optionOf(wirePath);
    const needs =
      issue.introducedIn !== undefined
        ? `needs harness ${issue.introducedIn} or newer`
        : issue.removedIn !== undefined
          ? `is not in harness ${issue.removedIn} or newer`
          : "is not in any harness release";
    return `${option} ${needs}; this harness speaks ${dialect.version} (${issue.message})`;
  });
  throw new HarnessError("CONFIG_INVALID", `invalid conversation config: ${details.join("; ")}`);
}

function optionOf(wirePath: string): string {
  for (const [pattern, option] of OPTION_OF_WIRE_PATH) {
    const match = pattern.exec(wirePath);
    if (match !== null) return match[0].replace(pattern, option);
  }
  return wirePath;
}
