export { AntigravityAgent } from "./antigravity-agent.js";
export type { AgentStats } from "./agent-core.js";
export type { AgentReadiness } from "@ag-ui-antigravity/foundation";
export type {
  AgentCompactionArgs,
  AgentStopArgs,
  AntigravityAgentOptions,
  AntigravityAgentLogger,
  HarnessSource,
  ReconnectOptions,
  ScheduleLimits,
  ServerTool,
  ServerToolContext,
} from "./agent-options.js";
export { AgentError } from "./errors/agent-error.js";
export type { AgentErrorCode, AgentErrorOptions } from "./errors/agent-error.js";
export { CLIENT_ERROR_CODES, isClientErrorCode } from "@ag-ui-antigravity/foundation";
export type { ClientErrorCode, ClientErrorCodeInfo } from "@ag-ui-antigravity/foundation";
export type { SessionStats } from "./sessions/session-manager.js";
export type { ThreadHolding, ThreadHoldings } from "@ag-ui-antigravity/foundation";
export { FileThreadStore } from "./threads/file-thread-store.js";
export type { FileThreadStoreOptions } from "./threads/file-thread-store.js";
export { MemoryThreadStore } from "./threads/memory-thread-store.js";
export type { MemoryThreadStoreOptions } from "./threads/memory-thread-store.js";
export { RedisThreadStore } from "./threads/redis-thread-store.js";
export type { RedisThreadStoreOptions } from "./threads/redis-thread-store.js";
export type { RedisCommandClient } from "@ag-ui-antigravity/foundation";
export type {
  LeaseOutcome,
  ThreadKey,
  ThreadLeases,
  ThreadRecord,
  ThreadRecordInput,
  ThreadStore,
  ThreadStoreCommonOptions,
  ThreadStoreLogger,
  ThreadStoreStats,
} from "./threads/thread-store.js";
export type { ForwardedMessage } from "./input/message-fingerprint.js";
export { threadWorkspacePath } from "./sessions/thread-workspace.js";
