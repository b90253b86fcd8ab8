import { z } from "zod/v4";
import type { NormalizedStep } from "../steps/normalized-step.js";

/** Handlers and hooks are functions; zod checks that they are callable and nothing more. */
export const callable = <Fn>(what: string) =>
  z.custom<Fn>((value) => typeof value === "function", { message: `${what} must be a function` });

/** What the pre-turn hook decides: let the turn run, or refuse it with a reason the model sees. */
export type PreTurnDecision = { decision: "allow" } | { decision: "deny"; reason?: string };

/** What the pre-turn hook is told: the user input that is about to start a turn. */
export interface PreTurnHookArgs {
  /** The user input parts as the harness reports them. */
  parts: { text?: string | undefined; media?: { mimeType?: string | undefined; description?: string | undefined } | undefined; slashCommand?: { name?: string | undefined } | undefined }[];
  /** The text parts joined. */
  text: string;
  /** The conversation the turn would run in (`Conversation.id`). */
  conversationId: string;
}

/** What every tool hook is told about the call: the tool, its MCP server, the conversation and trajectory making it. */
export interface ToolHookArgs {
  /** The tool as the harness names it: a builtin's name, an MCP server's tool (see `serverName`) or a custom tool's `name`. */
  toolName: string;
  /** The MCP server, for MCP tools. */
  serverName?: string;
  /** The harness's id of the call, when it gives one (0.1.10+ give every call one); a custom tool's handler sees the same id. */
  callId?: string;
  /** The conversation whose agent makes the call (`Conversation.id`). */
  conversationId: string;
  /** The trajectory (main agent or a subagent) making the call, from harness 0.1.13. */
  trajectoryId?: string;
  /** The call's step in that trajectory, from harness 0.1.13. */
  stepIndex?: number;
}

/** What the pre-tool hook is told: the call with its arguments, before it runs. */
export interface PreToolHookArgs extends ToolHookArgs {
  /** Parsed arguments ({} when they are not a JSON object). */
  arguments: Record<string, unknown>;
  /** The arguments as the harness sent them, as JSON text ("" when it sent none): what `arguments` was parsed from. */
  argumentsJson: string;
  /** Why the hook is asked: every call, or because a `confirm` policy matched. */
  reason: "hook" | "policy-confirm";
}

/**
 * What the pre-tool hook decides: run the call (with edited arguments, if given) or refuse it with a
 * reason.
 */
export type PreToolHookResult =
  | { decision: "allow"; arguments?: Record<string, unknown> }
  | { decision: "deny"; reason?: string };

/** What the post-tool hook is told: the call and what it returned (or the error it failed with). */
export interface PostToolHookArgs extends ToolHookArgs {
  /** What the tool returned, as the harness reports it in text ("" when it reports nothing). */
  result: string;
  /** The tool's error text; "" when the call succeeded. */
  error: string;
}

/** What the tool-error hook is told: the call and why it failed. */
export interface ToolErrorHookArgs extends ToolHookArgs {
  /** The error text the model would see; the hook may return `{ message }` to replace it. */
  errorMessage: string;
}

/**
 * What the questions hook is told: the model's `ask_question` request, with where in the conversation
 * it was asked.
 */
export interface QuestionsHookArgs {
  /** The conversation asking (`Conversation.id`). */
  conversationId: string;
  /** The trajectory (the main agent's or a subagent's) whose step asks. */
  trajectoryId: string;
  /** The asking step's index in that trajectory. */
  stepIndex: number;
  /**
   * The questions, in the order the answers must come (see `StepQuestion`); one entry per question the
   * harness sent, so a kind this client does not know is an empty placeholder.
   */
  questions: { question: string; choices: string[]; isMultiSelect: boolean }[];
  /** The waiting step, normalized (its `raw` has anything not copied here). */
  step: NormalizedStep;
  /** Aborted when the conversation closes, or the running turn is cancelled or times out: the answer is no longer wanted. */
  signal: AbortSignal;
}

/** What the STOP hook (harness 0.1.16) is told: the agent is about to stop. */
export interface StopHookArgs {
  /** The conversation whose agent is stopping (`Conversation.id`). */
  conversationId: string;
  /** The trajectory that is about to stop ("" when the harness does not say). */
  trajectoryId: string;
  /** The text the agent ends with. */
  responseText: string;
  /** Why it stops when that is not its own choice: a budget ran out or the quota (a StopReason name). */
  stopReason?: string;
  /** The error the agent stops on; "" when it stops without one. */
  errorMessage: string;
  /** How many times this hook already made the agent go on in this turn. */
  continuationCount: number;
}

/** Let the agent stop, or make it go on: `reason` is what it is told to do next. */
export type StopHookResult = { decision: "stop" } | { decision: "continue"; reason: string };

/** What the compaction hook (harness 0.1.14) is told: the harness summarised the context. */
export interface CompactionHookArgs {
  /** The conversation whose context was compacted (`Conversation.id`). */
  conversationId: string;
  /** The trajectory whose context was compacted ("" when the harness does not say). */
  trajectoryId: string;
  /** The index of the compaction's step in that trajectory (0 when the harness does not say). */
  stepIndex: number;
  /** The summary that replaces the compacted context. */
  summary: string;
}

/** One answer per question, in order. */
export type QuestionAnswer = "unanswered" | { selected: number[]; freeform?: string };
/** What the questions hook answers: one answer per question, or that the user cancelled. */
export type QuestionsHookResult = { answers: QuestionAnswer[] } | { cancelled: true };

/** What the confirmation hook is told: the step that waits for the user to allow a tool call. */
export interface ConfirmationHookArgs {
  /** The conversation asking (`Conversation.id`). */
  conversationId: string;
  /** The waiting step, normalized: its `tool` and `confirmation.requestText` say what is asked. */
  step: NormalizedStep;
  /** The tool the step would run; absent when its action is one this client does not know. */
  toolName?: string;
  /** The call's arguments as the step carries them (`{}` when the tool is unknown). */
  arguments: Record<string, unknown>;
  /** Aborted when the conversation closes, or the running turn is cancelled or times out: the answer is no longer wanted. */
  signal: AbortSignal;
}

/**
 * Callbacks the harness (or the client on its behalf) invokes. All are async and awaited with no
 * timeout; each request is answered exactly once. A hook that throws is reported to the harness as
 * a hook failure and never fails the turn.
 */
export interface ConversationHooks {
  /**
   * Before the harness runs a turn, with its input: return `{ decision: "deny", reason }` to refuse it
   * (the turn then fails with CANCELLED); `allow` or nothing lets it run.
   */
  preTurn?: ((args: PreTurnHookArgs) => PreTurnDecision | void | Promise<PreTurnDecision | void>) | undefined;
  /** After a turn, with its response text; the turn's result waits until this returns. */
  postTurn?: ((args: { responseText: string; conversationId: string }) => void | Promise<void>) | undefined;
  /**
   * Before every tool call (builtin, MCP or custom) no deny policy refused, and for `confirm`
   * policies: allow (with edited `arguments`, if given), or deny with a reason the model sees;
   * nothing allows. Setting it satisfies the safety gate.
   */
  preTool?: ((args: PreToolHookArgs) => PreToolHookResult | void | Promise<PreToolHookResult | void>) | undefined;
  /** After each tool call, with what it returned or the error it failed with; it cannot change either. */
  postTool?: ((args: PostToolHookArgs) => void | Promise<void>) | undefined;
  /** Return `{ message }` to replace the error text the model sees. */
  onToolError?: ((args: ToolErrorHookArgs) => { message: string } | void | Promise<{ message: string } | void>) | undefined;
  /** When the harness starts the conversation's session (the harness decides the moment). */
  sessionStart?: ((args: { conversationId: string }) => void | Promise<void>) | undefined;
  /**
   * On `close()`: the client asks the harness to end the session, which calls this, and waits for it
   * (at most 10 s) before closing the socket. Not called when the connection is lost.
   */
  sessionEnd?: ((args: { conversationId: string }) => void | Promise<void>) | undefined;
  /** Default when absent: every question is answered "unanswered" and a warning is logged. */
  onQuestions?: ((args: QuestionsHookArgs) => QuestionsHookResult | Promise<QuestionsHookResult>) | undefined;
  /** Decides harness tool-confirmation requests; without it, policies decide. */
  onConfirmation?: ((args: ConfirmationHookArgs) => boolean | Promise<boolean>) | undefined;
  /** The agent is about to stop (harness 0.1.16+); return `continue` to make it go on. Without it the harness is not asked to call. */
  stop?: ((args: StopHookArgs) => StopHookResult | void | Promise<StopHookResult | void>) | undefined;
  /** The harness compacted the context (harness 0.1.14+). */
  onCompaction?: ((args: CompactionHookArgs) => void | Promise<void>) | undefined;
}

export const hooksSchema = z
  .object({
    preTurn: callable<ConversationHooks["preTurn"]>("hooks.preTurn"),
    postTurn: callable<ConversationHooks["postTurn"]>("hooks.postTurn"),
    preTool: callable<ConversationHooks["preTool"]>("hooks.preTool"),
    postTool: callable<ConversationHooks["postTool"]>("hooks.postTool"),
    onToolError: callable<ConversationHooks["onToolError"]>("hooks.onToolError"),
    sessionStart: callable<ConversationHooks["sessionStart"]>("hooks.sessionStart"),
    sessionEnd: callable<ConversationHooks["sessionEnd"]>("hooks.sessionEnd"),
    onQuestions: callable<ConversationHooks["onQuestions"]>("hooks.onQuestions"),
    onConfirmation: callable<ConversationHooks["onConfirmation"]>("hooks.onConfirmation"),
    stop: callable<ConversationHooks["stop"]>("hooks.stop"),
    onCompaction: callable<ConversationHooks["onCompaction"]>("hooks.onCompaction"),
  })
  .partial()
  .strict();

