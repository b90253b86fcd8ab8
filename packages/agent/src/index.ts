export { AntigravityAgent } from "./antigravity-agent.js";
export type { AgentStats } from "./agent-core.js";
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
export type { SessionStats } from "./sessions/session-manager.js";
export { FileThreadStore } from "./threads/store/file-thread-store.js";
export type { FileThreadStoreOptions } from "./threads/store/file-thread-store.js";
export { MemoryThreadStore } from "./threads/store/memory-thread-store.js";
export type { MemoryThreadStoreOptions } from "./threads/store/memory-thread-store.js";
export { RedisThreadStore } from "./threads/store/redis-thread-store.js";
export type { RedisThreadStoreOptions } from "./threads/store/redis-thread-store.js";
export { DEFAULT_MAX_OWNED_THREADS } from "./threads/store/memory-thread-store.js";
export type {
  LeaseOutcome,
  LeaseToken,
  StoredTranscript,
  ThreadKey,
  ThreadLeases,
  ThreadListing,
  ThreadRecord,
  ThreadRecordInput,
  ThreadStore,
  ThreadStoreCommonOptions,
  ThreadStoreLogger,
  ThreadStoreStats,
  ThreadSummary,
} from "./threads/store/thread-store.js";
export type { ForwardedMessage } from "./input/message-fingerprint.js";
export { threadWorkspacePath } from "./sessions/thread-workspace.js";
