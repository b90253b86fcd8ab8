/**
 * A one-shot timer that can be paused and resumed, keeping the remaining time. A turn's timeout
 * pauses while the turn is parked on host code (a tool handler or a hook waiting for a human),
 * because that wait is the caller's choice, not the harness being slow.
 */
export class PausableTimer {
  readonly #callback: () => void;
  #remaining: number;
  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #fired = false;
  #stopped = false;

  constructor(milliseconds: number, callback: () => void) {
    this.#remaining = milliseconds;
    this.#callback = callback;
  }

  start(): void {
    if (this.#timer !== undefined || this.#fired || this.#stopped) return;
    this.#startedAt = Date.now();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fired = true;
      this.#callback();
    }, Math.max(0, this.#remaining));
    this.#timer.unref();
  }

  pause(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#remaining -= Date.now() - this.#startedAt;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
