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
 * Writes changes in batches, one batch at a time (so two changes of one entry land in order), and
 * keeps every change that failed to write for the next batch: a write failure (a full disk, an
 * unwritable directory, Redis away) costs nothing but a retry with the next change, and never
 * rejects, so it can never fail a run — nor every later run, as one rejected promise chain did.
 */
export class RetryingWriter<Value> {
  readonly #options: RetryingWriterOptions<Value>;
  readonly #maxPending: number;
  readonly #pending = new Map<string, PendingChange<Value>>();
  #chain: Promise<void> = Promise.resolve();
  #scheduled = false;
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

  /** Queues a change and writes every pending one. Resolves (never rejects) once its batch is done. */
  submit(name: string, change: PendingChange<Value>): Promise<void> {
    this.#pending.delete(name);
    this.#pending.set(name, change);
    while (this.#pending.size > this.#maxPending) {
      const oldest = this.#pending.keys().next();
      if (oldest.done === true) break;
      this.#pending.delete(oldest.value);
      this.#dropped += 1;
    }
    return this.flush();
  }

  /** Writes what is pending (after the batch in progress). Never rejects. */
  flush(): Promise<void> {
    if (this.#scheduled) return this.#chain;
    this.#scheduled = true;
    this.#chain = this.#chain.then(() => this.#writeBatch());
    return this.#chain;
  }

  async #writeBatch(): Promise<void> {
    this.#scheduled = false;
    const batch = [...this.#pending];
    await Promise.all(
      batch.map(async ([name, change]) => {
        try {
          await this.#options.write(name, change);
          // A newer change of the same entry, queued meanwhile, stays pending for the next batch.
          if (this.#pending.get(name) === change) this.#pending.delete(name);
        } catch (error) {
          this.#failures += 1;
          try {
            this.#options.onFailure(error, name);
          } catch {
            // A failing logger must not turn a failed write into a failed run.
          }
        }
      }),
    );
  }
}
