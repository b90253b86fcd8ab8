import type { PreToolHookArgs, PreToolHookResult, QuestionsHookArgs, QuestionsHookResult } from "@ag-ui-antigravity/harness";

/*
 * The parts of the harness client's conversation config the bridge fills in. They are the harness's
 * own types under their own names (imported for types only: the bridge never calls the harness), so
 * what the bridge returns drops straight into `ConversationConfig.customTools` and
 * `ConversationConfig.hooks`.
 */
export type {
  CustomTool,
  PreToolHookArgs,
  PreToolHookResult,
  QuestionAnswer,
  QuestionsHookArgs,
  QuestionsHookResult,
  ToolCallContext,
} from "@ag-ui-antigravity/harness";

/** One question of an `ask_question` request. */
export type HarnessQuestion = QuestionsHookArgs["questions"][number];

/** The hooks the bridge provides for `ConversationConfig.hooks`. */
export interface BridgeHooks {
  /**
   * Parks each non-exempt tool call as an approval interrupt and allows, edits or denies it by the
   * answer. Present only with `toolApproval: true`.
   */
  preTool?: (args: PreToolHookArgs) => Promise<PreToolHookResult>;
  /**
   * Parks the harness's `ask_question` request as a question interrupt and returns the answers (or
   * `cancelled` when it was not answered). Present unless `questions: false`.
   */
  onQuestions?: (args: QuestionsHookArgs) => Promise<QuestionsHookResult>;
}
