/**
 * A "something changed, look again" notice. Waiters take the current promise; `notify` resolves it
 * and arms a new one, so a waiter never misses a change that happens after it started waiting.
 */
export class ChangeSignal {
  #resolve: () => void = () => undefined;
  #next: Promise<void> = this.#arm();

  /** Resolves at the next `notify`. */
  next(): Promise<void> {
    return this.#next;
  }

  notify(): void {
    const resolve = this.#resolve;
    this.#next = this.#arm();
    resolve();
  }

  #arm(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#resolve = resolve;
    });
  }
}
