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
  conversationId: string;
}

/** What every tool hook is told about the call: the tool, its MCP server, the conversation and trajectory making it. */
export interface ToolHookArgs {
  toolName: string;
  /** The MCP server, for MCP tools. */
  serverName?: string;
  callId?: string;
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
  result: string;
  error: string;
}

/** What the tool-error hook is told: the call and why it failed. */
export interface ToolErrorHookArgs extends ToolHookArgs {
  errorMessage: string;
}

/**
 * What the questions hook is told: the model's `ask_question` request, with where in the conversation
 * it was asked.
 */
export interface QuestionsHookArgs {
  conversationId: string;
  trajectoryId: string;
  stepIndex: number;
  questions: { question: string; choices: string[]; isMultiSelect: boolean }[];
  step: NormalizedStep;
  signal: AbortSignal;
}

/** What the STOP hook (harness 0.1.16) is told: the agent is about to stop. */
export interface StopHookArgs {
  conversationId: string;
  trajectoryId: string;
  /** The text the agent ends with. */
  responseText: string;
  /** Why it stops when that is not its own choice: a budget ran out or the quota (a StopReason name). */
  stopReason?: string;
  errorMessage: string;
  /** How many times this hook already made the agent go on in this turn. */
  continuationCount: number;
}

/** Let the agent stop, or make it go on: `reason` is what it is told to do next. */
export type StopHookResult = { decision: "stop" } | { decision: "continue"; reason: string };

/** What the compaction hook (harness 0.1.14) is told: the harness summarised the context. */
export interface CompactionHookArgs {
  conversationId: string;
  trajectoryId: string;
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
  conversationId: string;
  step: NormalizedStep;
  toolName?: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
}

/**
 * Callbacks the harness (or the client on its behalf) invokes. All are async and awaited with no
 * timeout; each request is answered exactly once. A hook that throws is reported to the harness as
 * a hook failure and never fails the turn.
 */
export interface ConversationHooks {
  preTurn?: ((args: PreTurnHookArgs) => PreTurnDecision | void | Promise<PreTurnDecision | void>) | undefined;
  postTurn?: ((args: { responseText: string; conversationId: string }) => void | Promise<void>) | undefined;
  preTool?: ((args: PreToolHookArgs) => PreToolHookResult | void | Promise<PreToolHookResult | void>) | undefined;
  postTool?: ((args: PostToolHookArgs) => void | Promise<void>) | undefined;
  /** Return `{ message }` to replace the error text the model sees. */
  onToolError?: ((args: ToolErrorHookArgs) => { message: string } | void | Promise<{ message: string } | void>) | undefined;
  sessionStart?: ((args: { conversationId: string }) => void | Promise<void>) | undefined;
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

