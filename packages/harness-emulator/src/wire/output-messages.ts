/** StepUpdate.State names. */
export type StepState = "STATE_ACTIVE" | "STATE_DONE" | "STATE_WAITING_FOR_USER" | "STATE_ERROR";
export type StepSource = "SOURCE_SYSTEM" | "SOURCE_USER" | "SOURCE_MODEL";
export type StepTarget = "TARGET_USER" | "TARGET_MODEL" | "TARGET_ENVIRONMENT";
/** TrajectoryStateUpdate.State names as the emulator thinks of them; the profile renames FULLY_IDLE for ≤0.1.8. */
export type TrajectoryState = "STATE_RUNNING" | "STATE_FULLY_IDLE" | "STATE_CANCELLED" | "STATE_WAITING_FOR_TASKS" | "STATE_WAITING_FOR_SUBAGENTS";

/**
 * One StepUpdate as sent on the wire. Action fields (`listDirectory`, `customTool`, …) and wait
 * requests ride in the index signature because at most one is set and their shapes vary per tool.
 */
export interface StepUpdate {
  cascadeId: string;
  trajectoryId: string;
  /** A subagent's steps name the trajectory that started it (0.1.11). */
  parentTrajectoryId?: string;
  stepIndex: number;
  state: StepState;
  source: StepSource;
  target?: StepTarget;
  errorMessage?: string;
  thinking?: string;
  textDelta?: string;
  thinkingDelta?: string;
  text?: string;
  [actionField: string]: unknown;
}

/** UsageMetadata with uint64 counts already rendered as JSON strings. */
export interface UsageMetadata {
  promptTokenCount: string;
  candidatesTokenCount: string;
  totalTokenCount: string;
  thoughtsTokenCount: string;
  cachedContentTokenCount?: string;
  serviceTier?: string;
  /** Per-modality counts (0.1.12). */
  promptTokensDetails?: { modality: string; tokenCount: string }[];
  candidatesTokensDetails?: { modality: string; tokenCount: string }[];
}

/** An OutputEvent payload: exactly one oneof member (envelope fields are added by the channel). */
export type OutputPayload = Record<string, unknown>;
