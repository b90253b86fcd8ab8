/**
 * Every code a client of ours can receive: the `code` of a `RUN_ERROR` event and of an HTTP error
 * body (`{ error: { code, message } }`). Internal error classes keep their own codes; this is the
 * contract on the wire, so adding a code is a minor change and removing one is a major one.
 *
 * It lives here because two layers need the same table and may not import each other: the agent
 * package (which raises most of these) and the Express binding (which answers some of them with an
 * HTTP status). docs/error-codes.md is rendered from it, and a test fails when that file is stale.
 *
 * @typeParam Status - the entry's own HTTP status (`400`, `null`, …), so a caller can take only codes that have one.
 */
export interface ClientErrorCodeInfo<Status extends number | null = number | null> {
  /** What a client should understand, in one sentence. */
  readonly meaning: string;
  /** The layer that sends it, for the docs table. */
  readonly from: "agent" | "hitl" | "pool" | "harness" | "express";
  /**
   * The HTTP status of an error body carrying this code, or `null` when the code only travels as a
   * streamed `RUN_ERROR`.
   */
  readonly httpStatus: Status;
  /**
   * True when a `RUN_ERROR` with this code, arriving as an agent's first event, is answered with
   * `httpStatus` instead of a stream (nothing ran, so a proxy or a retry can act on the status).
   */
  readonly refusesRun: boolean;
}

// Each entry keeps its status's literal type, so a caller can require a code that has an HTTP status
// (the Express binding's `httpError` takes only those).
const code = <Status extends number | null>(
  from: ClientErrorCodeInfo["from"],
  httpStatus: Status,
  refusesRun: boolean,
  meaning: string,
): ClientErrorCodeInfo<Status> => Object.freeze({ from, httpStatus, refusesRun, meaning });

/**
 * The vocabulary itself: each code a client can receive, with the package that sends it, its HTTP
 * status, whether it refuses a run before anything ran, and what it means (docs/error-codes.md).
 */
export const CLIENT_ERROR_CODES = Object.freeze({
  // Refused before anything ran: what the client sent cannot be served.
  INVALID_JSON: code("express", 400, false, "The request body is not JSON the server can read (empty, truncated, bad UTF-8, bad compression)."),
  INVALID_INPUT: code("agent", 400, true, "The run input (or a header) does not have the shape AG-UI and this agent accept; `issues` says where."),
  INVALID_TOOL_SCHEMA: code("hitl", 400, true, "A frontend tool's name or JSON Schema cannot become a harness tool (too big, too deep, invalid)."),
  AMBIGUOUS_ANSWER: code("hitl", 400, true, "An interrupt answer names no interrupt while several are parked, or answers one twice."),
  UNKNOWN_INTERRUPT: code("hitl", 400, true, "An interrupt answer names an interrupt this thread never raised, or none is parked."),
  INVALID_ANSWER: code("hitl", 400, true, "An interrupt answer does not validate against the interrupt's response schema."),
  ANSWER_FOR_FRONTEND_TOOL: code("hitl", 400, true, "An interrupt answer was sent for a parked frontend tool, which only a tool message resolves."),
  UNAUTHENTICATED: code("express", 401, true, "The caller is not known to the server's authorize hook."),
  FORBIDDEN: code("express", 403, true, "The caller is known but may not use this agent or thread."),
  NOT_FOUND: code("express", 404, true, "No route matches the method and path."),
  AGENT_NOT_FOUND: code("express", 404, false, "No agent is served at this path."),
  THREAD_BUSY: code("agent", 409, true, "Another run of this thread is in progress; retry when it ends."),
  INTERRUPTS_PENDING: code("hitl", 409, true, "New input arrived while interrupts are parked and the agent is set to refuse it."),
  HISTORY_DIVERGED: code("agent", 409, true, "The messages sent do not continue the thread the server holds."),

  INTERRUPT_EXPIRED: code("hitl", 410, true, "The answer arrived after the interrupt's expiry."),
  BODY_TOO_LARGE: code("express", 413, false, "The request body is larger than the server accepts."),
  UNSUPPORTED_MEDIA_TYPE: code("express", 415, false, "The request body is not application/json, or its encoding or charset is unsupported."),
  RATE_LIMITED: code("express", 429, true, "This caller holds as much as its limits allow (runs in flight, parked threads, open streams); `Retry-After` says when to retry."),
  INTERNAL_ERROR: code("express", 500, false, "The server failed in a way the client did not cause; the message carries a reference for the log."),
  CONNECT_NOT_SUPPORTED: code("express", 501, false, "The agent does not implement AG-UI connect (reconnecting to a run)."),
  THREADS_NOT_LISTED: code("express", 501, false, "The agent keeps no thread list (`GET /<agent>/threads`)."),
  // The server cannot serve the run now; nothing ran.
  CAPACITY_EXHAUSTED: code("pool", 503, true, "The server has no harness conversation to give (every one busy, or parked within the pool's cap); retry after `Retry-After` or elsewhere."),
  SESSION_LIMIT: code("agent", 503, true, "The agent holds as many live sessions as it may."),
  THREAD_STORE_UNAVAILABLE: code("agent", 503, true, "The agent's thread store cannot be reached."),
  THREAD_ELSEWHERE: code("agent", 503, true, "Another live replica holds this thread's session (a run for a gone replica's thread waits and takes it over instead); retry after `Retry-After`: a load balancer sends it on."),
  OWNERSHIP_UNAVAILABLE: code("express", 503, false, "The thread ownership store cannot be reached."),
  OWNERSHIP_FULL: code("express", 503, false, "The thread ownership store holds as many threads as it may."),
  SERVER_CLOSED: code("express", 503, false, "The server is shutting down; try another replica or later."),
  AGENT_CLOSED: code("agent", 503, true, "The agent is closing."),
  POOL_CLOSED: code("pool", 503, true, "The harness pool is closing."),
  HARNESS_NOT_FOUND: code("harness", 503, true, "No Antigravity harness (localharness) is installed on the server."),
  SPAWN_FAILED: code("harness", 503, true, "The harness could not be started."),
  SPAWN_BACKOFF: code("pool", 503, true, "The harness keeps failing to start; the server retries after a pause."),
  HANDSHAKE_FAILED: code("harness", 503, true, "The harness started but did not complete its handshake."),
  CONFIG_INVALID: code("agent", 503, true, "The agent's configuration was refused (an invalid option, the safety gate, or an option the harness's release lacks); the message names it."),
  // During a run: the run ends with this RUN_ERROR.
  CANCELLED: code("agent", null, false, "The run was cancelled (the client disconnected or aborted it)."),
  TIMEOUT: code("harness", null, false, "The turn took too long and was stopped."),
  TURN_FAILED: code("harness", null, false, "The model call failed without an HTTP status."),
  MODEL_ERROR: code("agent", null, false, "The model call failed; `MODEL_ERROR_<status>` (e.g. `MODEL_ERROR_429`) carries its HTTP status when it had one."),
  TURN_BUSY: code("harness", null, false, "The harness conversation was still running a turn."),
  MCP_LOAD_FAILED: code("harness", null, false, "An MCP server of the agent could not be loaded, so the turn could not run."),
  INIT_FAILED: code("harness", null, false, "The harness could not open the conversation."),
  CONNECTION_CLOSED: code("harness", null, false, "The connection to the harness was lost; the next run rebuilds it."),
  PROCESS_DIED: code("pool", null, false, "The harness process stopped unexpectedly; the next run starts a new one."),
  OPEN_FAILED: code("pool", null, false, "The pool could not open a conversation for the run."),
  ACQUIRE_ABORTED: code("pool", null, false, "The run was aborted while it waited for a harness."),
  PROTOCOL_INVALID_FRAME: code("harness", null, false, "The harness sent a frame that is not valid JSON; the conversation is rebuilt."),
  PROTOCOL_FRAME_TOO_LARGE: code("harness", null, false, "The harness sent a frame larger than the client accepts; the conversation is rebuilt."),
  PROTOCOL_INVALID_MESSAGE: code("harness", null, false, "The harness sent a message that does not match the protocol; the conversation is rebuilt."),
  PROTOCOL_SKEW: code("harness", null, false, "The harness could not parse what the server sent: it runs another protocol version than the server speaks (a server configuration error)."),
  BUDGET_EXCEEDED: code("harness", null, false, "The harness stopped the turn because a budget (model calls, tool calls or tokens) ran out; the reply so far is kept."),
  QUOTA_EXHAUSTED: code("harness", null, false, "The model quota is exhausted; the reply so far is kept; retry later."),
  PARKED_TURN_LOST: code("agent", null, false, "The turn waiting for this answer was on a server that is gone; the next message continues the thread."),
  REPLAY_UNAVAILABLE: code("agent", null, false, "The run asked to be replayed is no longer held."),
  UNKNOWN_THREAD: code("agent", null, false, "No thread with this id is known to the agent."),
  NOTIFY_REFUSED: code("agent", null, false, "A trigger or notification for the thread was refused."),
  NOT_IN_SERVER_TOOL: code("hitl", null, false, "A server tool helper was called outside a server tool (a server bug)."),
  RUN_ACTIVE: code("hitl", null, false, "A run was started while another run of the thread is still attached."),
  CLOSED: code("hitl", null, false, "The thread's interrupt bridge was closed; the next run rebuilds it."),
  ENCODING_ERROR: code("express", null, false, "An event could not be encoded for the transport; the run stops."),
  AGENT_ERROR: code("agent", null, false, "The agent failed unexpectedly; the message carries a reference for the log."),
} satisfies Record<string, ClientErrorCodeInfo>);

/** A code a client can receive; `MODEL_ERROR_<status>` carries the model call's HTTP status. */
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES | `MODEL_ERROR_${number}`;

const modelErrorWithStatus = /^MODEL_ERROR_\d+$/;

/**
 * True when `value` is a code of the client vocabulary (`CLIENT_ERROR_CODES`, or a
 * `MODEL_ERROR_<status>`).
 */
export function isClientErrorCode(value: string): value is ClientErrorCode {
  return Object.hasOwn(CLIENT_ERROR_CODES, value) || modelErrorWithStatus.test(value);
}
