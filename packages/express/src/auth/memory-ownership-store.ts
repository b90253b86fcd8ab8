import { Lifetime } from "@ag-ui-antigravity/foundation";
import { ownershipDigest } from "./ownership-digest.js";
import { DEFAULT_OWNERSHIP_TTL_MS, type OwnershipKey, type ThreadClaim, type ThreadOwnershipStats, type ThreadOwnershipStore, ownershipStoreClosed } from "./thread-ownership-store.js";

/** Owned threads the in-memory store keeps at most by default. */
export const DEFAULT_MAX_THREAD_OWNERS = 100_000;

/** How many owned threads a `MemoryOwnershipStore` keeps, and for how long. */
export interface MemoryOwnershipStoreOptions {
  /** Owned threads kept at most; past it new threads are refused (`full`), owned ones are never dropped. Default 100 000. */
  maxEntries?: number;
  /** An owned thread without a run of its owner for this long is forgotten. Default 30 days. */
  ttlMs?: number;
  /** The clock entries are aged by, in epoch ms; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  owner: string;
  lastUse: number;
}

/**
 * Ownership in this process's memory: lost on restart, so use `FileOwnershipStore` or
 * `RedisOwnershipStore` where that matters. Each entry is a fixed size (hashed keys), and it
 * is bounded without ever evicting an owned thread for another: at its cap, expired entries are
 * swept and, if none expired, a new thread is refused rather than an owner forgotten.
 */
export class MemoryOwnershipStore implements ThreadOwnershipStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished. */
  readonly closed = this.#lifetime.closed;
  #refusedFull = 0;

  constructor(options: MemoryOwnershipStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_THREAD_OWNERS;
    this.#ttlMs = options.ttlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Never rejects. `full` only at `maxEntries` live owners, after expired entries were swept. */
  claim(key: OwnershipKey, ownerId: string): Promise<ThreadClaim> {
    const name = nameOf(key);
    const now = this.#now();
    const entry = this.#live(name, now);
    if (entry !== undefined) {
      if (entry.owner !== ownerId) return Promise.resolve("refused");
      // Least recently used last, so a sweep meets the oldest first.
      this.#entries.delete(name);
      this.#entries.set(name, { owner: ownerId, lastUse: now });
      return Promise.resolve("owned");
    }
    if (this.#entries.size >= this.#maxEntries) this.#sweep(now);
    if (this.#entries.size >= this.#maxEntries) {
      this.#refusedFull += 1;
      return Promise.resolve("full");
    }
    this.#entries.set(name, { owner: ownerId, lastUse: now });
    return Promise.resolve("claimed");
  }

  /** Forgets the entry if `ownerId` owns it; another owner's entry is left alone. */
  release(key: OwnershipKey, ownerId: string): Promise<void> {
    const name = nameOf(key);
    if (this.#entries.get(name)?.owner === ownerId) this.#entries.delete(name);
    return Promise.resolve();
  }

  /** The live owner, or undefined; an expired entry is dropped here. Does not refresh the TTL. */
  ownerOf(key: OwnershipKey): Promise<string | undefined> {
    return Promise.resolve(this.#live(nameOf(key), this.#now())?.owner);
  }

  /** `kind: "memory"`, the entries held (expired ones not yet swept included), and the `full` refusals so far. */
  stats(): ThreadOwnershipStats {
    return { kind: "memory", owners: this.#entries.size, refusedFull: this.#refusedFull };
  }

  /** Nothing to write or stop (the entries stay readable); idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(ownershipStoreClosed);
  }

  #live(name: string, now: number): Entry | undefined {
    const entry = this.#entries.get(name);
    if (entry === undefined) return undefined;
    if (now - entry.lastUse > this.#ttlMs) {
      this.#entries.delete(name);
      return undefined;
    }
    return entry;
  }

  #sweep(now: number): void {
    for (const [name, entry] of this.#entries) {
      // Oldest first: the first live entry means every later one is live too.
      if (now - entry.lastUse <= this.#ttlMs) return;
      this.#entries.delete(name);
    }
  }
}

function nameOf(key: OwnershipKey): string {
  const digest = ownershipDigest(key.agentId, key.threadId);
  return `${digest.agent}/${digest.thread}`;
}
