import { Lifetime, type ThreadClaim } from "@ag-ui-antigravity/foundation";
import { ThreadRecordPolicy } from "./record-policy.js";
import { agentDigest, threadKeyDigest } from "./thread-digest.js";
import {
  type StoredTranscript,
  type ThreadKey,
  type ThreadListing,
  type ThreadRecord,
  type ThreadRecordInput,
  type ThreadStore,
  type ThreadStoreCommonOptions,
  type ThreadStoreStats,
  threadStoreClosed,
} from "./thread-store.js";

/** Owned threads the in-memory store keeps at most by default. */
export const DEFAULT_MAX_OWNED_THREADS = 100_000;

/** How many threads a `MemoryThreadStore` keeps in memory, owned and unowned. */
export interface MemoryThreadStoreOptions extends Omit<ThreadStoreCommonOptions, "logger" | "maxTranscriptBytes"> {
  /** Threads without an owner remembered at most; the least recently updated are forgotten first. Default 10 000. */
  maxThreads?: number;
  /**
   * Owned threads remembered at most. An owned thread is never forgotten to make room for another
   * (only past `ttlMs` without use): at the cap a new owner is refused (`full`, HTTP 503
   * `OWNERSHIP_FULL`). Default 100 000.
   */
  maxOwnedThreads?: number;
}

/**
 * The thread records of one process, kept in memory (an agent without a save dir): lost on
 * restart, conversations and owners alike, so a restart hands no thread to anyone (it starts
 * anew). Bounded: records without an owner by count (LRU) and time; owned ones by time, and by a
 * cap past which new owners are refused rather than old ones forgotten, so 10 000 throw-away
 * threads neither grow it without limit nor push an owner out. Each entry holds digests, not text;
 * transcripts stay in the agent's channels (nothing here outlives the process anyway).
 */
export class MemoryThreadStore implements ThreadStore {
  /** False: nothing here outlives the process, so the agent keeps transcripts in its own channels only. */
  readonly keepsTranscripts = false;
  /** Least recently used first, in both maps. */
  readonly #unowned = new Map<string, ThreadRecord>();
  readonly #owned = new Map<string, ThreadRecord>();
  /** Owner → the record names of their threads (agent digest / thread digest), for their thread list. */
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #maxThreads: number;
  readonly #maxOwnedThreads: number;
  readonly #policy: ThreadRecordPolicy;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished. */
  readonly closed = this.#lifetime.closed;

  constructor(options: MemoryThreadStoreOptions = {}) {
    this.#maxThreads = options.maxThreads ?? 10_000;
    this.#maxOwnedThreads = options.maxOwnedThreads ?? DEFAULT_MAX_OWNED_THREADS;
    this.#policy = new ThreadRecordPolicy(options);
  }

  /** The record, with its owner; undefined when unknown, expired (it is then forgotten) or pushed out for room. Never rejects. */
  get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    return Promise.resolve(this.#live(threadKeyDigest(key)));
  }

  /**
   * Keeps the record (the newest `maxForwardedPerThread` fingerprints, stamped now; the owner kept).
   * An unowned thread past `maxThreads` pushes out the least recently updated unowned one. Takes no
   * lease: one process has no other replica to fence off.
   */
  set(key: ThreadKey, input: ThreadRecordInput): Promise<void> {
    const name = threadKeyDigest(key);
    const previous = this.#live(name);
    const record = this.#policy.record(input, previous);
    if (record.owner !== undefined) this.#touch(this.#owned, name, record);
    else {
      this.#touch(this.#unowned, name, record);
      while (this.#unowned.size > this.#maxThreads) {
        const oldest = this.#unowned.keys().next();
        if (oldest.done === true) break;
        this.#unowned.delete(oldest.value);
      }
    }
    return Promise.resolve();
  }

  /** Always undefined: nothing is kept (see `keepsTranscripts`). */
  getTranscript(_key: ThreadKey): Promise<StoredTranscript | undefined> {
    return Promise.resolve(undefined);
  }

  /** Nothing is kept: the agent's channels hold the transcripts of a process (see `keepsTranscripts`). */
  setTranscript(_key: ThreadKey, _transcript: StoredTranscript): Promise<void> {
    return Promise.resolve();
  }

  /** See `ThreadStore.claim`; `full` when `maxOwnedThreads` threads are owned and none of them has expired. */
  claim(key: ThreadKey, owner: string): Promise<ThreadClaim> {
    const name = threadKeyDigest(key);
    const current = this.#live(name);
    if (current?.owner !== undefined) {
      if (current.owner !== owner) return Promise.resolve("refused");
      // A use keeps the ownership alive, and moves it last for the sweep.
      this.#touch(this.#owned, name, { ...current, updatedAt: this.#policy.now() });
      return Promise.resolve("owned");
    }
    if (this.#owned.size >= this.#maxOwnedThreads) this.#sweepOwned();
    if (this.#owned.size >= this.#maxOwnedThreads) return Promise.resolve("full");
    const now = this.#policy.now();
    this.#unowned.delete(name);
    this.#touch(this.#owned, name, { forwarded: [], toolSignature: "", ...current, owner, createdAt: current?.createdAt ?? now, updatedAt: now });
    let names = this.#byOwner.get(owner);
    if (names === undefined) {
      names = new Set();
      this.#byOwner.set(owner, names);
    }
    names.add(name);
    return Promise.resolve("claimed");
  }

  /** Forgets the thread when `owner` holds it and it has no conversation yet; otherwise does nothing. */
  releaseClaim(key: ThreadKey, owner: string): Promise<void> {
    const name = threadKeyDigest(key);
    const current = this.#owned.get(name);
    if (current?.owner === owner && current.conversationId === undefined) this.#forget(name);
    return Promise.resolve();
  }

  /** The live threads `owner` owns on agent `agentId` that have a listable id, the most recently updated first, at most `limit`. */
  listByOwner(agentId: string, owner: string, options: { limit: number }): Promise<ThreadListing[]> {
    const prefix = `${agentDigest(agentId)}/`;
    const listings: ThreadListing[] = [];
    for (const name of [...(this.#byOwner.get(owner) ?? [])]) {
      if (!name.startsWith(prefix)) continue;
      const record = this.#live(name);
      const threadId = record?.summary?.threadId;
      if (record === undefined || record.owner !== owner || threadId === undefined) continue;
      listings.push({ threadId, lastActivityAt: record.updatedAt, ...(record.summary?.firstUserMessage === undefined ? {} : { firstUserMessage: record.summary.firstUserMessage }) });
    }
    return Promise.resolve(listings.sort((left, right) => right.lastActivityAt - left.lastActivityAt).slice(0, options.limit));
  }

  /** Forgets the thread, its owner with it. */
  delete(key: ThreadKey): Promise<void> {
    this.#forget(threadKeyDigest(key));
    return Promise.resolve();
  }

  /** Kind `memory`, with `rememberedThreads` (owned and unowned); nothing is written, so the write counters stay 0. */
  stats(): ThreadStoreStats {
    return { kind: "memory", rememberedThreads: this.#unowned.size + this.#owned.size, writeFailures: 0, pendingWrites: 0, droppedWrites: 0 };
  }

  /** Nothing to write or stop; idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(threadStoreClosed);
  }

  /** The record under `name` unless it expired (then it is forgotten, owner and all). */
  #live(name: string): ThreadRecord | undefined {
    const record = this.#owned.get(name) ?? this.#unowned.get(name);
    if (record !== undefined && this.#policy.expired(record.updatedAt)) {
      this.#forget(name);
      return undefined;
    }
    return record;
  }

  #touch(map: Map<string, ThreadRecord>, name: string, record: ThreadRecord): void {
    map.delete(name);
    map.set(name, record);
  }

  #forget(name: string): void {
    const owned = this.#owned.get(name);
    this.#owned.delete(name);
    this.#unowned.delete(name);
    if (owned?.owner === undefined) return;
    const names = this.#byOwner.get(owned.owner);
    if (names === undefined) return;
    names.delete(name);
    if (names.size === 0) this.#byOwner.delete(owned.owner);
  }

  /** Forgets owned threads past their time to live, least recently used first (the first live one ends the sweep). */
  #sweepOwned(): void {
    for (const [name, record] of this.#owned) {
      if (!this.#policy.expired(record.updatedAt)) return;
      this.#forget(name);
    }
  }
}
