import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the pool raises, by kind. Match on these, never on messages. */
export type PoolErrorCode =
  /** The pool is closing or closed; no new conversation is handed out. */
  | "POOL_CLOSED"
  /** The caller's signal aborted the acquire before a conversation was handed out. */
  | "ACQUIRE_ABORTED"
  /** The harness process under the conversation exited or was stopped as unhealthy. */
  | "PROCESS_DIED"
  /** Starting a harness process failed; `cause` holds the client's error. */
  | "SPAWN_FAILED"
  /** The partition's processes keep dying, so the pool refuses to start another until `retryAfterMs` passes. */
  | "SPAWN_BACKOFF"
  /**
   * No room for another conversation under `maxProcesses` (every slot busy, or parked within
   * `maxParkedConversations`) within `maxRoomWaitMs`; `retryAfterMs` suggests when to try again.
   */
  | "CAPACITY_EXHAUSTED"
  /** The process is up but refused to open the conversation; `cause` holds the client's error. */
  | "OPEN_FAILED"
  /** An option passed to the pool is out of range. */
  | "CONFIG_INVALID";

/**
 * What a `PoolError` carries beside its code: the cause, when to retry, and the partition it happened
 * in.
 */
export interface PoolErrorOptions {
  /** The error that led to this one; it becomes the standard `Error.cause`. */
  cause?: unknown;
  /** For `SPAWN_BACKOFF`: how long until the partition may start a process again; for `CAPACITY_EXHAUSTED`: when to try again. */
  retryAfterMs?: number;
  /** The partition the failure happened in, when there is one. */
  partitionKey?: string;
  /** The most recent stderr lines of the process involved, when it had any. */
  stderrTail?: readonly string[];
}

/**
 * Base class of every error this package throws. `isInstance` works across the ESM and CJS builds
 * and across duplicated installs, where `instanceof` does not.
 */
export class PoolError extends CodedError<PoolErrorCode> {
  /** Milliseconds to wait before trying again: set for `SPAWN_BACKOFF` (the pause left) and `CAPACITY_EXHAUSTED`; otherwise undefined. */
  readonly retryAfterMs: number | undefined;
  /** The key of the partition the failure happened in (as in metrics and logs); undefined when no partition is involved. */
  readonly partitionKey: string | undefined;
  /** The last stderr lines of the process involved (a `PROCESS_DIED` of a process that kept them); empty otherwise. */
  readonly stderrTail: readonly string[];

  static {
    nameErrorClass(this, "PoolError");
  }

  constructor(code: PoolErrorCode, message: string, options: PoolErrorOptions = {}) {
    super(code, message, options);
    this.retryAfterMs = options.retryAfterMs;
    this.partitionKey = options.partitionKey;
    this.stderrTail = options.stderrTail ?? [];
  }
}
