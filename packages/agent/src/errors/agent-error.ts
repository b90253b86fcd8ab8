import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/**
 * Failure kinds of the agent layer. Each is also the `code` of the RUN_ERROR a run ends with, so
 * clients and the HTTP binding can match on it.
 */
export type AgentErrorCode =
  | "CONFIG_INVALID"
  | "INVALID_INPUT"
  | "THREAD_BUSY"
  | "SESSION_LIMIT"
  | "CAPACITY_EXHAUSTED"
  | "HISTORY_DIVERGED"
  | "AGENT_CLOSED"
  | "THREAD_STORE_UNAVAILABLE"
  | "THREAD_ELSEWHERE"
  | "REPLAY_UNAVAILABLE"
  | "UNKNOWN_THREAD"
  | "NOTIFY_REFUSED"
  | "PARKED_TURN_LOST";

/** What an `AgentError` carries beside its code and message: the error that caused it. */
export interface AgentErrorOptions {
  /** The error that led to this one; it becomes the standard `Error.cause`. */
  cause?: unknown;
}

/** Base class of every error the agent package throws; `isInstance` works across bundles. */
export class AgentError extends CodedError<AgentErrorCode> {
  static {
    nameErrorClass(this, "AgentError");
  }
}
