/*
 * What a host learns from the harness's hooks rather than its steps, and hands to the translator in
 * the order it learned it (the agent relays each one through the HITL bridge, so it lands between
 * the steps it came between).
 */

/** A tool hook's call: the pre-tool hook (the call is about to run, with its arguments) or the post-tool hook (it ran). */
export interface ToolHookNote {
  /** `"pre"`: the pre-tool hook, before the call runs (carries `arguments`); `"post"`: the post-tool hook, after it ran (carries `result` or `error`). */
  phase: "pre" | "post";
  /** The harness's name of the tool called (`manage_task`, `schedule`, `invoke_subagent`, a built-in or an MCP tool); it decides which activity the post-tool hook changes. */
  toolName: string;
  /** The harness's id of the call (harness 0.1.10+). */
  callId?: string;
  /** The call's step: its trajectory and index (harness 0.1.13+). */
  trajectoryId?: string;
  /** The call step's index in `trajectoryId` (harness 0.1.13+); without both, the hook cannot name the call's card. */
  stepIndex?: number;
  /** The call's arguments (pre-tool). */
  arguments?: Record<string, unknown>;
  /** What the call returned (post-tool). */
  result?: string;
  /** Why it failed, when it did (post-tool; empty on success). */
  error?: string;
}

/** The STOP hook made the agent go on (harness 0.1.16+). */
export interface ContinuationNote {
  /** 1 for the turn's first continuation, 2 for the next, ... */
  continuation: number;
  /** What the agent is told to do next. */
  reason: string;
  /** The most continuations the host allows in one turn. */
  maxContinuations?: number;
}

/** The ON_COMPACTION hook's summary of a compaction step (harness 0.1.14+). */
export interface CompactionNote {
  /** The trajectory whose context was compacted: the main one, or a subagent's (its activity is then attributed to that subagent). */
  trajectoryId: string;
  /** The compaction step's index in `trajectoryId`: with it, names the `antigravity.compaction` activity that gains the summary (made now if the step was not seen). */
  stepIndex: number;
  /** The summary that replaced the compacted context; it becomes the activity's `summary`. */
  summary: string;
}
