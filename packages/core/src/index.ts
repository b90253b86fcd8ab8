// The vocabulary every @ag-ui-antigravity package shares, published once: the logger contract, the
// coded error base, the client error codes, the Redis client shape and the thread types the agent
// and the Express binding exchange. No other package re-exports these names (scripts/api-report.mjs
// fails when two packages export one name), so each has exactly one home.
export { CodedError } from "./errors/coded-error.js";
export type { CodedErrorOptions } from "./errors/coded-error.js";
export { CLIENT_ERROR_CODES, isClientErrorCode } from "./errors/client-error-codes.js";
export type { ClientErrorCode, ClientErrorCodeInfo } from "./errors/client-error-codes.js";
export type { LogFields, Logger } from "./logging/logger.js";
export type { RedisCommandClient } from "./redis/redis-command-client.js";
export type { ThreadHolding, ThreadHoldings } from "./threads/thread-holdings.js";
export type { ListedThread, ThreadClaim, ThreadRecords, TranscriptMessage } from "./threads/thread-records.js";
export type { AgentReadiness } from "./readiness/agent-readiness.js";
