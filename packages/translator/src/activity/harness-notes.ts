/*
 * What a host learns from the harness's hooks rather than its steps, and hands to the translator in
 * the order it learned it (the agent relays each one through the HITL bridge, so it lands between
 * the steps it came between).
 */

/** A tool hook's call: the pre-tool hook (the call is about to run, with its arguments) or the post-tool hook (it ran). */
export interface ToolHookNote {
  phase: "pre" | "post";
  toolName: string;
  /** The harness's id of the call (harness 0.1.10+). */
  callId?: string;
  /** The call's step: its trajectory and index (harness 0.1.13+). */
  trajectoryId?: string;
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
  trajectoryId: string;
  stepIndex: number;
  summary: string;
}
