import { z } from "zod/v4";
import {
  AGENT_BEHAVIOR_VALUES,
  AGENT_MODE_VALUES,
  AUTH_PROVIDER_TYPE_VALUES,
  BUDGET_SCOPE_VALUES,
  LIFECYCLE_HOOK_VALUES,
  MODEL_TYPE_VALUES,
  POLICY_DECISION_VALUES,
  SESSION_CONTINUATION_MODE_VALUES,
  TOOL_EXECUTION_MODE_VALUES,
  WORKSPACE_CONTAINMENT_VALUES,
} from "../enums.js";
import { inReleases, since, until } from "../versioned.js";
import { bytesField, doubleField, enumField, int32Field, int64Field } from "../wire-types.js";
import { markerMessage, message, stringMap } from "./common.js";

/*
 * HarnessConfig, the `config` of the first frame, and its parts. A field that did not exist in every
 * release says when it came (`since`) or went (`until`); docs/protocol.md ("Versions") has the table.
 */

/** Builtin toggles whose message is `{enabled}` alone. */
const enabledToolConfig = () => message({ enabled: z.boolean() });

export const GeminiModelOptionsSchema = message({ thinkingLevel: z.string(), serviceTier: since("0.1.10", z.string()) });
export const GeminiApiEndpointSchema = message({
  baseUrl: z.string(),
  httpHeaders: stringMap,
  apiKey: z.string(),
  options: GeminiModelOptionsSchema,
});
export const VertexEndpointSchema = message({
  baseUrl: z.string(),
  httpHeaders: stringMap,
  project: z.string(),
  location: z.string(),
  options: GeminiModelOptionsSchema,
  /** Vertex AI Express mode. */
  apiKey: since("0.1.11", z.string()),
});
export const GemmaEndpointSchema = message({ baseUrl: z.string() });
export const CustomEndpointSchema = message({ backendType: z.string(), configJson: z.string() });
export const ModelConfigSchema = message(
  {
    name: z.string(),
    types: z.array(enumField(MODEL_TYPE_VALUES)),
    geminiApiEndpoint: GeminiApiEndpointSchema,
    vertexEndpoint: VertexEndpointSchema,
    gemmaEndpoint: GemmaEndpointSchema,
    customEndpoint: CustomEndpointSchema,
  },
  { oneofs: [["geminiApiEndpoint", "vertexEndpoint", "gemmaEndpoint", "customEndpoint"]] },
);

/** Until 0.1.18 nested in CustomSystemInstructions, with `templateName`; from 0.1.18 top level, with `name`. */
export const SystemInstructionTemplateSchema = message({
  templateName: until("0.1.18", z.string()),
  name: since("0.1.18", z.string()),
  args: z.array(message({ name: z.string(), value: z.string() })),
});
export const CustomSystemInstructionsSchema = message({
  part: z.array(
    message(
      { text: z.string(), template: SystemInstructionTemplateSchema, builtinSection: since("0.1.18", z.string()) },
      { oneofs: [["text", "template", "builtinSection"]] },
    ),
  ),
});
export const AppendedSystemInstructionsSchema = message({
  customIdentity: z.string(),
  appendedSections: z.array(message({ title: z.string(), content: z.string() })),
});
export const TemplateOverrideSchema = message({
  title: z.string(),
  text: z.string(),
  remove: z.boolean(),
  siTemplate: z.array(SystemInstructionTemplateSchema),
});
export const SystemInstructionsSchema = message(
  {
    custom: CustomSystemInstructionsSchema,
    appended: AppendedSystemInstructionsSchema,
    overrides: since("0.1.21", z.array(TemplateOverrideSchema)),
  },
  { oneofs: [["custom", "appended"]] },
);

export const ToolSchema = message({
  name: z.string(),
  description: z.string(),
  parametersJsonSchema: z.string(),
  responseJsonSchema: z.string(),
  deferLoading: z.boolean(),
});

export const RunCommandToolConfigSchema = message({
  enabled: z.boolean(),
  maxTimeoutMs: since("0.1.12", int32Field),
  enableDaemonCommands: since("0.1.13", z.boolean()),
  enableSandbox: since("0.1.16", z.boolean()),
  executionMode: since("0.1.17", enumField(TOOL_EXECUTION_MODE_VALUES)),
});
export const SubagentsConfigSchema = message({
  enabled: z.boolean(),
  /** The harness's default is 1: a subagent cannot start subagents of its own. */
  maxNestingDepth: since("0.1.11", int32Field),
  allowedSubagents: since("0.1.11", z.array(z.string())),
});
export const RunWorkflowToolConfigSchema = message({ enabled: z.boolean(), executionMode: enumField(TOOL_EXECUTION_MODE_VALUES) });

export const HarnessSideToolsSchema = message({
  find: enabledToolConfig(),
  runCommand: RunCommandToolConfigSchema,
  subagents: SubagentsConfigSchema,
  userQuestions: enabledToolConfig(),
  fileEdit: enabledToolConfig(),
  viewFile: enabledToolConfig(),
  writeToFile: enabledToolConfig(),
  grepSearch: enabledToolConfig(),
  listDir: enabledToolConfig(),
  permissions: message({ enforceWorkspaceValidation: z.boolean() }),
  generateImage: enabledToolConfig(),
  searchWeb: enabledToolConfig(),
  readUrlContent: enabledToolConfig(),
  toolSearchConfig: enabledToolConfig(),
  manageTask: since("0.1.14", enabledToolConfig()),
  schedule: since("0.1.14", enabledToolConfig()),
  runWorkflow: since("0.1.21", RunWorkflowToolConfigSchema),
});

export const WorkspaceSchema = message({ filesystemWorkspace: message({ directory: z.string() }) }, { oneofs: [["filesystemWorkspace"]] });

export const McpServerConfigSchema = message(
  {
    name: z.string(),
    stdio: message({ command: z.string(), args: z.array(z.string()), env: stringMap }),
    http: message({ url: z.string(), headers: stringMap }),
    enabledTools: z.array(z.string()),
    disabledTools: z.array(z.string()),
    authProviderType: enumField(AUTH_PROVIDER_TYPE_VALUES),
    timeoutSeconds: int32Field,
    forceAllToolsEager: since("0.1.21", z.boolean()),
  },
  { oneofs: [["stdio", "http"]] },
);

/** genai.skills.Skill: a skill given inline rather than as a directory (0.1.21). */
const SkillFileSchema = message({ mimeType: z.string(), text: z.string(), data: bytesField }, { oneofs: [["text", "data"]] });
export const InlineSkillSchema = message(
  {
    name: z.string(),
    skillId: z.string(),
    description: z.string(),
    content: z.string(),
    allowedTools: z.array(z.string()),
    metadata: stringMap,
    inlineResources: message({ resources: z.record(z.string(), SkillFileSchema) }),
    zippedResources: SkillFileSchema,
  },
  { oneofs: [["inlineResources", "zippedResources"]] },
);
export const SkillSourceSchema = message(
  { skill: since("0.1.21", InlineSkillSchema), directoryPath: z.string() },
  { oneofs: [["skill", "directoryPath"]] },
);
/** `enabled` defaults to true when the message is sent without it. */
export const SkillsConfigSchema = message({ enabled: z.boolean(), skills: z.array(SkillSourceSchema) });

export const SubagentSkillsConfigSchema = message(
  {
    inheritConfig: message({ extraSkillsPaths: z.array(z.string()), skillNames: since("0.1.16", z.array(z.string())) }),
    noneConfig: markerMessage(),
    overrideConfig: message({ skillsPaths: z.array(z.string()), skillSources: since("0.1.21", z.array(SkillSourceSchema)) }),
  },
  { oneofs: [["inheritConfig", "noneConfig", "overrideConfig"]] },
);

export const CustomAgentSchema = message({
  name: z.string(),
  description: z.string(),
  systemInstructions: SystemInstructionsSchema,
  harnessSideTools: HarnessSideToolsSchema,
  tools: z.array(ToolSchema),
  skillsConfig: since("0.1.10", SubagentSkillsConfigSchema),
  agentMode: inReleasesOf010(enumField(AGENT_MODE_VALUES)),
  agentBehavior: since("0.1.11", enumField(AGENT_BEHAVIOR_VALUES, { AGENT_BEHAVIOR_MINIMAL: { since: "0.1.16" } })),
  model: since("0.1.18", ModelConfigSchema),
});

export const ToolOutputTruncationSchema = message(
  {
    truncate: message({ maxTokens: int32Field, saveFullOutput: since("0.1.21", z.boolean()) }),
    error: message({ maxTokens: int32Field, errorMessage: z.string() }),
  },
  { oneofs: [["truncate", "error"]] },
);

export const RetryConfigSchema = message({
  apiRetry: message({
    maxRetries: int32Field,
    initialSleepDurationMs: int32Field,
    exponentialMultiplier: doubleField,
    jitterRange: doubleField,
  }),
  modelOutputRetry: message({ maxRetries: int32Field }),
});

export const PolicyRuleSchema = message({
  tool: z.string(),
  serverName: z.string(),
  name: z.string(),
  decision: enumField(POLICY_DECISION_VALUES),
  denyReason: z.string(),
  isDynamic: z.boolean(),
  ruleId: z.string(),
});
export const PolicyConfigSchema = message({
  rules: z.array(PolicyRuleSchema),
  workspaceContainment: since("0.1.13", enumField(WORKSPACE_CONTAINMENT_VALUES)),
  /** A harness-side model judges the calls no rule decides. */
  autoConfig: since("0.1.18", message({ enabled: z.boolean(), model: z.string() })),
});

export const BudgetConfigSchema = message({
  maxModelCalls: int32Field,
  maxToolCalls: int32Field,
  maxInputTokens: int64Field,
  maxOutputTokens: int64Field,
  maxTotalTokens: int64Field,
  scope: since("0.1.16", enumField(BUDGET_SCOPE_VALUES)),
});

export const CompactionConfigSchema = message({
  tokenThreshold: int32Field,
  checkpointIntervalTokens: int32Field,
  maxContextTokens: int32Field,
  summaryPromptOverride: since("0.1.21", z.string()),
});

export const HarnessConfigSchema = message({
  cascadeId: z.string(),
  systemInstructions: SystemInstructionsSchema,
  tools: z.array(ToolSchema),
  harnessSideTools: HarnessSideToolsSchema,
  compactionThreshold: int32Field,
  workspaces: z.array(WorkspaceSchema),
  skillsPaths: z.array(z.string()),
  finishToolSchemaJson: z.string(),
  initialTrajectory: bytesField,
  appDataDir: z.string(),
  mcpServers: z.array(McpServerConfigSchema),
  models: z.array(ModelConfigSchema),
  enabledHooks: z.array(
    enumField(LIFECYCLE_HOOK_VALUES, { LIFECYCLE_HOOK_ON_COMPACTION: { since: "0.1.14" }, LIFECYCLE_HOOK_STOP: { since: "0.1.16" } }),
  ),
  customSubagents: z.array(CustomAgentSchema),
  toolOutputTruncation: ToolOutputTruncationSchema,
  sessionContinuationMode: enumField(SESSION_CONTINUATION_MODE_VALUES),
  retryConfig: RetryConfigSchema,
  policyConfig: since("0.1.10", PolicyConfigSchema),
  agentMode: inReleasesOf010(enumField(AGENT_MODE_VALUES)),
  agentBehavior: since("0.1.11", enumField(AGENT_BEHAVIOR_VALUES, { AGENT_BEHAVIOR_MINIMAL: { since: "0.1.16" } })),
  budgetConfig: since("0.1.11", BudgetConfigSchema),
  compactionConfig: since("0.1.17", CompactionConfigSchema),
  skillsConfig: since("0.1.19", SkillsConfigSchema),
  rulesConfig: since("0.1.17", message({ filenames: z.array(z.string()) })),
});

/** The first WebSocket frame a client sends; not an InputEvent arm. */
export const InitializeConversationEventSchema = message({ config: HarnessConfigSchema });

/**
 * `agentMode` was in the 0.1.10 SDK (which always sent it) and renamed `agentBehavior` in 0.1.11;
 * no other release has it.
 */
function inReleasesOf010<Schema extends z.ZodType>(schema: Schema) {
  return inReleases({ since: "0.1.10", until: "0.1.11" }, schema);
}

export type HarnessConfig = z.infer<typeof HarnessConfigSchema>;
export type ModelConfig = z.infer<typeof ModelConfigSchema>;
export type GeminiApiEndpoint = z.infer<typeof GeminiApiEndpointSchema>;
export type VertexEndpoint = z.infer<typeof VertexEndpointSchema>;
export type SystemInstructions = z.infer<typeof SystemInstructionsSchema>;
export type Tool = z.infer<typeof ToolSchema>;
export type HarnessSideTools = z.infer<typeof HarnessSideToolsSchema>;
export type Workspace = z.infer<typeof WorkspaceSchema>;
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type CustomAgent = z.infer<typeof CustomAgentSchema>;
export type ToolOutputTruncation = z.infer<typeof ToolOutputTruncationSchema>;
export type RetryConfig = z.infer<typeof RetryConfigSchema>;
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;
export type CompactionConfig = z.infer<typeof CompactionConfigSchema>;
export type SkillsConfig = z.infer<typeof SkillsConfigSchema>;
export type InitializeConversationEvent = z.infer<typeof InitializeConversationEventSchema>;
