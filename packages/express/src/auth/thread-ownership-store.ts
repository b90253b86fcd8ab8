/** A thread is owned per agent: the same thread id on two agents is two threads. */
export interface OwnershipKey {
  /** The agent's route name, or for a single agent its `agentId` (`"agent"` without one). */
  readonly agentId: string;
  /** The AG-UI `threadId` of the run or connect, as the client sent it. */
  readonly threadId: string;
}

import type { ThreadClaim } from "@ag-ui-antigravity/foundation";

export type { ThreadClaim } from "@ag-ui-antigravity/foundation";

/** What an ownership store reports for the router's stats: its kind and how many threads have an owner. */
export interface ThreadOwnershipStats {
  /** `memory`, `file` or `redis`. */
  kind: string;
  /** Owned threads, where the store can count them cheaply. */
  owners?: number;
  /** Claims refused because the store was full. */
  refusedFull: number;
}

/**
 * Which principal owns each (agent, thread), for agents that do not keep their threads' owners
 * themselves (an `AntigravityAgent` does, in its thread records: see `ThreadRecords`). A thread is
 * claimed by the first principal whose run passed validation and authorization, and is never taken
 * over while its entry lives: entries expire only after `ttlMs` without a run of their owner, never
 * because other threads came along. Implementations: `MemoryOwnershipStore` (one process; the
 * default), `FileOwnershipStore` (one machine, survives restarts), `RedisOwnershipStore` (replicas).
 *
 * Methods reject when the store cannot be reached; the binding then refuses the run (fail closed).
 */
export interface ThreadOwnershipStore {
  /**
   * Asked before each run `authorize` let through, with the principal's id: takes the thread for
   * `ownerId` if nobody owns it (`claimed`), confirms an existing claim and starts its TTL again
   * (`owned`), or reports another owner (`refused`, answered 403) or no room (`full`, answered 503).
   * Must be atomic: two concurrent callers never both get `claimed`.
   */
  claim(key: OwnershipKey, ownerId: string): Promise<ThreadClaim>;
  /** Undoes a claim whose run was refused before it started, if `ownerId` still owns the thread. */
  release(key: OwnershipKey, ownerId: string): Promise<void>;
  /** The principal id owning the thread, or undefined when nobody does (never claimed, or expired). Asked by `connect`; claims nothing. */
  ownerOf(key: OwnershipKey): Promise<string | undefined>;
  /** A cheap synchronous snapshot for the app's metrics; the binding itself never reads it. */
  stats(): ThreadOwnershipStats;
  /**
   * Stops the store; idempotent. The binding closes only the default store it created, when the
   * router closes; a store passed as `ownershipStore` is the caller's to close.
   */
  close(): Promise<void>;
}

/** How long an owned thread is kept without a run of its owner. 30 days, like the agent's thread map. */
export const DEFAULT_OWNERSHIP_TTL_MS = 30 * 24 * 60 * 60_000;

/** The reason a built-in store's `signal` aborts with. */
export function ownershipStoreClosed(): DOMException {
  return new DOMException("The thread ownership store was closed.", "AbortError");
}
