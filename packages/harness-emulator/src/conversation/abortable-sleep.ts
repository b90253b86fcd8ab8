/** Waits `ms` milliseconds unless the signal aborts first (then rejects with its reason). The timer is owned and cleared. */
export function abortableSleep(ms: number, options: { signal: AbortSignal }): Promise<void> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Yields to the event loop so a zero-delay stream cannot starve other conversations. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
