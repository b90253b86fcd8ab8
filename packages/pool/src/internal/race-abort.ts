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
