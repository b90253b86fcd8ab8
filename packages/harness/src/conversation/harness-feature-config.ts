import type { HarnessDialect } from "../protocol/dialect.js";
import type { HarnessConfig, SkillsConfig } from "../protocol/messages.js";
import type { ResolvedConversationConfig } from "./conversation-config.js";

/*
 * Writes the options of harness releases after 0.1.10 (`harness-feature-options.ts`) into a
 * HarnessConfig. Each is written as asked, whatever the release: `checkHarnessConfig` then refuses
 * what the release lacks, naming the option, before anything is sent.
 */

const EXECUTION_MODE = { sync: "TOOL_EXECUTION_MODE_SYNC", async: "TOOL_EXECUTION_MODE_ASYNC" } as const;
const BEHAVIOR = { autonomous: "AGENT_BEHAVIOR_AUTONOMOUS", interactive: "AGENT_BEHAVIOR_INTERACTIVE", minimal: "AGENT_BEHAVIOR_MINIMAL" } as const;

/** Adds the post-0.1.10 options of `config` to `harnessConfig` (which `buildHarnessConfig` made). */
export function applyFeatureOptions(harnessConfig: HarnessConfig, config: ResolvedConversationConfig, dialect: HarnessDialect): void {
  const behavior = agentBehaviorOf(config, dialect);
  if (behavior !== undefined) harnessConfig.agentBehavior = BEHAVIOR[behavior];
  if (config.budget !== undefined) {
    const budget = config.budget;
    harnessConfig.budgetConfig = {
      ...(budget.maxModelCalls === undefined ? {} : { maxModelCalls: budget.maxModelCalls }),
      ...(budget.maxToolCalls === undefined ? {} : { maxToolCalls: budget.maxToolCalls }),
      // int64 travels as a decimal string.
      ...(budget.maxInputTokens === undefined ? {} : { maxInputTokens: String(budget.maxInputTokens) }),
      ...(budget.maxOutputTokens === undefined ? {} : { maxOutputTokens: String(budget.maxOutputTokens) }),
      ...(budget.maxTotalTokens === undefined ? {} : { maxTotalTokens: String(budget.maxTotalTokens) }),
      ...(budget.scope === undefined ? {} : { scope: budget.scope === "lifetime" ? "BUDGET_SCOPE_LIFETIME" : "BUDGET_SCOPE_FORWARD_LOOKING" }),
    };
  }
  if (config.compaction !== undefined) {
    const compaction = config.compaction;
    harnessConfig.compactionConfig = {
      ...(compaction.tokenThreshold === undefined ? {} : { tokenThreshold: compaction.tokenThreshold }),
      ...(compaction.checkpointIntervalTokens === undefined ? {} : { checkpointIntervalTokens: compaction.checkpointIntervalTokens }),
      ...(compaction.maxContextTokens === undefined ? {} : { maxContextTokens: compaction.maxContextTokens }),
      ...(compaction.summaryPrompt === undefined ? {} : { summaryPromptOverride: compaction.summaryPrompt }),
    };
  }
  if (config.skills !== undefined) harnessConfig.skillsConfig = skillsConfigOf(config.skills);
  if (config.rules !== undefined) harnessConfig.rulesConfig = { filenames: config.rules };
  if (config.workspaceContainment !== undefined || config.autoPolicy !== undefined) {
    harnessConfig.policyConfig = {
      ...harnessConfig.policyConfig,
      ...(config.workspaceContainment === undefined
        ? {}
        : { workspaceContainment: config.workspaceContainment ? "WORKSPACE_CONTAINMENT_ENABLED" : "WORKSPACE_CONTAINMENT_DISABLED" }),
      ...(config.autoPolicy === undefined ? {} : { autoConfig: { enabled: true, ...(config.autoPolicy.model === undefined ? {} : { model: config.autoPolicy.model }) } }),
    };
  }
  applySideToolOptions(harnessConfig, config);
}

/** Explicit behaviour, else interactive when the client answers questions or approvals (0.1.11+ only: 0.1.10 has no such field). */
function agentBehaviorOf(config: ResolvedConversationConfig, dialect: HarnessDialect): keyof typeof BEHAVIOR | undefined {
  if (config.agentBehavior !== undefined) return config.agentBehavior;
  const answers = config.hooks.onQuestions !== undefined || config.hooks.onConfirmation !== undefined;
  return answers && dialect.isAtLeast("0.1.11") ? "interactive" : undefined;
}

function skillsConfigOf(skills: NonNullable<ResolvedConversationConfig["skills"]>): SkillsConfig {
  return {
    ...(skills.enabled === undefined ? {} : { enabled: skills.enabled }),
    skills: [
      ...(skills.directories ?? []).map((directoryPath) => ({ directoryPath })),
      ...(skills.inline ?? []).map((skill) => ({
        skill: {
          name: skill.name,
          description: skill.description,
          content: skill.content,
          ...(skill.allowedTools === undefined ? {} : { allowedTools: skill.allowedTools }),
          ...(skill.metadata === undefined ? {} : { metadata: skill.metadata }),
        },
      })),
    ],
  };
}

/** The run_command limits, the run_workflow mode and the subagent nesting settings, beside their toggles. */
function applySideToolOptions(harnessConfig: HarnessConfig, config: ResolvedConversationConfig): void {
  const tools = (harnessConfig.harnessSideTools ??= {});
  const runCommand = config.runCommand;
  if (runCommand !== undefined) {
    tools.runCommand = {
      ...tools.runCommand,
      ...(runCommand.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: runCommand.maxTimeoutMs }),
      ...(runCommand.daemons === undefined ? {} : { enableDaemonCommands: runCommand.daemons }),
      ...(runCommand.sandbox === undefined ? {} : { enableSandbox: runCommand.sandbox }),
      ...(runCommand.executionMode === undefined ? {} : { executionMode: EXECUTION_MODE[runCommand.executionMode] }),
    };
  }
  if (config.runWorkflowExecutionMode !== undefined) {
    tools.runWorkflow = { ...tools.runWorkflow, executionMode: EXECUTION_MODE[config.runWorkflowExecutionMode] };
  }
  if (config.maxSubagentDepth !== undefined || config.allowedSubagents !== undefined) {
    tools.subagents = {
      ...tools.subagents,
      ...(config.maxSubagentDepth === undefined ? {} : { maxNestingDepth: config.maxSubagentDepth }),
      ...(config.allowedSubagents === undefined ? {} : { allowedSubagents: config.allowedSubagents }),
    };
  }
}
