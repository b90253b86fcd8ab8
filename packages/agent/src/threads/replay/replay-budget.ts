import type { RecordedRun } from "./recorded-run.js";

/**
 * The memory all ended runs kept for their grace period may hold together, across threads. A run
 * that ends joins it; past `maxBytes`, the runs that ended first are discarded (a client resuming
 * one of them gets the thread's snapshot instead of the tail of the run).
 */
export class ReplayBudget {
  readonly #maxBytes: number;
  readonly #runs = new Set<RecordedRun>();
  #usedBytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** Keeps an ended run within the budget, discarding the oldest kept runs to make room. */
  keep(run: RecordedRun): void {
    this.#runs.add(run);
    this.#usedBytes += run.sizeBytes;
    for (const oldest of this.#runs) {
      if (this.#usedBytes <= this.#maxBytes) break;
      this.release(oldest);
      oldest.discard();
    }
  }

  /** Gives back what a run held (its grace period is over, or its thread closed). */
  release(run: RecordedRun): void {
    if (!this.#runs.delete(run)) return;
    this.#usedBytes -= run.sizeBytes;
  }
}
