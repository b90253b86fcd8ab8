import { HarnessError } from "@ag-ui-antigravity/harness";
import { PoolError } from "@ag-ui-antigravity/pool";
import { RequestError } from "@agentclientprotocol/sdk";
import { AcpServerError } from "../sessions/acp-server-error.js";

/** JSON-RPC's "Invalid params", "Invalid request" and "Internal error"; ACP's "Resource not found". */
const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;

/** Harness failures the user can act on, with what to do. */
const harnessAdvice: Partial<Record<string, string>> = {
  HARNESS_NOT_FOUND: "install google-antigravity with pip, or point ANTIGRAVITY_HARNESS_PATH at localharness",
  TIMEOUT: "the turn took longer than the turn timeout and was stopped",
  TURN_FAILED: "the model or the harness reported an error",
  CONFIG_INVALID: "the session's configuration was refused",
};

/**
 * Any failure of a request as the JSON-RPC error the client gets: a message written for its user
 * and `data.code` naming the kind (this server's codes, the harness's and the pool's), never a
 * stack. A session that is not here is ACP's "Resource not found" with `data.sessionId`.
 */
export function toRequestError(error: unknown, context: { sessionId?: string } = {}): RequestError {
  if (error instanceof RequestError) return error;
  if (AcpServerError.isInstance(error)) {
    if (error.code === "SESSION_NOT_FOUND") return new RequestError(RESOURCE_NOT_FOUND, error.message, { code: error.code, ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }) });
    if (error.code === "INVALID_REQUEST") return new RequestError(INVALID_PARAMS, error.message, { code: error.code });
    if (error.code === "SESSION_BUSY") return new RequestError(INVALID_REQUEST, error.message, { code: error.code });
    return new RequestError(INTERNAL_ERROR, error.message, { code: error.code });
  }
  if (PoolError.isInstance(error)) {
    const cause = HarnessError.isInstance(error.cause) ? error.cause : undefined;
    const code = cause?.code ?? error.code;
    const advice = harnessAdvice[code];
    const message = code === "CONFIG_INVALID" ? `The session could not be opened: ${cause?.message ?? error.message}` : `The Antigravity harness could not serve this session (${code}): ${(cause ?? error).message}${advice === undefined ? "" : `; ${advice}`}.`;
    return new RequestError(code === "CONFIG_INVALID" ? INVALID_PARAMS : INTERNAL_ERROR, message, { code });
  }
  if (HarnessError.isInstance(error)) {
    const advice = harnessAdvice[error.code];
    return new RequestError(error.code === "CONFIG_INVALID" ? INVALID_PARAMS : INTERNAL_ERROR, `The Antigravity turn failed (${error.code}${advice === undefined ? "" : `: ${advice}`}): ${error.message}`, { code: error.code });
  }
  return new RequestError(INTERNAL_ERROR, error instanceof Error ? error.message : String(error), { code: "INTERNAL" });
}
