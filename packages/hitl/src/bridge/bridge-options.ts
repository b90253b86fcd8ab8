import type { Logger } from "@ag-ui-antigravity/foundation";
import type { CustomTool } from "../harness/harness-shapes.js";

/** How a `HitlBridge` behaves: interrupt deadlines, what new input does to parked interrupts, where it logs. */
export interface HitlBridgeOptions {
  /** Ask the user before every tool call that is not exempt (default false). */
  toolApproval?: boolean;
  /** Tools that run without asking when `toolApproval` is on. Frontend tools never ask: the client runs them. */
  autoApproveTools?: readonly string[];
  /**
   * The id the client's card of a call has, for an approval's `toolCallId` (default: the harness's
   * call id). A host whose cards of harness calls carry other ids (the translator's card of a
   * built-in call) answers with the card's id, so the approval and the card the client holds are one
   * id; undefined keeps the default.
   */
  toolCallIdOf?: (call: ApprovedCall) => string | undefined;
  /** Turn the harness's `ask_question` requests into interrupts (default true). */
  questions?: boolean;
  /** Offer the run's `RunAgentInput.tools` to the model as harness custom tools (default true). */
  frontendTools?: boolean;
  /** Dispatch a frontend tool at most once per turn per (name, arguments) (default true). */
  deduplicateToolCalls?: boolean;
  /** Frontend tools exempt from deduplication. */
  deduplicationExemptTools?: readonly string[];
  /**
   * Host tools that run in this process. Their handlers may call `interrupt()`, `getState()`,
   * `setState()` and `getContext()`; the bridge reports their calls and results to the client.
   */
  serverTools?: readonly CustomTool[];
  /** Offer the silent `get_app_context` tool (the run's context) to the model (default false). */
  appContextTool?: boolean;
  /** Offer the silent `get_shared_state` tool (the shared state) to the model (default false). */
  sharedStateTool?: boolean;
  /** Prepend a bounded summary of context and state to each turn's input (default off; 4 000 characters when on). */
  turnSummary?: boolean | { maxChars?: number };
  /** How long a parked request waits before it is released as abandoned; its `expiresAt` (default 2 h). */
  parkTimeoutMs?: number;
  /** How long the turn must be quiet, with something parked, before the run ends (default 150 ms). */
  settleMs?: number;
  /** Accept the loose answer shapes documented per interrupt kind before validating (default true). */
  lenientAnswers?: boolean;
  /**
   * New user input while interrupts are parked: "abandon" them (the model is told the user moved on;
   * default) or "refuse" the run with INTERRUPTS_PENDING, as AG-UI's strict contract has it.
   */
  newInputWhileParked?: "abandon" | "refuse";
  /**
   * Where the bridge reports what it decided on its own (ignored answers, expiries): only the `warn`
   * level of every package's one `Logger` is used.
   */
  logger?: Pick<Logger, "warn">;
  /** Clock for deadlines (default `Date.now`). */
  now?: () => number;
  /** Id source for interrupts and tool calls without a harness id (default `crypto.randomUUID`). */
  createId?: () => string;
}

/** The call an approval is about, as the pre-tool hook names it. */
export interface ApprovedCall {
  /** The tool the harness is about to call, as the model named it. */
  toolName: string;
  /** The harness's id of the call (harness 0.1.10+). */
  callId?: string;
  /** The MCP server, for an MCP tool. */
  serverName?: string;
  /** The trajectory (main agent or a subagent) making the call (harness 0.1.13+). */
  trajectoryId?: string;
  /** The call's step in that trajectory (harness 0.1.13+); with `trajectoryId` it identifies the step (docs/protocol.md), so a host can find its own card of the call. */
  stepIndex?: number;
}

export const defaultParkTimeoutMs = 2 * 60 * 60 * 1_000;
export const defaultSettleMs = 150;
export const defaultTurnSummaryChars = 4_000;
/** Name of the silent tool `appContextTool: true` offers the model: it returns the run's AG-UI `context`. */
export const appContextToolName = "get_app_context";
/** Name of the silent tool `sharedStateTool: true` offers the model: it returns the thread's shared state. */
export const sharedStateToolName = "get_shared_state";
