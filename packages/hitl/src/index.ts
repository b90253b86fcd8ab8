export { HitlBridge } from "./bridge/hitl-bridge.js";
export type { BeginRunOptions, HarnessPieces, StartTurn } from "./bridge/hitl-bridge.js";
export { HitlRun } from "./bridge/hitl-run.js";
export type { RunConclusion, RunStart } from "./bridge/hitl-run.js";
export type { HitlNotification, RunItem } from "./bridge/notifications.js";
export { appContextToolName, sharedStateToolName } from "./bridge/bridge-options.js";
export type { HitlBridgeOptions, HitlLogger } from "./bridge/bridge-options.js";
export { HitlError } from "./errors/hitl-error.js";
export { checkFrontendTools } from "./tools/frontend-tools.js";
export { defaultSchemaLimits } from "./schema/schema-limits.js";
export type { SchemaLimits } from "./schema/schema-limits.js";
export type { HitlErrorCode, HitlErrorOptions } from "./errors/hitl-error.js";
export { interrupt, getState, setState, getContext } from "./server-tools/server-tool-api.js";
export type { InterruptOptions } from "./interrupts/server-tool-interrupt.js";
export type { AbandonCause, InterruptAnswer, InterruptStatus } from "./interrupts/interrupt-answer.js";
export { questionReason } from "./interrupts/question-interrupt.js";
export type { QuestionDescription, QuestionPayload, QuestionResponse } from "./interrupts/question-interrupt.js";
export { approvalReason } from "./interrupts/approval-interrupt.js";
export type { ApprovalPayload } from "./interrupts/approval-interrupt.js";
export type {
  BridgeHooks,
  HarnessCustomTool,
  HarnessQuestion,
  HarnessQuestionAnswer,
  PreToolDecision,
  PreToolInfo,
  QuestionsDecision,
  QuestionsInfo,
  ToolCallInfo,
} from "./harness/harness-shapes.js";
