import { z } from "zod";
import {
  AGENT_MODE_VALUES,
  AUTH_PROVIDER_TYPE_VALUES,
  HOOK_DECISION_VALUES,
  LIFECYCLE_HOOK_VALUES,
  LINE_ACTION_VALUES,
  MODEL_TYPE_VALUES,
  POLICY_DECISION_VALUES,
  POLICY_EVALUATION_OUTCOME_VALUES,
  SESSION_CONTINUATION_MODE_VALUES,
  STEP_SOURCE_VALUES,
  STEP_STATE_VALUES,
  STEP_TARGET_VALUES,
  TRAJECTORY_STATE_VALUES,
} from "./enums.js";
import { bytesField, doubleField, enumField, int32Field, int64Field } from "./wire-types.js";

/*
 * Zod schemas for every message of docs/protocol.md ("Messages"), in proto3 JSON form.
 * Every field is optional (edition-2024 presence: unset fields are absent), every object is loose
 * (unknown fields are kept, never dropped), oneofs are not enforced (a peer may send several).
 */

/** A message: a loose object whose every field is optional. */
function message<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape).partial();
}

const stringMap = z.record(z.string(), z.string());
/** A presence-only marker message (`{}`), e.g. `compaction`, `invokeSubagent`, `toolConfirmationRequest`. */
const markerMessage = () => message({});

// ---------------------------------------------------------------- genai.Struct (content.proto)

/** genai.Struct: the verbose `{fields:[{name, value}]}` form, not google.protobuf.Struct. Unused by both SDKs. */
export const GenaiValueSchema = message({
  nullValue: z.union([z.string(), z.number(), z.null()]),
  numberValue: doubleField,
  stringValue: z.string(),
  boolValue: z.boolean(),
  // Nested structs and lists are kept as sent rather than validated recursively.
  structValue: z.unknown(),
  listValue: z.unknown(),
  contentValue: z.unknown(),
});
export const GenaiStructSchema = message({
  fields: z.array(message({ name: z.string(), value: GenaiValueSchema })),
});

// ---------------------------------------------------------------- HarnessConfig and its parts

export const GeminiModelOptionsSchema = message({ thinkingLevel: z.string(), serviceTier: z.string() });
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
});
export const GemmaEndpointSchema = message({ baseUrl: z.string() });
export const CustomEndpointSchema = message({ backendType: z.string(), configJson: z.string() });
export const ModelConfigSchema = message({
  name: z.string(),
  types: z.array(enumField(MODEL_TYPE_VALUES)),
  geminiApiEndpoint: GeminiApiEndpointSchema,
  vertexEndpoint: VertexEndpointSchema,
  gemmaEndpoint: GemmaEndpointSchema,
  customEndpoint: CustomEndpointSchema,
});

export const SystemInstructionTemplateSchema = message({
  templateName: z.string(),
  args: z.array(message({ name: z.string(), value: z.string() })),
});
export const CustomSystemInstructionsSchema = message({
  part: z.array(message({ text: z.string(), template: SystemInstructionTemplateSchema })),
});
export const AppendedSystemInstructionsSchema = message({
  customIdentity: z.string(),
  appendedSections: z.array(message({ title: z.string(), content: z.string() })),
});
export const SystemInstructionsSchema = message({
  custom: CustomSystemInstructionsSchema,
  appended: AppendedSystemInstructionsSchema,
});

export const ToolSchema = message({
  name: z.string(),
  description: z.string(),
  parametersJsonSchema: z.string(),
  responseJsonSchema: z.string(),
  deferLoading: z.boolean(),
});

const enabledToolConfig = () => message({ enabled: z.boolean() });
export const HarnessSideToolsSchema = message({
  find: enabledToolConfig(),
  runCommand: enabledToolConfig(),
  subagents: enabledToolConfig(),
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
});

export const WorkspaceSchema = message({ filesystemWorkspace: message({ directory: z.string() }) });

export const McpServerConfigSchema = message({
  name: z.string(),
  stdio: message({ command: z.string(), args: z.array(z.string()), env: stringMap }),
  http: message({ url: z.string(), headers: stringMap }),
  enabledTools: z.array(z.string()),
  disabledTools: z.array(z.string()),
  authProviderType: enumField(AUTH_PROVIDER_TYPE_VALUES),
  timeoutSeconds: int32Field,
});

export const SubagentSkillsConfigSchema = message({
  inheritConfig: message({ extraSkillsPaths: z.array(z.string()) }),
  noneConfig: markerMessage(),
  overrideConfig: message({ skillsPaths: z.array(z.string()) }),
});

export const CustomAgentSchema = message({
  name: z.string(),
  description: z.string(),
  systemInstructions: SystemInstructionsSchema,
  harnessSideTools: HarnessSideToolsSchema,
  tools: z.array(ToolSchema),
  skillsConfig: SubagentSkillsConfigSchema,
  agentMode: enumField(AGENT_MODE_VALUES),
});

export const ToolOutputTruncationSchema = message({
  truncate: message({ maxTokens: int32Field }),
  error: message({ maxTokens: int32Field, errorMessage: z.string() }),
});

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
export const PolicyConfigSchema = message({ rules: z.array(PolicyRuleSchema) });

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
  enabledHooks: z.array(enumField(LIFECYCLE_HOOK_VALUES)),
  customSubagents: z.array(CustomAgentSchema),
  toolOutputTruncation: ToolOutputTruncationSchema,
  sessionContinuationMode: enumField(SESSION_CONTINUATION_MODE_VALUES),
  retryConfig: RetryConfigSchema,
  policyConfig: PolicyConfigSchema,
  agentMode: enumField(AGENT_MODE_VALUES),
});

/** The first WebSocket frame a client sends; not an InputEvent arm. */
export const InitializeConversationEventSchema = message({ config: HarnessConfigSchema });

// ---------------------------------------------------------------- InputEvent (client → harness)

export const MediaSchema = message({ mimeType: z.string(), description: z.string(), data: bytesField });

export const UserInputSchema = message({
  parts: z.array(
    message({
      text: z.string(),
      media: MediaSchema,
      slashCommand: message({ name: z.string() }),
    }),
  ),
});

export const ToolConfirmationSchema = message({ trajectoryId: z.string(), stepIndex: int32Field, accepted: z.boolean() });

export const ToolResponseSchema = message({
  id: z.string(),
  responseJson: z.string(),
  supplementalMedia: z.array(MediaSchema),
  response: GenaiStructSchema,
  errorMessage: z.string(),
});

export const UserQuestionAnswerSchema = message({
  unanswered: z.boolean(),
  multipleChoiceAnswer: message({ selectedChoiceIndices: z.array(int32Field), freeformResponse: z.string() }),
});

export const UserQuestionsResponseSchema = message({
  trajectoryId: z.string(),
  stepIndex: int32Field,
  cancelled: z.boolean(),
  response: message({ answers: z.array(UserQuestionAnswerSchema) }),
});

export const PreTurnResultSchema = message({ decision: enumField(HOOK_DECISION_VALUES), reason: z.string() });
export const PreToolResultSchema = message({
  decision: enumField(HOOK_DECISION_VALUES),
  reason: z.string(),
  modifiedArgumentsJson: z.string(),
});

export const CallHookResponseSchema = message({
  requestId: z.string(),
  preTurnResult: PreTurnResultSchema,
  preToolResult: PreToolResultSchema,
  emptyResult: markerMessage(),
  errorMessage: z.string(),
  onToolErrorResult: message({ customErrorMessage: z.string() }),
});

export const PolicyDecisionResponseSchema = message({
  requestId: z.string(),
  outcome: enumField(POLICY_EVALUATION_OUTCOME_VALUES),
  denyReason: z.string(),
});

export const InputEventSchema = message({
  userInput: z.string(),
  toolConfirmation: ToolConfirmationSchema,
  toolResponse: ToolResponseSchema,
  questionResponse: UserQuestionsResponseSchema,
  haltRequest: z.boolean(),
  automatedTrigger: z.string(),
  complexUserInput: UserInputSchema,
  callHookResponse: CallHookResponseSchema,
  sessionEndRequest: z.boolean(),
  policyDecisionResponse: PolicyDecisionResponseSchema,
});

// ---------------------------------------------------------------- StepUpdate and its actions

export const ToolCallSchema = message({
  id: z.string(),
  name: z.string(),
  argumentsJson: z.string(),
  arguments: GenaiStructSchema,
});

export const ActionListDirectorySchema = message({
  directoryPath: z.string(),
  results: z.array(message({ name: z.string(), isDirectory: z.boolean(), fileSize: int64Field })),
});
export const ActionFindFileSchema = message({ directoryPath: z.string(), query: z.string(), output: z.string() });
export const ActionSearchDirectorySchema = message({ directoryPath: z.string(), query: z.string(), numResults: int32Field });
export const ActionViewFileSchema = message({ filePath: z.string(), startLine: int32Field, endLine: int32Field });
export const ActionCreateFileSchema = message({ filePath: z.string(), contents: z.string() });
export const ActionEditFileSchema = message({
  filePath: z.string(),
  diffBlock: z.array(
    message({
      startLine: int32Field,
      endLine: int32Field,
      lines: z.array(message({ text: z.string(), action: enumField(LINE_ACTION_VALUES) })),
    }),
  ),
});
export const ActionRunCommandSchema = message({
  commandLine: z.string(),
  workingDir: z.string(),
  exitCode: int32Field,
  combinedOutput: z.string(),
});
export const ActionGenerateImageSchema = message({
  prompt: z.string(),
  imagePaths: z.array(z.string()),
  imageName: z.string(),
  aspectRatio: z.string(),
});
export const ActionFinishSchema = message({ outputString: z.string() });
export const ActionErrorSchema = message({ errorMessage: z.string(), httpCode: int32Field });
export const ActionMcpToolSchema = message({ serverName: z.string(), toolName: z.string(), argumentsJson: z.string() });
export const ActionSearchWebSchema = message({ query: z.string(), domain: z.string(), summary: z.string() });
export const ActionReadUrlContentSchema = message({
  url: z.string(),
  title: z.string(),
  summary: z.string(),
  contentPath: z.string(),
});
export const ActionCustomToolSchema = message({ toolCall: ToolCallSchema, toolResponse: ToolResponseSchema });

export const MultipleChoiceSchema = message({
  question: z.string(),
  choices: z.array(z.string()),
  isMultiSelect: z.boolean(),
});
export const UserQuestionsRequestSchema = message({
  questions: z.array(message({ multipleChoice: MultipleChoiceSchema })),
});

export const StepUpdateSchema = message({
  cascadeId: z.string(),
  trajectoryId: z.string(),
  stepIndex: int32Field,
  state: enumField(STEP_STATE_VALUES),
  source: enumField(STEP_SOURCE_VALUES),
  target: enumField(STEP_TARGET_VALUES),
  errorMessage: z.string(),
  thinking: z.string(),
  textDelta: z.string(),
  thinkingDelta: z.string(),
  text: z.string(),
  listDirectory: ActionListDirectorySchema,
  findFile: ActionFindFileSchema,
  searchDirectory: ActionSearchDirectorySchema,
  viewFile: ActionViewFileSchema,
  createFile: ActionCreateFileSchema,
  editFile: ActionEditFileSchema,
  runCommand: ActionRunCommandSchema,
  compaction: markerMessage(),
  invokeSubagent: markerMessage(),
  generateImage: ActionGenerateImageSchema,
  finish: ActionFinishSchema,
  error: ActionErrorSchema,
  mcpTool: ActionMcpToolSchema,
  searchWeb: ActionSearchWebSchema,
  readUrlContent: ActionReadUrlContentSchema,
  customTool: ActionCustomToolSchema,
  requestText: z.string(),
  toolConfirmationRequest: markerMessage(),
  questionsRequest: UserQuestionsRequestSchema,
});

// ---------------------------------------------------------------- OutputEvent (harness → client)

export const TrajectoryStateUpdateSchema = message({
  trajectoryId: z.string(),
  state: enumField(TRAJECTORY_STATE_VALUES),
  error: z.string(),
});

export const UsageMetadataSchema = message({
  promptTokenCount: int64Field,
  candidatesTokenCount: int64Field,
  totalTokenCount: int64Field,
  thoughtsTokenCount: int64Field,
  cachedContentTokenCount: int64Field,
  serviceTier: z.string(),
});

export const TrajectoryUsageEntrySchema = message({ trajectoryId: z.string(), usage: UsageMetadataSchema });

export const UsageUpdateSchema = message({ agents: z.array(TrajectoryUsageEntrySchema), total: UsageMetadataSchema });

export const InitializeConversationResponseSchema = message({
  cascadeId: z.string(),
  history: z.array(StepUpdateSchema),
  cumulativeUsage: UsageMetadataSchema,
  trajectoryUsage: z.array(TrajectoryUsageEntrySchema),
});

export const PreToolArgsSchema = message({
  toolName: z.string(),
  argumentsJson: z.string(),
  serverName: z.string(),
  callId: z.string(),
});

export const CallHookRequestSchema = message({
  requestId: z.string(),
  name: z.string(),
  preTurnArgs: message({ userInput: UserInputSchema }),
  postTurnArgs: message({ responseText: z.string() }),
  preToolArgs: PreToolArgsSchema,
  postToolArgs: message({
    toolName: z.string(),
    result: z.string(),
    error: z.string(),
    serverName: z.string(),
    callId: z.string(),
  }),
  type: enumField(LIFECYCLE_HOOK_VALUES),
  onToolErrorArgs: message({
    toolName: z.string(),
    errorMessage: z.string(),
    serverName: z.string(),
    callId: z.string(),
  }),
});

export const PolicyDecisionRequestSchema = message({
  requestId: z.string(),
  ruleId: z.string(),
  toolArgs: PreToolArgsSchema,
});

export const OutputEventSchema = message({
  seqNum: int64Field,
  timestampMicros: int64Field,
  stepUpdate: StepUpdateSchema,
  trajectoryStateUpdate: TrajectoryStateUpdateSchema,
  toolCall: ToolCallSchema,
  initializeConversationResponse: InitializeConversationResponseSchema,
  callHookRequest: CallHookRequestSchema,
  sessionEndResponse: z.boolean(),
  policyDecisionRequest: PolicyDecisionRequestSchema,
  usageUpdate: UsageUpdateSchema,
  /** ≤0.1.9 envelope usage (a sibling of the payload, removed in 0.1.10); alias of `usageUpdate.total`. */
  usageMetadata: UsageMetadataSchema,
});

// ---------------------------------------------------------------- inferred types

export type GenaiStruct = z.infer<typeof GenaiStructSchema>;
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
export type InitializeConversationEvent = z.infer<typeof InitializeConversationEventSchema>;
export type Media = z.infer<typeof MediaSchema>;
export type UserInput = z.infer<typeof UserInputSchema>;
export type ToolConfirmation = z.infer<typeof ToolConfirmationSchema>;
export type ToolResponse = z.infer<typeof ToolResponseSchema>;
export type UserQuestionAnswer = z.infer<typeof UserQuestionAnswerSchema>;
export type UserQuestionsResponse = z.infer<typeof UserQuestionsResponseSchema>;
export type PreTurnResult = z.infer<typeof PreTurnResultSchema>;
export type PreToolResult = z.infer<typeof PreToolResultSchema>;
export type CallHookResponse = z.infer<typeof CallHookResponseSchema>;
export type PolicyDecisionResponse = z.infer<typeof PolicyDecisionResponseSchema>;
export type InputEvent = z.infer<typeof InputEventSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type ActionListDirectory = z.infer<typeof ActionListDirectorySchema>;
export type ActionFindFile = z.infer<typeof ActionFindFileSchema>;
export type ActionSearchDirectory = z.infer<typeof ActionSearchDirectorySchema>;
export type ActionViewFile = z.infer<typeof ActionViewFileSchema>;
export type ActionCreateFile = z.infer<typeof ActionCreateFileSchema>;
export type ActionEditFile = z.infer<typeof ActionEditFileSchema>;
export type ActionRunCommand = z.infer<typeof ActionRunCommandSchema>;
export type ActionGenerateImage = z.infer<typeof ActionGenerateImageSchema>;
export type ActionFinish = z.infer<typeof ActionFinishSchema>;
export type ActionError = z.infer<typeof ActionErrorSchema>;
export type ActionMcpTool = z.infer<typeof ActionMcpToolSchema>;
export type ActionSearchWeb = z.infer<typeof ActionSearchWebSchema>;
export type ActionReadUrlContent = z.infer<typeof ActionReadUrlContentSchema>;
export type ActionCustomTool = z.infer<typeof ActionCustomToolSchema>;
export type MultipleChoice = z.infer<typeof MultipleChoiceSchema>;
export type UserQuestionsRequest = z.infer<typeof UserQuestionsRequestSchema>;
export type StepUpdate = z.infer<typeof StepUpdateSchema>;
export type TrajectoryStateUpdate = z.infer<typeof TrajectoryStateUpdateSchema>;
export type UsageMetadata = z.infer<typeof UsageMetadataSchema>;
export type TrajectoryUsageEntry = z.infer<typeof TrajectoryUsageEntrySchema>;
export type UsageUpdate = z.infer<typeof UsageUpdateSchema>;
export type InitializeConversationResponse = z.infer<typeof InitializeConversationResponseSchema>;
export type PreToolArgs = z.infer<typeof PreToolArgsSchema>;
export type CallHookRequest = z.infer<typeof CallHookRequestSchema>;
export type PolicyDecisionRequest = z.infer<typeof PolicyDecisionRequestSchema>;
export type OutputEvent = z.infer<typeof OutputEventSchema>;
