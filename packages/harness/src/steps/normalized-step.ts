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
  /**
   * Whose tool it is: `builtin` (the harness's own), `mcp` (an MCP server's, see `serverName`),
   * `custom` (a host-side `CustomTool`, see `callId`) or `subagent` (the builtin that starts a subagent).
   */
  kind: "builtin" | "mcp" | "custom" | "subagent";
  /** Builtin wire name (`list_directory`, `run_command`, `invoke_subagent`, ...), MCP tool name or custom tool name. */
  name: string;
  /** The StepUpdate field that carried the action (`listDirectory`, `mcpTool`, `customTool`, ...). */
  actionField: string;
  /** MCP server name, for MCP tools. */
  serverName?: string;
  /** The harness tool call id, for custom tools. */
  callId?: string;
  /**
   * The call's inputs, never its results (see above). MCP and custom tools: the parsed JSON arguments
   * (`{}` when the harness sent none; a non-object or unparsable value is kept under `value`).
   */
  arguments: Record<string, unknown>;
  /** Present once the step is DONE (or ERROR) and the harness added result fields. */
  result?: Record<string, unknown>;
}

/** One multiple-choice question of an `ask_question` step, as the harness asks it. */
export interface StepQuestion {
  /** The question's text ("" for a kind of question this client does not know: a placeholder that keeps answers aligned). */
  question: string;
  /** The choices offered; an answer's `selected` holds indices into this list. */
  choices: string[];
  /** True when the user may pick several choices; false when exactly one (or when the harness does not say). */
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
  /** The conversation the step belongs to (the harness's cascade id, `Conversation.id`); "" when the wire omits it. */
  cascadeId: string;
  /** The trajectory (the main agent's or a subagent's) the step belongs to; "" when the wire omits it. */
  trajectoryId: string;
  /** The step's position in its trajectory (0 when the wire omits it); with `trajectoryId`, how answers name the step. */
  stepIndex: number;
  /** What the step is about, from the fields it carries: an error first, then a question, a confirmation, an action, text, thinking. */
  kind: StepKind;
  /** Where the step is in its life: `waiting` means it waits on the user (a question or a confirmation). */
  status: StepStatus;
  /** Who produced the step: `model` (the agent's text, thinking, tool calls), `system` (the platform: model API errors, compaction), `user`. */
  source: StepSource;
  /** Whom the step is addressed to: `user` (shown to the user: answers, thinking), `environment` (tool executions), `model`. */
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
  /** The tool call the step carries (builtin, MCP, custom or a subagent start); absent on steps that call no tool. */
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
