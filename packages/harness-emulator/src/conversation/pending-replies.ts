/**
 * Blocking requests of a conversation (tool calls, hooks, policy checks, questions, confirmations)
 * waiting for the client's reply, keyed by what the reply echoes. There is deliberately no timeout:
 * the real harness waits for a custom tool for as long as it takes.
 */
export class PendingReplies {
  readonly #waiters = new Map<string, { resolve: (value: unknown) => void; reject: (reason: unknown) => void }>();

  /** Waits for `resolve(key, …)`; rejects with the signal's reason on abort. */
  wait<T>(key: string, options: { signal: AbortSignal }): Promise<T> {
    const { signal } = options;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters.delete(key);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.set(key, {
        resolve: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value as T);
        },
        reject: (reason) => {
          signal.removeEventListener("abort", onAbort);
          reject(reason);
        },
      });
    });
  }

  /** Delivers a reply; false when nobody waits for that key (a late or duplicate reply). */
  resolve(key: string, value: unknown): boolean {
    const waiter = this.#waiters.get(key);
    if (waiter === undefined) return false;
    this.#waiters.delete(key);
    waiter.resolve(value);
    return true;
  }

  has(key: string): boolean {
    return this.#waiters.has(key);
  }

  get size(): number {
    return this.#waiters.size;
  }
}
