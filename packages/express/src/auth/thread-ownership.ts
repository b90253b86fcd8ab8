/** How many thread → owner entries are kept by default before the least recently used is forgotten. */
export const DEFAULT_MAX_THREAD_OWNERS = 10_000;

export type ThreadClaim = "claimed" | "owned" | "refused";

/**
 * Remembers which principal created each thread so another principal cannot continue it. The map
 * is bounded: past `maxEntries`, the least recently used thread is forgotten, after which the next
 * principal to run it claims it. Process-local; a multi-instance deployment should also bind
 * threads to principals in the agent's own store.
 */
export class ThreadOwnership {
  readonly #maxEntries: number;
  // A Map iterates in insertion order; re-inserting on use keeps the oldest entry first.
  readonly #ownerByThread = new Map<string, string>();

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_THREAD_OWNERS;
  }

  get size(): number {
    return this.#ownerByThread.size;
  }

  /** Claims an unowned thread for `ownerId`, confirms an owned one, or refuses another owner's. */
  claim(threadId: string, ownerId: string): ThreadClaim {
    const owner = this.#ownerByThread.get(threadId);
    if (owner !== undefined && owner !== ownerId) return "refused";
    this.#ownerByThread.delete(threadId);
    this.#ownerByThread.set(threadId, ownerId);
    if (owner !== undefined) return "owned";
    this.#evictBeyondCapacity();
    return "claimed";
  }

  ownerOf(threadId: string): string | undefined {
    return this.#ownerByThread.get(threadId);
  }

  #evictBeyondCapacity(): void {
    while (this.#ownerByThread.size > this.#maxEntries) {
      const oldest = this.#ownerByThread.keys().next();
      if (oldest.done === true) return;
      this.#ownerByThread.delete(oldest.value);
    }
  }
}
