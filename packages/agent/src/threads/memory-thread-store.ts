import { Lifetime } from "@ag-ui-antigravity/foundation";
import { ThreadRecordPolicy } from "./stored-thread.js";
import { threadKeyDigest } from "./thread-digest.js";
import { type ThreadKey, type ThreadRecord, type ThreadRecordInput, type ThreadStore, type ThreadStoreCommonOptions, type ThreadStoreStats, threadStoreClosed } from "./thread-store.js";

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
  readonly #policy: ThreadRecordPolicy;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished. */
  readonly closed = this.#lifetime.closed;

  constructor(options: MemoryThreadStoreOptions = {}) {
    this.#maxThreads = options.maxThreads ?? 10_000;
    this.#policy = new ThreadRecordPolicy(options);
  }

  get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    const name = threadKeyDigest(key);
    const record = this.#records.get(name);
    if (record !== undefined && this.#policy.expired(record.updatedAt)) {
      this.#records.delete(name);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(record);
  }

  set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    const name = threadKeyDigest(key);
    this.#records.delete(name);
    this.#records.set(name, this.#policy.record(record));
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

  /** Nothing to write or stop; idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(threadStoreClosed);
  }
}
