/** How a partition slows down starting processes when they keep failing. */
export interface SpawnBackoffOptions {
  /** The pause after the second failure in a row; it doubles with each further one. Default 1 000 ms. */
  readonly initialDelayMs?: number;
  /** The longest pause. Default 60 000 ms. */
  readonly maxDelayMs?: number;
  /** A failure this long after the previous one starts a new count, so an isolated crash costs nothing. Default 60 000 ms. */
  readonly resetAfterMs?: number;
}

export const defaultSpawnBackoff: Required<SpawnBackoffOptions> = {
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  resetAfterMs: 60_000,
};

/**
 * The crash-loop state of one partition. A single failure (a spawn that failed, a process that
 * died) is retried at once: the next acquire must work after an isolated crash. From the second
 * failure in a row, spawns are refused for an exponentially growing pause.
 */
export class SpawnBackoff {
  readonly #options: Required<SpawnBackoffOptions>;
  #consecutiveFailures = 0;
  #lastFailureAt = Number.NEGATIVE_INFINITY;
  #blockedUntil = Number.NEGATIVE_INFINITY;

  constructor(options: SpawnBackoffOptions = {}) {
    this.#options = { ...defaultSpawnBackoff, ...options };
  }

  get consecutiveFailures(): number {
    return this.#consecutiveFailures;
  }

  /** Counts a failure at `now` and returns the pause it imposes (0 for the first of a series). */
  recordFailure(now: number): number {
    if (now - this.#lastFailureAt > this.#options.resetAfterMs) this.#consecutiveFailures = 0;
    this.#consecutiveFailures += 1;
    this.#lastFailureAt = now;
    const delay =
      this.#consecutiveFailures < 2
        ? 0
        : Math.min(this.#options.maxDelayMs, this.#options.initialDelayMs * 2 ** (this.#consecutiveFailures - 2));
    this.#blockedUntil = now + delay;
    return delay;
  }

  /** How long spawns stay refused from `now`; 0 when a spawn may start. */
  remainingMs(now: number): number {
    return Math.max(0, this.#blockedUntil - now);
  }
}
