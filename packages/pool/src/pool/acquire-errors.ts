// The errors the pool rejects acquires, warms and waits with, and which one wins when several
// apply. Kept apart from the pool so the precedence (the caller's abort, then the pool closing,
// then the cause) is written once and every path that can fail an acquire uses the same words.
import { PoolError } from "../errors/pool-error.js";

/** The pool is closing or closed: nothing is handed out any more. */
export function poolClosedError(): PoolError {
  return new PoolError("POOL_CLOSED", "the harness pool is closed");
}

/** The caller's signal aborted; its reason becomes the cause. */
export function acquireAbortedError(signal: AbortSignal): PoolError {
  return new PoolError("ACQUIRE_ABORTED", "the acquire was aborted", { cause: signal.reason });
}

/** No room came free under `maxProcesses` within `maxRoomWaitMs`. */
export function capacityExhaustedError(limits: { maxProcesses: number; maxRoomWaitMs: number }): PoolError {
  return new PoolError(
    "CAPACITY_EXHAUSTED",
    `no room for another conversation: every slot of the pool's ${String(limits.maxProcesses)} processes stayed busy or parked for ${String(limits.maxRoomWaitMs)} ms`,
    { retryAfterMs: 5_000 },
  );
}

/** What an acquire was doing when it failed, for `acquireError`. */
export interface AcquireFailureContext {
  /** The acquire's own signal, when it has one. */
  readonly callerSignal: AbortSignal | undefined;
  /** Whether the pool still hands out conversations. */
  readonly accepting: boolean;
  /** The partition whose process failed to open the conversation, named in an `OPEN_FAILED`. */
  readonly partitionKey?: string;
}

/** The error an acquire rejects with, most specific first: the caller's abort, then the pool closing, then the cause. */
export function acquireError(error: unknown, context: AcquireFailureContext): PoolError {
  if (context.callerSignal?.aborted === true) return acquireAbortedError(context.callerSignal);
  if (!context.accepting) return poolClosedError();
  if (PoolError.isInstance(error)) return error;
  return new PoolError(
    "OPEN_FAILED",
    "the harness process could not open the conversation",
    context.partitionKey === undefined ? { cause: error } : { cause: error, partitionKey: context.partitionKey },
  );
}
