import { runRefusalStatuses } from "@ag-ui-antigravity/foundation";

/**
 * The `RUN_ERROR` codes that, when they arrive as the agent's first event, are answered with an
 * HTTP status and a JSON body instead of a stream. A client then sees `HTTP 409: …` at once, and
 * proxies and retry logic can act on the status. Any other first `RUN_ERROR` is streamed as is.
 * Derived from the one vocabulary of client codes (docs/error-codes.md): the binding may not import
 * the agent that raises most of them, so both read the same table.
 */
export const DEFAULT_RUN_ERROR_STATUSES: Readonly<Record<string, number>> = Object.freeze(runRefusalStatuses());

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
