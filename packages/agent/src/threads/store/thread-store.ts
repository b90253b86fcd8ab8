import type { Message, State } from "@ag-ui/client";
import type { ThreadClaim } from "@ag-ui-antigravity/foundation";
import type { ForwardedMessage } from "../../input/message-fingerprint.js";

/** A thread is always named together with its agent: two agents never share an entry. */
export interface ThreadKey {
  /** The id the agent keeps its threads under: its `agentId`, else the route name the HTTP binding serves it under, else `agent`. */
  readonly agentId: string;
  /** The AG-UI thread id, as the client sent it (client input: stores name files and keys by a digest of it, never by the text). */
  readonly threadId: string;
}

/** What a thread list shows of a thread besides its id: bounded, set by its first prompt. */
export interface ThreadSummary {
  /** The thread id, when it is short enough to keep (512 characters); a longer one is never listed. */
  threadId?: string;
  /** The start of the thread's first user message (200 characters at most). */
  firstUserMessage?: string;
}

/**
 * The one record of a thread (per agent): everything the thread needs to continue after its live
 * session is gone (swept, evicted, restarted, moved to another replica) and everything that says
 * who may use it. The transcript, written at the end of runs, is read apart (`getTranscript`).
 */
export interface ThreadRecord {
  /** The thread's harness conversation; absent while it has none yet (claimed by its owner before its first run opened one). */
  conversationId?: string;
  /**
   * The transcript fingerprint: bounded ids and text digests of the newest user messages already
   * forwarded to the conversation (oldest first), so a cold resume neither sends them again nor
   * misses an edit.
   */
  forwarded: ForwardedMessage[];
  /** The tool contract the conversation was built with. */
  toolSignature: string;
  /** The principal that owns the thread (with the HTTP binding's `authorize`); it never changes while the record lives. */
  owner?: string;
  /** What the owner's thread list shows of it; set by the first run that forwarded a prompt, absent before. */
  summary?: ThreadSummary;
  /** When the record was first written (ms since the epoch). */
  createdAt: number;
  /** When it was last written: a thread not updated for the store's `ttlMs` is forgotten, owner and all. */
  updatedAt: number;
}

/** What a live session writes of its thread's record: the rest (owner, transcript) is kept as it is. */
export interface ThreadRecordInput {
  /** The harness conversation the thread's session runs on: what a cold resume reopens. */
  conversationId: string;
  /** Fingerprints of the user messages forwarded so far, oldest first; the store keeps the newest `maxForwardedPerThread`. */
  forwarded: ForwardedMessage[];
  /** A digest of the tool contract (every server and frontend tool's name, description and schema) the conversation was built with. */
  toolSignature: string;
  /** The thread's summary, set by its first prompt and carried on (the session got it with the record). */
  summary?: ThreadSummary;
  /** When the record was first written, carried on the same way; now when absent. */
  createdAt?: number;
}

/**
 * The thread as its clients saw it, within the store's byte bound (its newest messages), for a
 * `connect` after the process that served it is gone: a reloaded page gets its chat back.
 */
export interface StoredTranscript {
  /** The newest messages, oldest first; to fit the bound the oldest go first (counted in `omittedMessages`). */
  messages: Message[];
  /** The shared state; absent when it alone outgrew the bound. */
  state?: State;
  /** Older messages the store no longer holds (the bound, or the agent's own transcript bound). */
  omittedMessages: number;
}

/** A thread in a principal's thread list. */
export interface ThreadListing {
  /** The thread's AG-UI id; a thread whose id is longer than 512 characters is never listed. */
  threadId: string;
  /** When the thread was last written (ms since the epoch). */
  lastActivityAt: number;
  /** The start of its first user message (200 characters at most), when there was one. */
  firstUserMessage?: string;
}

/** The lease a session holds its thread by (`ThreadLeases`): writes that carry it are refused once another replica took the thread. */
export interface LeaseToken {
  /** The fencing token: it grows with every acquisition of the thread's lease, by any replica. */
  readonly fence: number;
}

/**
 * What a thread store reports for the agent's stats: its kind, what it remembers, and its failed or
 * pending writes.
 */
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
  /** Writes refused because their lease was taken by another replica (a stale holder's). */
  staleWritesRefused?: number;
  /** Commands sent to a remote store (Redis) so far: its round trips. */
  commands?: number;
}

/** Whether a replica may hold a thread's live session. */
export type LeaseOutcome =
  /** The lease is ours, with its fencing token; `previousHolder` is the replica that held it before, if another one did. */
  | { acquired: true; fence: number; previousHolder?: string }
  /** A live replica holds the thread (it was seen beating, or the wait for it to go ran out). */
  | { acquired: false; holder: string };

/**
 * Per-thread leases saying which replica holds a thread's live session (harness conversation,
 * parked turns), with fencing: every acquisition hands out a larger token, every write of a session
 * carries its token, and a write whose token is no longer the thread's is refused. A lease held by a
 * replica that stopped sending heartbeats is void.
 */
export interface ThreadLeases {
  /** This replica's id. */
  readonly replicaId: string;
  /**
   * Takes the thread's lease. When another replica holds it, waits while that replica may be gone
   * (its heartbeat neither lapses nor beats again), at most its heartbeat's time to live and a
   * margin, then takes the thread over; a holder seen beating keeps it (`acquired: false`).
   */
  acquire(key: ThreadKey, options?: { signal?: AbortSignal }): Promise<LeaseOutcome>;
  /** Whether the lease is still this replica's with this token, and this replica alive; asked before every run. */
  confirm(key: ThreadKey, lease: LeaseToken): Promise<boolean>;
  /** Releases the lease if this replica holds it with this token. Never throws. */
  release(key: ThreadKey, lease: LeaseToken): Promise<void>;
  /** The replica holding the thread's lease, if a live one does. */
  holder(key: ThreadKey): Promise<string | undefined>;
  /**
   * Hears every lease found lost: a write refused because another replica took the thread (its key
   * and the token it carried), or this replica's heartbeat lapsed (`"all"`: every lease it held may
   * be another's now). Returns the unsubscribe.
   */
  onLost(listener: (lost: { key: ThreadKey; lease: LeaseToken } | "all") => void): () => void;
  /** Tells the listeners now when this replica's heartbeat lapsed since its last beat (a pause, a partition); true when it did. */
  checkLapse(): boolean;
}

/**
 * The one record per (agent, thread): conversation, owner, transcript, lease. One module with three
 * backends: `MemoryThreadStore` (one process), `FileThreadStore` (the embedded default with a save
 * dir: one machine, any number of agents and processes), `RedisThreadStore` (replicas, with leases).
 * The agent is its one user; the HTTP binding reaches it through the agent (`ThreadRecords`).
 *
 * `set`, `setTranscript` and `delete` never reject because storage failed: the change is kept and
 * written again with the next change, and the failure is logged and counted in `stats()`. A run is
 * never failed (nor every later run) because a write did not land. `get`, `claim` and `listByOwner`
 * reject when the store cannot be read.
 */
export interface ThreadStore {
  /**
   * The thread's record, or undefined when there is none (never written, expired, deleted, or not
   * readable as this thread's). A thread claimed before its first run has only its owner, with no
   * fingerprints and no conversation. Rejects when the store cannot be read.
   */
  get(key: ThreadKey): Promise<ThreadRecord | undefined>;
  /** Writes the session's part of the record (conversation, fingerprints, tool contract, summary); with `lease`, only while it is the thread's. */
  set(key: ThreadKey, record: ThreadRecordInput, options?: { lease?: LeaseToken }): Promise<void>;
  /** The transcript a `connect` restores once the live one is gone; undefined when none was kept. Rejects when the store cannot be read. */
  getTranscript(key: ThreadKey): Promise<StoredTranscript | undefined>;
  /** Keeps the thread's transcript, cut to the store's bound; with `lease`, only while it is the thread's. */
  setTranscript(key: ThreadKey, transcript: StoredTranscript, options?: { lease?: LeaseToken }): Promise<void>;
  /**
   * Gives the thread to `owner` if nobody owns it (`claimed`), says whether it is theirs already
   * (`owned`, and the ownership is kept alive) or another's (`refused`), or that the store cannot
   * take another owner (`full`). Atomic across the store's users.
   */
  claim(key: ThreadKey, owner: string): Promise<ThreadClaim>;
  /** Undoes a claim whose run was refused before it ran: only while the thread has no conversation yet. */
  releaseClaim(key: ThreadKey, owner: string): Promise<void>;
  /** The threads `owner` owns on agent `agentId`, the newest first, at most `limit`. */
  listByOwner(agentId: string, owner: string, options: { limit: number }): Promise<ThreadListing[]>;
  /** Forgets the thread's record and transcript (what else goes with them is each store's to say). Never rejects because storage failed. */
  delete(key: ThreadKey): Promise<void>;
  /** Counters for the agent's `stats()`; synchronous and cheap, so a `/metrics` route may ask at every scrape. */
  stats(): ThreadStoreStats;
  /** Whether transcripts outlive the process (file, Redis): the agent writes them only then. */
  readonly keepsTranscripts: boolean;
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

/** Where a thread store reports a write it could not make: the `warn` level of the packages' `Logger`. */
export interface ThreadStoreLogger {
  /** Told each write that failed (it is retried with the next change), a failed clean-up and, for Redis, heartbeat and lease trouble: details (`error`, …) first, then the message. */
  warn?(details: Record<string, unknown>, message: string): void;
}

/** Options every store takes. */
export interface ThreadStoreCommonOptions {
  /** A thread not updated for this long is forgotten, its owner with it. Default 30 days. */
  ttlMs?: number;
  /** Forwarded message fingerprints kept per thread (the newest). Default 500. */
  maxForwardedPerThread?: number;
  /** Characters of a thread's transcript kept (its newest messages). Default 256 KiB. */
  maxTranscriptBytes?: number;
  /** Where failed writes are reported. Default: nowhere (the agent gives the store it makes itself its own logger). */
  logger?: ThreadStoreLogger;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export const DEFAULT_THREAD_TTL_MS = 30 * 24 * 60 * 60_000;
export const DEFAULT_MAX_FORWARDED_PER_THREAD = 500;
export const DEFAULT_MAX_STORED_TRANSCRIPT_BYTES = 256 * 1024;

/** The reason a built-in store's `signal` aborts with. */
export function threadStoreClosed(): DOMException {
  return new DOMException("The thread store was closed.", "AbortError");
}
