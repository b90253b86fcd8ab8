/*
 * Enum value names of the harness protocol (docs/protocol.md, "Messages"). Values travel as
 * these names; a number or a name missing here is still accepted (and recorded as drift).
 */

export const LIFECYCLE_HOOK_VALUES = [
  "LIFECYCLE_HOOK_UNSPECIFIED",
  "LIFECYCLE_HOOK_ON_SESSION_START",
  "LIFECYCLE_HOOK_ON_SESSION_END",
  "LIFECYCLE_HOOK_PRE_TURN",
  "LIFECYCLE_HOOK_POST_TURN",
  "LIFECYCLE_HOOK_PRE_TOOL",
  "LIFECYCLE_HOOK_POST_TOOL",
  "LIFECYCLE_HOOK_ON_TOOL_ERROR",
] as const;
export type LifecycleHook = (typeof LIFECYCLE_HOOK_VALUES)[number];

export const AGENT_MODE_VALUES = ["AGENT_MODE_UNSPECIFIED", "AGENT_MODE_AUTONOMOUS", "AGENT_MODE_INTERACTIVE"] as const;
export type AgentMode = (typeof AGENT_MODE_VALUES)[number];

export const MODEL_TYPE_VALUES = ["MODEL_TYPE_UNSPECIFIED", "MODEL_TYPE_TEXT", "MODEL_TYPE_IMAGE"] as const;
export type ModelType = (typeof MODEL_TYPE_VALUES)[number];

export const POLICY_DECISION_VALUES = [
  "POLICY_DECISION_UNSPECIFIED",
  "POLICY_DECISION_ALLOW",
  "POLICY_DECISION_DENY",
  "POLICY_DECISION_ASK_USER",
] as const;
export type PolicyDecision = (typeof POLICY_DECISION_VALUES)[number];

export const POLICY_EVALUATION_OUTCOME_VALUES = [
  "POLICY_EVALUATION_OUTCOME_UNSPECIFIED",
  "POLICY_EVALUATION_OUTCOME_ALLOW",
  "POLICY_EVALUATION_OUTCOME_DENY",
  "POLICY_EVALUATION_OUTCOME_NO_MATCH",
] as const;
export type PolicyEvaluationOutcome = (typeof POLICY_EVALUATION_OUTCOME_VALUES)[number];

export const SESSION_CONTINUATION_MODE_VALUES = [
  "SESSION_CONTINUATION_MODE_UNSPECIFIED",
  "RESUME",
  "CREATE_OR_RESUME",
  "CREATE_ONLY",
] as const;
export type SessionContinuationMode = (typeof SESSION_CONTINUATION_MODE_VALUES)[number];

export const STEP_STATE_VALUES = [
  "STATE_UNSPECIFIED",
  "STATE_ACTIVE",
  "STATE_DONE",
  "STATE_WAITING_FOR_USER",
  "STATE_ERROR",
] as const;
export type StepState = (typeof STEP_STATE_VALUES)[number];

export const STEP_SOURCE_VALUES = ["SOURCE_UNSPECIFIED", "SOURCE_SYSTEM", "SOURCE_USER", "SOURCE_MODEL"] as const;
export type StepSourceName = (typeof STEP_SOURCE_VALUES)[number];

export const STEP_TARGET_VALUES = ["TARGET_UNSPECIFIED", "TARGET_USER", "TARGET_MODEL", "TARGET_ENVIRONMENT"] as const;
export type StepTargetName = (typeof STEP_TARGET_VALUES)[number];

export const LINE_ACTION_VALUES = [
  "LINE_ACTION_UNSPECIFIED",
  "LINE_ACTION_INSERT",
  "LINE_ACTION_DELETE",
  "LINE_ACTION_NONE",
] as const;
export type LineAction = (typeof LINE_ACTION_VALUES)[number];

/**
 * TrajectoryStateUpdate.State. `STATE_IDLE` is the ≤0.1.8 spelling of value 2, kept so an old
 * harness's terminal state is not reported as drift.
 */
export const TRAJECTORY_STATE_VALUES = [
  "STATE_UNSPECIFIED",
  "STATE_RUNNING",
  "STATE_FULLY_IDLE",
  "STATE_IDLE",
  "STATE_CANCELLED",
  "STATE_WAITING_FOR_TASKS",
] as const;
export type TrajectoryState = (typeof TRAJECTORY_STATE_VALUES)[number];

export const AUTH_PROVIDER_TYPE_VALUES = ["AUTH_PROVIDER_TYPE_UNSPECIFIED", "AUTH_PROVIDER_TYPE_GOOGLE_CREDENTIALS"] as const;
export type AuthProviderType = (typeof AUTH_PROVIDER_TYPE_VALUES)[number];

/** PreToolResult.Decision and PreTurnResult.Decision share these names. */
export const HOOK_DECISION_VALUES = ["DECISION_UNSPECIFIED", "ALLOW", "DENY"] as const;
export type HookDecision = (typeof HOOK_DECISION_VALUES)[number];

export const StepStates = {
  unspecified: "STATE_UNSPECIFIED",
  active: "STATE_ACTIVE",
  done: "STATE_DONE",
  waitingForUser: "STATE_WAITING_FOR_USER",
  error: "STATE_ERROR",
} as const satisfies Record<string, StepState>;

export const TrajectoryStates = {
  unspecified: "STATE_UNSPECIFIED",
  running: "STATE_RUNNING",
  fullyIdle: "STATE_FULLY_IDLE",
  idle: "STATE_IDLE",
  cancelled: "STATE_CANCELLED",
  waitingForTasks: "STATE_WAITING_FOR_TASKS",
} as const satisfies Record<string, TrajectoryState>;

export const LifecycleHooks = {
  unspecified: "LIFECYCLE_HOOK_UNSPECIFIED",
  onSessionStart: "LIFECYCLE_HOOK_ON_SESSION_START",
  onSessionEnd: "LIFECYCLE_HOOK_ON_SESSION_END",
  preTurn: "LIFECYCLE_HOOK_PRE_TURN",
  postTurn: "LIFECYCLE_HOOK_POST_TURN",
  preTool: "LIFECYCLE_HOOK_PRE_TOOL",
  postTool: "LIFECYCLE_HOOK_POST_TOOL",
  onToolError: "LIFECYCLE_HOOK_ON_TOOL_ERROR",
} as const satisfies Record<string, LifecycleHook>;

/** Numeric value 2 of TrajectoryStateUpdate.State, whichever name the harness version gives it. */
const TERMINAL_IDLE_NUMBER = 2;

/**
 * True for the idle state that ends a turn: `STATE_FULLY_IDLE` (0.1.9+), `STATE_IDLE` (≤0.1.8)
 * and the number 2 (a peer sending enum numbers).
 */
export function isTerminalIdleState(state: unknown): boolean {
  return state === "STATE_FULLY_IDLE" || state === "STATE_IDLE" || state === TERMINAL_IDLE_NUMBER;
}
