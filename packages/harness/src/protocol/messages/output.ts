import { z } from "zod/v4";
import {
  LIFECYCLE_HOOK_VALUES,
  LINE_ACTION_VALUES,
  MODALITY_VALUES,
  SKILL_LOOKUP_OPERATION_VALUES,
  STEP_SOURCE_VALUES,
  STEP_STATE_VALUES,
  STEP_TARGET_VALUES,
  STOP_REASON_VALUES,
  TRAJECTORY_STATE_VALUES,
} from "../enums.js";
import { since, until } from "../versioned.js";
import { enumField, int32Field, int64Field } from "../wire-types.js";
import { GenaiStructSchema, markerMessage, message, UserInputSchema } from "./common.js";
import { ToolResponseSchema } from "./input.js";

/*
 * OutputEvent: every frame the harness sends, and the steps it reports. Parsing them is lenient
 * (a newer harness's fields are kept and counted as drift); the version annotations let the
 * emulator send, and its tests check, exactly what one release sends.
 */

export const ToolCallSchema = message({
  id: z.string(),
  name: z.string(),
  argumentsJson: z.string(),
  /** Since 0.1.17 a call may carry only these, without `argumentsJson`. */
  arguments: GenaiStructSchema,
  /** The trajectory (main agent or subagent) that made the call (0.1.17). */
  trajectoryId: since("0.1.17", z.string()),
});

export const ActionListDirectorySchema = message({
  directoryPath: z.string(),
  results: z.array(message({ name: z.string(), isDirectory: z.boolean(), fileSize: int64Field }, { oneofs: [["isDirectory", "fileSize"]] })),
});
export const ActionFindFileSchema = message({ directoryPath: z.string(), query: z.string(), output: z.string() });
export const ActionSearchDirectorySchema = message({ directoryPath: z.string(), query: z.string(), numResults: int32Field });
export const ActionViewFileSchema = message({
  filePath: z.string(),
  startLine: int32Field,
  endLine: int32Field,
  contentOffset: since("0.1.14", int32Field),
});
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
  outputPath: since("0.1.12", z.string()),
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
/** The model listed, looked up or read the resources of skills (0.1.19). */
export const ActionSkillLookupSchema = message({
  operation: enumField(SKILL_LOOKUP_OPERATION_VALUES),
  requestedSkillNames: z.array(z.string()),
  resolvedSkillNames: z.array(z.string()),
  errorMessage: z.string(),
});
/** A workflow script the model ran (0.1.21). */
export const ActionRunWorkflowSchema = message({
  scriptPath: z.string(),
  description: z.string(),
  output: z.string(),
  script: z.string(),
});

export const MultipleChoiceSchema = message({
  question: z.string(),
  choices: z.array(z.string()),
  isMultiSelect: z.boolean(),
});
export const UserQuestionsRequestSchema = message({
  questions: z.array(message({ multipleChoice: MultipleChoiceSchema }, { oneofs: [["multipleChoice"]] })),
});

/** The schema a `StepUpdate` is parsed with: loose, every field optional, unknown fields kept. */
export const StepUpdateSchema = message({
  cascadeId: z.string(),
  trajectoryId: z.string(),
  /** The trajectory that started this one, for a subagent's steps (0.1.11). */
  parentTrajectoryId: since("0.1.11", z.string()),
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
  skillLookup: since("0.1.19", ActionSkillLookupSchema),
  runWorkflow: since("0.1.21", ActionRunWorkflowSchema),
  requestText: z.string(),
  toolConfirmationRequest: markerMessage(),
  questionsRequest: UserQuestionsRequestSchema,
});

export const TrajectoryStateUpdateSchema = message({
  trajectoryId: z.string(),
  state: enumField(TRAJECTORY_STATE_VALUES, {
    STATE_IDLE: { until: "0.1.9" },
    STATE_FULLY_IDLE: { since: "0.1.9" },
    STATE_WAITING_FOR_SUBAGENTS: { since: "0.1.21" },
  }),
  error: z.string(),
  /** Why the trajectory stopped early: a budget ran out, or the quota (0.1.11). */
  stopReason: since("0.1.11", enumField(STOP_REASON_VALUES)),
  parentTrajectoryId: since("0.1.11", z.string()),
  /** How deep a subagent is nested: 0 for the main agent (0.1.11). */
  depth: since("0.1.11", int32Field),
  /** A machine-readable code for `error` (0.1.20). */
  errorCode: since("0.1.20", z.string()),
});

export const ModalityTokenCountSchema = message({ modality: enumField(MODALITY_VALUES), tokenCount: int64Field });

export const UsageMetadataSchema = message({
  promptTokenCount: int64Field,
  candidatesTokenCount: int64Field,
  totalTokenCount: int64Field,
  thoughtsTokenCount: int64Field,
  cachedContentTokenCount: int64Field,
  serviceTier: since("0.1.10", z.string()),
  promptTokensDetails: since("0.1.12", z.array(ModalityTokenCountSchema)),
  cacheTokensDetails: since("0.1.12", z.array(ModalityTokenCountSchema)),
  candidatesTokensDetails: since("0.1.12", z.array(ModalityTokenCountSchema)),
  toolUsePromptTokensDetails: since("0.1.12", z.array(ModalityTokenCountSchema)),
});

export const TrajectoryUsageEntrySchema = message({ trajectoryId: z.string(), usage: UsageMetadataSchema });

export const UsageUpdateSchema = message({ agents: z.array(TrajectoryUsageEntrySchema), total: UsageMetadataSchema });

/** Whether the harness could set up its command sandbox (0.1.17). */
export const SandboxStatusSchema = message({ available: z.boolean(), unavailableReason: z.string() });

export const InitializeConversationResponseSchema = message({
  cascadeId: z.string(),
  history: z.array(StepUpdateSchema),
  cumulativeUsage: since("0.1.10", UsageMetadataSchema),
  trajectoryUsage: since("0.1.10", z.array(TrajectoryUsageEntrySchema)),
  sandboxStatus: since("0.1.17", SandboxStatusSchema),
});

export const PreToolArgsSchema = message({
  toolName: z.string(),
  argumentsJson: z.string(),
  serverName: z.string(),
  callId: since("0.1.10", z.string()),
  trajectoryId: since("0.1.13", z.string()),
  stepIndex: since("0.1.13", int32Field),
});

/** The STOP hook's question (0.1.16): the agent is about to stop; may it? */
export const StopArgsSchema = message({
  responseText: z.string(),
  trajectoryId: z.string(),
  continuationCount: int32Field,
  stopReason: enumField(STOP_REASON_VALUES),
  errorMessage: z.string(),
});

export const CallHookRequestSchema = message(
  {
    requestId: z.string(),
    name: z.string(),
    preTurnArgs: message({ userInput: UserInputSchema, trajectoryId: since("0.1.14", z.string()) }),
    postTurnArgs: message({ responseText: z.string(), trajectoryId: since("0.1.14", z.string()) }),
    preToolArgs: PreToolArgsSchema,
    postToolArgs: message({
      toolName: z.string(),
      result: z.string(),
      error: z.string(),
      serverName: z.string(),
      callId: since("0.1.10", z.string()),
      trajectoryId: since("0.1.13", z.string()),
      stepIndex: since("0.1.13", int32Field),
    }),
    type: enumField(LIFECYCLE_HOOK_VALUES, { LIFECYCLE_HOOK_ON_COMPACTION: { since: "0.1.14" }, LIFECYCLE_HOOK_STOP: { since: "0.1.16" } }),
    onToolErrorArgs: message({
      toolName: z.string(),
      errorMessage: z.string(),
      serverName: z.string(),
      callId: since("0.1.10", z.string()),
      trajectoryId: since("0.1.13", z.string()),
      stepIndex: since("0.1.13", int32Field),
    }),
    /** The harness compacted the context (0.1.14). */
    onCompactionArgs: since("0.1.14", message({ trajectoryId: z.string(), stepIndex: int32Field, summary: z.string() })),
    stopArgs: since("0.1.16", StopArgsSchema),
    clientId: since("0.1.16", z.string()),
  },
  { oneofs: [["preTurnArgs", "postTurnArgs", "preToolArgs", "postToolArgs", "onToolErrorArgs", "onCompactionArgs", "stopArgs"]] },
);

export const PolicyDecisionRequestSchema = message({
  requestId: z.string(),
  ruleId: z.string(),
  toolArgs: PreToolArgsSchema,
  reason: since("0.1.18", z.string()),
});

const outputArms = [
  "stepUpdate",
  "trajectoryStateUpdate",
  "toolCall",
  "initializeConversationResponse",
  "callHookRequest",
  "sessionEndResponse",
  "policyDecisionRequest",
  "usageUpdate",
] as const;

/** The schema an `OutputEvent` is parsed with: loose, every field optional, unknown fields kept. */
export const OutputEventSchema = message(
  {
    seqNum: int64Field,
    timestampMicros: int64Field,
    stepUpdate: StepUpdateSchema,
    trajectoryStateUpdate: TrajectoryStateUpdateSchema,
    toolCall: ToolCallSchema,
    initializeConversationResponse: InitializeConversationResponseSchema,
    callHookRequest: CallHookRequestSchema,
    sessionEndResponse: z.boolean(),
    policyDecisionRequest: since("0.1.10", PolicyDecisionRequestSchema),
    usageUpdate: since("0.1.10", UsageUpdateSchema),
    /** ≤0.1.9 envelope usage (a sibling of the payload, removed in 0.1.10); alias of `usageUpdate.total`. */
    usageMetadata: until("0.1.10", UsageMetadataSchema),
  },
  { oneofs: [outputArms] },
);

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
export type ActionSkillLookup = z.infer<typeof ActionSkillLookupSchema>;
export type ActionRunWorkflow = z.infer<typeof ActionRunWorkflowSchema>;
export type MultipleChoice = z.infer<typeof MultipleChoiceSchema>;
export type UserQuestionsRequest = z.infer<typeof UserQuestionsRequestSchema>;
/**
 * One step as the harness sends it (docs/protocol.md, "Messages"); `NormalizedStep` is the friendlier
 * form.
 */
export type StepUpdate = z.infer<typeof StepUpdateSchema>;
export type TrajectoryStateUpdate = z.infer<typeof TrajectoryStateUpdateSchema>;
export type ModalityTokenCount = z.infer<typeof ModalityTokenCountSchema>;
export type UsageMetadata = z.infer<typeof UsageMetadataSchema>;
export type TrajectoryUsageEntry = z.infer<typeof TrajectoryUsageEntrySchema>;
export type UsageUpdate = z.infer<typeof UsageUpdateSchema>;
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>;
export type InitializeConversationResponse = z.infer<typeof InitializeConversationResponseSchema>;
export type PreToolArgs = z.infer<typeof PreToolArgsSchema>;
export type StopArgs = z.infer<typeof StopArgsSchema>;
export type CallHookRequest = z.infer<typeof CallHookRequestSchema>;
export type PolicyDecisionRequest = z.infer<typeof PolicyDecisionRequestSchema>;
/** One message the harness sends over the conversation's WebSocket (docs/protocol.md, "Messages"). */
export type OutputEvent = z.infer<typeof OutputEventSchema>;
