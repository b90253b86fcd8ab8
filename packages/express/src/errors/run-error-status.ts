/**
 * The `RUN_ERROR` codes that, when they arrive as the agent's first event, are answered with an
 * HTTP status and a JSON body instead of a stream. A client then sees `HTTP 409: …` at once, and
 * proxies and retry logic can act on the status. Any other first `RUN_ERROR` is streamed as is.
 */
export const DEFAULT_RUN_ERROR_STATUSES: Readonly<Record<string, number>> = Object.freeze({
  INVALID_INPUT: 400,
  INVALID_TOOL_SCHEMA: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  THREAD_BUSY: 409,
  RATE_LIMITED: 429,
  CAPACITY_EXHAUSTED: 503,
  // The codes @ag-ui-antigravity/agent and /hitl refuse a run with before it starts: the answers
  // or input the client sent cannot be applied, so nothing ran and nothing was settled.
  AMBIGUOUS_ANSWER: 400,
  UNKNOWN_INTERRUPT: 400,
  INVALID_ANSWER: 400,
  ANSWER_FOR_FRONTEND_TOOL: 400,
  INTERRUPT_EXPIRED: 410,
  INTERRUPTS_PENDING: 409,
  HISTORY_DIVERGED: 409,
  SESSION_LIMIT: 503,
  // The agent's thread store is unreachable, or another replica holds the thread's live session.
  THREAD_STORE_UNAVAILABLE: 503,
  THREAD_ELSEWHERE: 409,
});

/**
 * The HTTP status for a `RUN_ERROR` code met before the stream started, or `undefined` when the
 * error should be streamed. `overrides` extend or replace the defaults; an override of `null`
 * removes a default so that code is streamed.
 */
export function httpStatusForRunErrorCode(
  code: string | undefined,
  overrides: Readonly<Record<string, number | null>> = {},
): number | undefined {
  if (code === undefined) return undefined;
  if (Object.hasOwn(overrides, code)) return overrides[code] ?? undefined;
  return Object.hasOwn(DEFAULT_RUN_ERROR_STATUSES, code) ? DEFAULT_RUN_ERROR_STATUSES[code] : undefined;
}
