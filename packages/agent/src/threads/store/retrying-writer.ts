/** A change to one entry: a value to store, or `null` to delete it. */
export type PendingChange<Value> = Value | null;

export interface RetryingWriterOptions<Value> {
  /** Writes (or, for `null`, deletes) one entry. May reject; the change is then kept and retried. */
  write(name: string, change: PendingChange<Value>): Promise<void>;
  /** Told about each failed write (once per failure). */
  onFailure(error: unknown, name: string): void;
  /** Changes kept while the storage fails; past it the oldest is given up (and counted). Default 10 000. */
  maxPending?: number;
}

/**
 * Writes each entry's changes in order, entries independently of each other (one slow or failing
 * entry never holds up another), and keeps every change that failed to write: it is written again
 * with the next change of any entry. A write failure (a full disk, an unwritable directory, Redis
 * away) therefore costs nothing but a retry, and never rejects, so it can never fail a run — nor
 * every later run, as one rejected promise chain once did. Changes of one entry that arrive while
 * it is being written coalesce: the next write takes the latest.
 */
export class RetryingWriter<Value> {
  readonly #options: RetryingWriterOptions<Value>;
  readonly #maxPending: number;
  readonly #pending = new Map<string, PendingChange<Value>>();
  /** The write in progress (or queued) per entry. */
  readonly #writing = new Map<string, Promise<void>>();
  /** Entries whose last write failed, to be written again with the next change. */
  readonly #failed = new Set<string>();
  #failures = 0;
  #dropped = 0;

  constructor(options: RetryingWriterOptions<Value>) {
    this.#options = options;
    this.#maxPending = options.maxPending ?? 10_000;
  }

  get failures(): number {
    return this.#failures;
  }

  get pending(): number {
    return this.#pending.size;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** The change of `name` not written yet, if any: newer than what the storage holds. */
  peek(name: string): PendingChange<Value> | undefined {
    return this.#pending.get(name);
  }

  /** Queues a change, retries the failed ones, and resolves (never rejects) once this one was written or failed. */
  submit(name: string, change: PendingChange<Value>): Promise<void> {
    this.#pending.delete(name);
    this.#pending.set(name, change);
    while (this.#pending.size > this.#maxPending) {
      const oldest = this.#pending.keys().next();
      if (oldest.done === true) break;
      this.#pending.delete(oldest.value);
      this.#failed.delete(oldest.value);
      this.#dropped += 1;
    }
    if (this.#failed.size > 0) for (const failed of [...this.#failed]) if (failed !== name && !this.#writing.has(failed)) void this.#schedule(failed);
    return this.#schedule(name);
  }

  /** Writes everything pending (and waits for writes in progress). Never rejects. */
  async flush(): Promise<void> {
    for (const name of this.#pending.keys()) if (!this.#writing.has(name)) void this.#schedule(name);
    await Promise.all([...this.#writing.values()]);
  }

  #schedule(name: string): Promise<void> {
    const previous = this.#writing.get(name) ?? Promise.resolve();
    const next = previous.then(() => this.#writeLatest(name));
    this.#writing.set(name, next);
    void next.then(() => {
      if (this.#writing.get(name) === next) this.#writing.delete(name);
    });
    return next;
  }

  async #writeLatest(name: string): Promise<void> {
    // An earlier write of this entry may already have taken the latest change.
    if (!this.#pending.has(name)) return;
    const change = this.#pending.get(name) as PendingChange<Value>;
    try {
      await this.#options.write(name, change);
      if (this.#pending.get(name) === change) this.#pending.delete(name);
      this.#failed.delete(name);
    } catch (error) {
      this.#failures += 1;
      this.#failed.add(name);
      try {
        this.#options.onFailure(error, name);
      } catch {
        // A failing logger must not turn a failed write into a failed run.
      }
    }
  }
}
