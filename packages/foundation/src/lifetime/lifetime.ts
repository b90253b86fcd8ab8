/**
 * The `close()` / `signal` / `closed` contract of a long-lived object, written once: `signal` aborts
 * the moment closing starts (so work it started stops and callers see why), `close(…)` runs the
 * object's closing work exactly once (every later call returns the same promise), and `closed`
 * resolves when that work has finished, whether it succeeded or failed.
 *
 * ```ts
 * readonly #lifetime = new Lifetime();
 * get signal() { return this.#lifetime.signal; }
 * get closed() { return this.#lifetime.closed; }
 * close() { return this.#lifetime.close(() => new PoolError("POOL_CLOSED", "…"), () => this.#stopEverything()); }
 * ```
 */
export class Lifetime {
  readonly #controller = new AbortController();
  #closing: Promise<void> | undefined;
  #markClosed: () => void = () => undefined;
  readonly #closed = new Promise<void>((resolve) => (this.#markClosed = resolve));

  /** Aborted, with the reason `close` was given, when closing starts. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Resolves when the closing work has finished (also when it failed). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** True once `close` has been called. */
  get isClosing(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Starts closing, once: aborts `signal` with `reason()`, then runs `work`. Returns the promise of
   * that work (it rejects if the work throws); every call returns the same promise, and later calls'
   * arguments are ignored.
   */
  close(reason: () => unknown, work: () => Promise<void> | void = () => undefined): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    // Recorded before anything runs: an abort listener or the work itself may call close() again
    // (a transport closing its server, which closes the transport), and must get this same promise.
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    this.#closing = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    void (async () => {
      try {
        this.#controller.abort(reason());
        await work();
        settle.resolve();
      } catch (error) {
        settle.reject(error);
      } finally {
        this.#markClosed();
      }
    })();
    return this.#closing;
  }
}
