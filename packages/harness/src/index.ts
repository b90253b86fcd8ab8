export { HarnessError } from "./errors/harness-error.js";
export type { HarnessErrorCode, HarnessErrorOptions } from "./errors/harness-error.js";
export type {
  NormalizedStep,
  StepKind,
  StepQuestion,
  StepSource,
  StepStatus,
  StepTarget,
  StepToolCall,
} from "./steps/normalized-step.js";
export { StepNormalizer } from "./steps/step-normalizer.js";
export type { NormalizeOptions } from "./steps/step-normalizer.js";

// The native client: process, conversations, turns.
export { findHarnessBinary, locateHarnessBinary } from "./process/find-harness-binary.js";
export type { FindHarnessBinaryOptions, FoundHarnessBinary, HarnessBinarySource } from "./process/find-harness-binary.js";
export { HarnessProcess } from "./process/harness-process.js";
export type { HarnessProtocolInfo, OpenConversationOptions } from "./process/harness-process.js";
export { resolveHarnessVersion } from "./process/harness-version.js";
export { diagnoseHarness, verdictLine } from "./install/diagnose-harness.js";
export type { DiagnoseOptions, HarnessDiagnosis } from "./install/diagnose-harness.js";
export type { HarnessVersionSource, ResolvedHarnessVersion } from "./process/harness-version.js";
export { HarnessDialect } from "./protocol/dialect.js";
export { KNOWN_HARNESS_VERSIONS, NEWEST_KNOWN_HARNESS_VERSION, defaultModelFor } from "./protocol/harness-versions.js";
export { PROTOCOL_DIALECTS } from "./protocol/harness-versions.js";
export type { KnownHarnessVersion, ProtocolDialect } from "./protocol/harness-versions.js";
export type { HarnessProcessCloseOptions, HarnessProcessExit, HarnessProcessOptions } from "./process/harness-process-options.js";
export { Conversation } from "./conversation/conversation.js";
export type { SendOptions } from "./conversation/conversation.js";
export type {
  ConfirmationHookArgs,
  ConversationConfig,
  ConversationHooks,
  ConversationTimings,
  CompactionHookArgs,
  CustomTool,
  McpServer,
  PostToolHookArgs,
  PreToolHookArgs,
  PreToolHookResult,
  PreTurnDecision,
  PreTurnHookArgs,
  QuestionAnswer,
  QuestionsHookArgs,
  QuestionsHookResult,
  ResolvedConversationConfig,
  StopHookArgs,
  StopHookResult,
  Subagent,
  ToolCallContext,
  ToolErrorHookArgs,
  ToolHookArgs,
  ToolPolicy,
} from "./conversation/conversation-config.js";
export type { HarnessFeatureOptions, InlineSkill } from "./conversation/harness-feature-options.js";
export { BUILTIN_TOOL_NAMES, DEFAULT_BUILTIN_TOOLS, WRITE_CAPABLE_BUILTIN_TOOLS } from "./conversation/builtin-tools.js";
export type { BuiltinToolName } from "./conversation/builtin-tools.js";
export { conversationConfigSchema } from "./conversation/conversation-config.js";
export { validateConversationConfig } from "./conversation/validate-config.js";
export { checkConversationConfig } from "./conversation/check-conversation-config.js";
export { Turn } from "./conversation/turn.js";
export type { SubagentEnd, TurnOrigin, TurnResult } from "./conversation/turn.js";
export type { ModalityUsage, TokenUsage } from "./conversation/token-usage.js";
export type { DriftCount, DriftEntry, DriftReport } from "./protocol/drift.js";
// The wire messages a step and a conversation's raw history carry, under their protocol names.
// Their schemas as types only (what the two types are read from): the client loads the schemas with
// its first conversation, never at import; the values are `./protocol`'s.
export type { OutputEventSchema, StepUpdateSchema } from "./protocol/messages.js";
export type { GenaiStruct, GenaiValue, OutputEvent, StepUpdate } from "./protocol/messages.js";
export type { UserInputPart } from "./conversation/user-input.js";
export { withMedia } from "./conversation/tool-result.js";
export type { ToolMedia, ToolResultWithMedia } from "./conversation/tool-result.js";
export type { WireInspector, WireRecord } from "./observability/wire-record.js";
