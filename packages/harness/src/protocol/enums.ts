/*
 * Enum value names of the harness protocol (docs/protocol.md, "Messages"). Values travel as
 * these names; a number or a name missing here is still accepted when parsing what the harness
 * sends (and recorded as drift). Names that exist only in some releases say so where their field
 * is declared (`messages.ts`); the strict check of a release refuses the others.
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
  /** 0.1.14. */
  "LIFECYCLE_HOOK_ON_COMPACTION",
  /** 0.1.16 (in the 0.1.15 proto, but the 0.1.15 binary refused it). */
  "LIFECYCLE_HOOK_STOP",
] as const;
export type LifecycleHook = (typeof LIFECYCLE_HOOK_VALUES)[number];

/** The 0.1.10 name of what 0.1.11 renamed `AgentBehavior` (`HarnessConfig.agentMode`, 0.1.10 only). */
export const AGENT_MODE_VALUES = ["AGENT_MODE_UNSPECIFIED", "AGENT_MODE_AUTONOMOUS", "AGENT_MODE_INTERACTIVE"] as const;
export type AgentMode = (typeof AGENT_MODE_VALUES)[number];

/** How the agent treats its user (0.1.11): UNSPECIFIED runs autonomous; MINIMAL is 0.1.16. */
export const AGENT_BEHAVIOR_VALUES = [
  "AGENT_BEHAVIOR_UNSPECIFIED",
  "AGENT_BEHAVIOR_AUTONOMOUS",
  "AGENT_BEHAVIOR_INTERACTIVE",
  "AGENT_BEHAVIOR_MINIMAL",
] as const;
export type AgentBehavior = (typeof AGENT_BEHAVIOR_VALUES)[number];

/** `ModalityTokenCount.modality` (0.1.12): bare names, unlike every other enum of the protocol. */
export const MODALITY_VALUES = ["MODALITY_UNSPECIFIED", "TEXT", "IMAGE", "VIDEO", "AUDIO", "DOCUMENT"] as const;
export type Modality = (typeof MODALITY_VALUES)[number];

/** Whether a builtin runs before the turn goes on or in the background (0.1.17). */
export const TOOL_EXECUTION_MODE_VALUES = ["TOOL_EXECUTION_MODE_UNSPECIFIED", "TOOL_EXECUTION_MODE_SYNC", "TOOL_EXECUTION_MODE_ASYNC"] as const;
export type ToolExecutionMode = (typeof TOOL_EXECUTION_MODE_VALUES)[number];

/** Why the harness stopped a trajectory early (0.1.11): a budget ran out, or the model quota. */
export const STOP_REASON_VALUES = [
  "STOP_REASON_UNSPECIFIED",
  "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED",
  "STOP_REASON_MAX_TOOL_CALLS_EXCEEDED",
  "STOP_REASON_MAX_INPUT_TOKENS_EXCEEDED",
  "STOP_REASON_MAX_OUTPUT_TOKENS_EXCEEDED",
  "STOP_REASON_MAX_TOTAL_TOKENS_EXCEEDED",
  "STOP_REASON_QUOTA_EXHAUSTED",
] as const;
export type StopReason = (typeof STOP_REASON_VALUES)[number];

/** `PolicyConfig.workspaceContainment` (0.1.13). */
export const WORKSPACE_CONTAINMENT_VALUES = ["WORKSPACE_CONTAINMENT_UNSPECIFIED", "WORKSPACE_CONTAINMENT_ENABLED", "WORKSPACE_CONTAINMENT_DISABLED"] as const;
export type WorkspaceContainment = (typeof WORKSPACE_CONTAINMENT_VALUES)[number];

/** `BudgetConfig.scope` (0.1.16): the whole conversation, or from this (resumed) session on. */
export const BUDGET_SCOPE_VALUES = ["BUDGET_SCOPE_UNSPECIFIED", "BUDGET_SCOPE_LIFETIME", "BUDGET_SCOPE_FORWARD_LOOKING"] as const;
export type BudgetScope = (typeof BUDGET_SCOPE_VALUES)[number];

/** `ActionSkillLookup.operation` (0.1.19). */
export const SKILL_LOOKUP_OPERATION_VALUES = [
  "OPERATION_UNSPECIFIED",
  "OPERATION_LIST_SKILLS",
  "OPERATION_LOOKUP_SKILLS",
  "OPERATION_GET_SKILL_RESOURCES",
] as const;
export type SkillLookupOperation = (typeof SKILL_LOOKUP_OPERATION_VALUES)[number];

/** `StopResult.decision` (0.1.16): let the agent stop, or make it go on. */
export const STOP_DECISION_VALUES = ["DECISION_UNSPECIFIED", "ALLOW_STOP", "CONTINUE"] as const;
export type StopDecision = (typeof STOP_DECISION_VALUES)[number];

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
 * harness's terminal state is not reported as drift. `STATE_WAITING_FOR_SUBAGENTS` is 0.1.21.
 */
export const TRAJECTORY_STATE_VALUES = [
  "STATE_UNSPECIFIED",
  "STATE_RUNNING",
  "STATE_FULLY_IDLE",
  "STATE_IDLE",
  "STATE_CANCELLED",
  "STATE_WAITING_FOR_TASKS",
  "STATE_WAITING_FOR_SUBAGENTS",
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
  waitingForSubagents: "STATE_WAITING_FOR_SUBAGENTS",
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
  onCompaction: "LIFECYCLE_HOOK_ON_COMPACTION",
  stop: "LIFECYCLE_HOOK_STOP",
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
