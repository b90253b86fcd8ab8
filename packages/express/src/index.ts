export { createAntigravityApp } from "./app/create-antigravity-app.js";
export type { AntigravityApp } from "./app/create-antigravity-app.js";
export type { AntigravityAppOptions, AntigravityCorsOptions } from "./app/app-options.js";
export { createAgentRouter } from "./routes/create-agent-router.js";
export type { AgentRouter } from "./routes/create-agent-router.js";
export type { AgentRouterCloseOptions, AgentRouterLifetime } from "./routes/router-lifetime.js";
export type { AgentOrAgents } from "./options/agent-registry.js";
export {
  DEFAULT_CLIENT_LIMITS,
  DEFAULT_FIRST_EVENT_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_BUFFERED_BYTES,
} from "./options/binding-options.js";
export type { AgentRouterOptions } from "./options/binding-options.js";
export type { ClientLimits } from "./limits/client-accounts.js";
export type { AuthorizeRequest, Principal } from "./auth/principal.js";
export { DEFAULT_MAX_THREAD_OWNERS, MemoryOwnershipStore } from "./auth/memory-ownership-store.js";
export type { MemoryOwnershipStoreOptions } from "./auth/memory-ownership-store.js";
export { FileOwnershipStore } from "./auth/file-ownership-store.js";
export type { FileOwnershipStoreOptions } from "./auth/file-ownership-store.js";
export { RedisOwnershipStore } from "./auth/redis-ownership-store.js";
export type { RedisOwnershipStoreOptions } from "./auth/redis-ownership-store.js";
export { DEFAULT_OWNERSHIP_TTL_MS } from "./auth/thread-ownership-store.js";
export type { OwnershipKey, ThreadOwnershipStats, ThreadOwnershipStore } from "./auth/thread-ownership-store.js";
export { ExpressBindingError } from "./errors/express-binding-error.js";
export type { ExpressBindingErrorCode, ExpressBindingErrorOptions } from "./errors/express-binding-error.js";
export type { HttpErrorBody, HttpErrorCode, HttpErrorIssue } from "./errors/http-error.js";
export { DEFAULT_RUN_ERROR_STATUSES, httpStatusForRunErrorCode } from "./errors/run-error-status.js";
export { REPLICA_HEADER } from "./http/replica-header.js";
export { THREAD_ID_HEADER } from "./request/thread-id-header.js";
export { KEEP_ALIVE_COMMENT } from "./stream/event-stream-writer.js";
