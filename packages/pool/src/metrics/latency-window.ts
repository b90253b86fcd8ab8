/**
 * The most recent `capacity` samples of a latency, for percentiles that follow the current
 * behaviour rather than the whole history, in bounded memory.
 */
export class LatencyWindow {
  readonly #samples: number[] = [];
  readonly #capacity: number;
  #next = 0;
  #count = 0;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  /** Every sample ever recorded, including the ones the window has dropped. */
  get count(): number {
    return this.#count;
  }

  record(valueMs: number): void {
    if (this.#samples.length < this.#capacity) this.#samples.push(valueMs);
    else this.#samples[this.#next] = valueMs;
    this.#next = (this.#next + 1) % this.#capacity;
    this.#count += 1;
  }

  /** The nearest-rank percentile (0–100) of the window, or undefined before the first sample. */
  percentile(rank: number): number | undefined {
    if (this.#samples.length === 0) return undefined;
    const sorted = [...this.#samples].sort((left, right) => left - right);
    const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1));
    return sorted[index];
  }
}
