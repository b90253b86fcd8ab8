/*
 * The parts of the harness client's conversation config the bridge fills in. Inputs are declared as
 * the subset of fields the bridge reads, so the harness's richer argument objects are accepted;
 * results mirror the harness's own types exactly, so what the bridge returns can be passed straight
 * into `ConversationConfig.customTools` and `ConversationConfig.hooks`.
 */

/** What a custom tool handler learns about the call it serves (the fields the bridge reads). */
export interface ToolCallInfo {
  /** The harness's id of this call; becomes the AG-UI `toolCallId`. */
  callId: string;
  toolName: string;
  signal?: AbortSignal;
}

/** A host-side tool for `ConversationConfig.customTools`. */
export interface HarnessCustomTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  handler: (args: Record<string, unknown>, context: ToolCallInfo) => unknown;
}

/** The pre-tool hook's view of a call (the fields the bridge reads). */
export interface PreToolInfo {
  toolName: string;
  serverName?: string;
  callId?: string;
  arguments: Record<string, unknown>;
}

export type PreToolDecision =
  | { decision: "allow"; arguments?: Record<string, unknown> }
  | { decision: "deny"; reason?: string };

/** One question of an `ask_question` request. */
export interface HarnessQuestion {
  question: string;
  choices: string[];
  isMultiSelect: boolean;
}

/** The questions hook's view of a request (the fields the bridge reads). */
export interface QuestionsInfo {
  questions: HarnessQuestion[];
  signal?: AbortSignal;
}

/** One answer per question, in order: indices into `choices` and an optional free-form text. */
export type HarnessQuestionAnswer = "unanswered" | { selected: number[]; freeform?: string };
export type QuestionsDecision = { answers: HarnessQuestionAnswer[] } | { cancelled: true };

/** The hooks the bridge provides for `ConversationConfig.hooks`. */
export interface BridgeHooks {
  preTool?: (args: PreToolInfo) => Promise<PreToolDecision>;
  onQuestions?: (args: QuestionsInfo) => Promise<QuestionsDecision>;
}
