import {
  DEFAULT_MAX_FORWARDED_PER_THREAD,
  DEFAULT_THREAD_TTL_MS,
  type ThreadKey,
  type ThreadRecord,
  type ThreadRecordInput,
  type ThreadStore,
  type ThreadStoreCommonOptions,
  type ThreadStoreStats,
} from "./thread-store.js";
import { threadKeyDigest } from "./thread-digest.js";

export interface MemoryThreadStoreOptions extends Omit<ThreadStoreCommonOptions, "logger"> {
  /** Threads remembered at most; the least recently updated are forgotten first. Default 10 000. */
  maxThreads?: number;
}

/**
 * The thread map of one process, kept in memory (an agent without a save dir). Bounded (LRU + TTL),
 * so 10 000 throw-away threads cannot grow it without limit; each entry holds digests, not text.
 */
export class MemoryThreadStore implements ThreadStore {
  readonly #records = new Map<string, ThreadRecord>();
  readonly #maxThreads: number;
  readonly #ttlMs: number;
  readonly #maxForwarded: number;
  readonly #now: () => number;

  constructor(options: MemoryThreadStoreOptions = {}) {
    this.#maxThreads = options.maxThreads ?? 10_000;
    this.#ttlMs = options.ttlMs ?? DEFAULT_THREAD_TTL_MS;
    this.#maxForwarded = options.maxForwardedPerThread ?? DEFAULT_MAX_FORWARDED_PER_THREAD;
    this.#now = options.now ?? Date.now;
  }

  get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    const name = threadKeyDigest(key);
    const record = this.#records.get(name);
    if (record !== undefined && this.#now() - record.updatedAt > this.#ttlMs) {
      this.#records.delete(name);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(record);
  }

  set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    const name = threadKeyDigest(key);
    this.#records.delete(name);
    this.#records.set(name, {
      conversationId: record.conversationId,
      forwarded: record.forwarded.slice(-this.#maxForwarded),
      toolSignature: record.toolSignature,
      updatedAt: this.#now(),
    });
    while (this.#records.size > this.#maxThreads) {
      const oldest = this.#records.keys().next();
      if (oldest.done === true) break;
      this.#records.delete(oldest.value);
    }
    return Promise.resolve();
  }

  delete(key: ThreadKey): Promise<void> {
    this.#records.delete(threadKeyDigest(key));
    return Promise.resolve();
  }

  stats(): ThreadStoreStats {
    return { kind: "memory", rememberedThreads: this.#records.size, writeFailures: 0, pendingWrites: 0, droppedWrites: 0 };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
