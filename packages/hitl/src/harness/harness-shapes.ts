import type {
  CustomTool,
  PreToolHookArgs,
  PreToolHookResult,
  QuestionAnswer,
  QuestionsHookArgs,
  QuestionsHookResult,
  ToolCallContext,
} from "@ag-ui-antigravity/harness";

/*
 * The parts of the harness client's conversation config the bridge fills in, named from the bridge's
 * side. They are the harness's own types (imported for types only: the bridge never calls the
 * harness), so what the bridge returns drops straight into `ConversationConfig.customTools` and
 * `ConversationConfig.hooks`.
 */

/** A host-side tool for `ConversationConfig.customTools`. */
export type HarnessCustomTool = CustomTool;
/** What a custom tool handler learns about the call it serves. */
export type ToolCallInfo = ToolCallContext;
/** The pre-tool hook's view of a call. */
export type PreToolInfo = PreToolHookArgs;
export type PreToolDecision = PreToolHookResult;
/** The questions hook's view of an `ask_question` request. */
export type QuestionsInfo = QuestionsHookArgs;
export type QuestionsDecision = QuestionsHookResult;
/** One answer per question, in order: indices into `choices` and an optional free-form text. */
export type HarnessQuestionAnswer = QuestionAnswer;
/** One question of an `ask_question` request. */
export type HarnessQuestion = QuestionsHookArgs["questions"][number];

/** The hooks the bridge provides for `ConversationConfig.hooks`. */
export interface BridgeHooks {
  preTool?: (args: PreToolHookArgs) => Promise<PreToolHookResult>;
  onQuestions?: (args: QuestionsHookArgs) => Promise<QuestionsHookResult>;
}
