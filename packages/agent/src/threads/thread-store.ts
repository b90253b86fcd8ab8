import type { ForwardedMessage } from "../input/message-fingerprint.js";

/** A thread is always named together with its agent: two agents never share an entry. */
export interface ThreadKey {
  readonly agentId: string;
  readonly threadId: string;
}

/** What a thread needs to continue after its live session is gone (swept, evicted, restarted, moved to another replica). */
export interface ThreadRecord {
  conversationId: string;
  /**
   * The transcript fingerprint: bounded ids and text digests of the user messages already forwarded
   * to the conversation (oldest first), so a cold resume neither sends them again nor misses an edit.
   */
  forwarded: ForwardedMessage[];
  /** The tool contract the conversation was built with. */
  toolSignature: string;
  updatedAt: number;
}

export type ThreadRecordInput = Omit<ThreadRecord, "updatedAt">;

export interface ThreadStoreStats {
  /** `memory`, `file` or `redis`. */
  kind: string;
  /** Threads remembered, where the store can count them cheaply (the file store's last scan). */
  rememberedThreads?: number;
  /** Writes that failed since start (each is retried with the next change). */
  writeFailures: number;
  /** Changes waiting for a successful write. */
  pendingWrites: number;
  /** Pending changes given up because too many piled up while the store was failing. */
  droppedWrites: number;
  /** Commands sent to a remote store (Redis) so far: its round trips. */
  commands?: number;
}

/** Whether a replica may hold a thread's live session. */
export type LeaseOutcome =
  /** The lease is ours; `previousHolder` is the replica that held it before, if another one did. */
  | { acquired: true; previousHolder?: string }
  /** A live replica holds the thread. */
  | { acquired: false; holder: string };

/**
 * Per-thread leases saying which replica holds a thread's live session (harness conversation,
 * parked turns). A lease held by a replica that stopped sending heartbeats is void.
 */
export interface ThreadLeases {
  /** This replica's id. */
  readonly replicaId: string;
  acquire(key: ThreadKey): Promise<LeaseOutcome>;
  /** Releases the lease if this replica holds it. Never throws. */
  release(key: ThreadKey): Promise<void>;
  /** The replica holding the thread's lease, if a live one does. */
  holder(key: ThreadKey): Promise<string | undefined>;
}

/**
 * The thread → conversation map, keyed by (agent id, thread id). Implementations: `MemoryThreadStore`
 * (one process), `FileThreadStore` (the embedded default with a save dir: one machine, any number of
 * agents and processes), `RedisThreadStore` (replicas).
 *
 * `set` and `delete` never reject because storage failed: the change is kept and written again
 * with the next change, and the failure is logged and counted in `stats()`. A run is never failed
 * (nor every later run) because a write did not land. `get` rejects when the store cannot be read.
 */
export interface ThreadStore {
  get(key: ThreadKey): Promise<ThreadRecord | undefined>;
  set(key: ThreadKey, record: ThreadRecordInput): Promise<void>;
  delete(key: ThreadKey): Promise<void>;
  stats(): ThreadStoreStats;
  /** Present when the store can say which replica holds a thread's live session (Redis). */
  readonly leases?: ThreadLeases;
  /**
   * Present when the store lives elsewhere (Redis): resolves when it answers, rejects when it cannot
   * be reached. The agent's `readiness()` calls it, so a replica whose store is gone stops being
   * sent runs it would refuse.
   */
  ping?(): Promise<void>;
  /** Finishes pending work (a last write attempt) and stops timers. Idempotent. */
  close(): Promise<void>;
}

export interface ThreadStoreLogger {
  warn?(details: Record<string, unknown>, message: string): void;
}

/** Options every store takes. */
export interface ThreadStoreCommonOptions {
  /** A thread not updated for this long is forgotten. Default 30 days. */
  ttlMs?: number;
  /** Forwarded message fingerprints kept per thread (the newest). Default 500. */
  maxForwardedPerThread?: number;
  logger?: ThreadStoreLogger;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export const DEFAULT_THREAD_TTL_MS = 30 * 24 * 60 * 60_000;
export const DEFAULT_MAX_FORWARDED_PER_THREAD = 500;

/** The reason a built-in store's `signal` aborts with. */
export function threadStoreClosed(): DOMException {
  return new DOMException("The thread store was closed.", "AbortError");
}
