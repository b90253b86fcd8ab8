/**
 * Settles with `promise`, or rejects with `onAbort(signal)` as soon as one of `signals` aborts,
 * whichever comes first. Listeners are removed on settle so long-lived signals do not collect them.
 * The raced promise keeps running: callers only race promises whose outcome someone else owns.
 */
export function raceAbort<TValue>(
  promise: Promise<TValue>,
  signals: readonly (AbortSignal | undefined)[],
  onAbort: (signal: AbortSignal) => unknown,
): Promise<TValue> {
  const watched = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const already = watched.find((signal) => signal.aborted);
  if (already !== undefined) return Promise.reject(onAbort(already));
  if (watched.length === 0) return promise;
  return new Promise<TValue>((resolve, reject) => {
    const listeners = watched.map((signal) => {
      const listener = (): void => {
        detach();
        reject(onAbort(signal));
      };
      signal.addEventListener("abort", listener, { once: true });
      return { signal, listener };
    });
    const detach = (): void => {
      for (const { signal, listener } of listeners) signal.removeEventListener("abort", listener);
    };
    promise.then(
      (value) => {
        detach();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        reject(error);
      },
    );
  });
}

/** Resolves after `delayMs`, or at once when `signal` aborts; never rejects. The timer never keeps Node alive. */
export function sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, delayMs));
    timer.unref();
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** An AbortController that also aborts when any of `signals` does; `dispose` detaches it from them. */
export function linkedController(signals: readonly (AbortSignal | undefined)[]): {
  controller: AbortController;
  dispose: () => void;
} {
  const controller = new AbortController();
  const watched = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const already = watched.find((signal) => signal.aborted);
  if (already !== undefined) {
    controller.abort(already.reason);
    return { controller, dispose: () => undefined };
  }
  const listeners = watched.map((signal) => {
    const listener = (): void => controller.abort(signal.reason);
    signal.addEventListener("abort", listener, { once: true });
    return { signal, listener };
  });
  return {
    controller,
    dispose: () => {
      for (const { signal, listener } of listeners) signal.removeEventListener("abort", listener);
    },
  };
}
