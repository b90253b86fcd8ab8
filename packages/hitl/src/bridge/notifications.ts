import type { Interrupt } from "@ag-ui/core";
import type { NormalizedStep } from "@ag-ui-antigravity/harness";

/**
 * What the bridge asks the run loop to tell the client, in order. The agent maps each one onto the
 * translator and the SSE stream (the README's integration contract has the table).
 */
export type HitlNotification =
  /** A host tool call started: TOOL_CALL_START, TOOL_CALL_ARGS (the arguments as JSON), TOOL_CALL_END. */
  | { type: "tool-call"; source: "frontend" | "server"; toolCallId: string; toolName: string; arguments: Record<string, unknown> }
  /**
   * A server tool finished: TOOL_CALL_RESULT. `output` is what the tool returned and `content` its
   * text (strings as they are, anything else as JSON); a failed call carries a generic text, never
   * the exception, which only the model sees.
   */
  | { type: "tool-result"; toolCallId: string; toolName: string; content: string; output?: unknown; failed: boolean }
  /**
   * A tool call did not run: the user denied it (an approval answered no, cancelled or abandoned),
   * or the harness refused a call of one of the bridge's own tools (a policy; the bridge reports it
   * from the harness's step, which it does not pass on). The bridge knows, so the call's card can be
   * closed now, whatever the harness then sends about the call, or if it sends nothing. `hostTool`:
   * the call is one of the bridge's own tools, whose card no harness step shows (the host opens it).
   */
  | { type: "tool-denied"; toolCallId: string; toolName: string; arguments: Record<string, unknown>; reason: string; hostTool?: true }
  /**
   * An interrupt was raised (informational: the outcome comes from `finish()`). Lets the agent emit a
   * legacy `on_interrupt` CUSTOM event, or START/ARGS/END for an approval's call: `approval.hostTool`
   * says the call is one of the bridge's own tools, whose card no harness step shows.
   */
  | { type: "interrupt"; interrupt: Interrupt; approval?: { toolCallId: string; toolName: string; arguments: Record<string, unknown>; hostTool?: true } }
  /**
   * The shared state is now `state` (a server tool wrote it). The bridge keeps no copy of what the
   * client was sent: the translator's `updateState(state)` owns that base and says it as a
   * STATE_SNAPSHOT (first in a run) or a STATE_DELTA against the last state sent.
   */
  | { type: "state"; state: Record<string, unknown> }
  /**
   * A note of the host's own, given to `HitlBridge.relay()` (something it learned from a harness
   * hook, say), delivered in order with the turn's steps: after the steps that were already buffered
   * when it was relayed. The bridge never reads it.
   */
  | { type: "relayed"; note: unknown };

/**
 * What `HitlRun.items()` yields: harness steps for the translator, interleaved with notifications.
 * One stream with each call said once: the harness's mirror steps of the bridge's own tools (which
 * the bridge reports itself) are not among the steps.
 */
export type RunItem =
  | { type: "step"; step: NormalizedStep }
  /** The harness turn ended (its steps are exhausted); turn-scoped memory was retired. */
  | { type: "turn-ended" }
  | HitlNotification;
