import type { OutputEvent, StepUpdate } from "../protocol/messages.js";

/** What a step is about. A step carrying both text and thinking is "text". */
export type StepKind =
  | "text"
  | "thinking"
  | "builtin_tool"
  | "mcp_tool"
  | "custom_tool"
  | "subagent"
  | "question"
  | "confirmation"
  | "error"
  | "finish"
  | "compaction"
  | "unknown";

/** StepUpdate.State without the prefix; an unknown wire value becomes "unknown" (the raw value stays in `raw`). */
export type StepStatus = "active" | "done" | "waiting" | "error" | "unspecified" | "unknown";
/** Who produced a step (StepUpdate.Source without the prefix); an unknown wire value becomes "unknown". */
export type StepSource = "system" | "user" | "model" | "unspecified" | "unknown";
/**
 * Whom a step is addressed to (StepUpdate.Target without the prefix); an unknown wire value becomes
 * "unknown".
 */
export type StepTarget = "user" | "model" | "environment" | "unspecified" | "unknown";

/**
 * A tool call the harness reports on a step. `arguments` holds the call's inputs (the fields the
 * harness sends on first sight, or the builtin's documented input fields when the step is first
 * seen already DONE); `result` holds the fields the harness added by DONE, so a result never leaks
 * into the arguments.
 */
export interface StepToolCall {
  kind: "builtin" | "mcp" | "custom" | "subagent";
  /** Builtin wire name (`list_directory`, `run_command`, `invoke_subagent`, ...), MCP tool name or custom tool name. */
  name: string;
  /** The StepUpdate field that carried the action (`listDirectory`, `mcpTool`, `customTool`, ...). */
  actionField: string;
  /** MCP server name, for MCP tools. */
  serverName?: string;
  /** The harness tool call id, for custom tools. */
  callId?: string;
  arguments: Record<string, unknown>;
  /** Present once the step is DONE (or ERROR) and the harness added result fields. */
  result?: Record<string, unknown>;
}

/** One multiple-choice question of an `ask_question` step, as the harness asks it. */
export interface StepQuestion {
  question: string;
  choices: string[];
  isMultiSelect: boolean;
}

/**
 * One StepUpdate as the client understands it. The same step (same `id`) is delivered many times
 * as it progresses; `textDelta` and `thinkingDelta` are what is new since the previous delivery of
 * this step to the same consumer, never repeated text.
 */
export interface NormalizedStep {
  /** `${trajectoryId}:${stepIndex}`: the identity of the step across deliveries. */
  id: string;
  cascadeId: string;
  trajectoryId: string;
  stepIndex: number;
  kind: StepKind;
  status: StepStatus;
  source: StepSource;
  target: StepTarget;
  /** True when the step belongs to the turn's main trajectory (not a subagent). */
  isMainTrajectory: boolean;
  /** For a subagent's step: the trajectory that started the subagent (harness 0.1.11+). */
  parentTrajectoryId?: string;
  /** Cumulative text of the step so far. */
  text: string;
  /** Text appended since the previous delivery of this step ("" when none). */
  textDelta: string;
  /** Cumulative thinking of the step so far. */
  thinking: string;
  /** Thinking appended since the previous delivery of this step ("" when none). */
  thinkingDelta: string;
  tool?: StepToolCall;
  /** Set while the step waits on questions (`questionsRequest`). */
  questions?: StepQuestion[];
  /** Set while the step waits on a tool confirmation (`toolConfirmationRequest`). */
  confirmation?: { requestText?: string };
  /** Set on error steps: the message and, for model API failures, the HTTP status. */
  error?: { message: string; httpCode?: number };
  /** Structured output of a `finish` step: the raw string and its parsed JSON when it parses. */
  finish?: { outputString: string; output?: unknown };
  /** The wire StepUpdate. */
  raw: StepUpdate;
  /** The OutputEvent that carried it (absent for history steps). */
  event?: OutputEvent;
}
