/** The error an aborted call settles with: the signal's reason, or a DOMException named AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/**
 * Waits `milliseconds`, rejecting early with the abort reason. The timer is unref'd so a pending
 * delay never keeps the process alive, and both the timer and the listener are removed on settle.
 */
export function delay(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    timer.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Settles with `promise`, or rejects with the abort reason if `signal` aborts first. The listener
 * is removed either way, so long-lived signals do not accumulate listeners.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves when `promise` settles or after `milliseconds`, whichever is first; never rejects. */
export async function settleWithin(promise: Promise<unknown>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), milliseconds);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A signal that aborts when any of `signals` does, and a `detach` that unlinks it. Unlike
 * `AbortSignal.any`, which on Node 20 keeps a reference per call on every source signal for as long
 * as that source lives, a detached link leaves nothing behind on a long-lived source (a process
 * signal that outlives thousands of conversations).
 */
export function linkSignals(signals: readonly AbortSignal[]): { signal: AbortSignal; detach: () => void } {
  const controller = new AbortController();
  const detachers: Array<() => void> = [];
  const detach = (): void => {
    for (const detachOne of detachers.splice(0)) detachOne();
  };
  for (const source of signals) {
    if (source.aborted) {
      controller.abort(source.reason);
      detach();
      return { signal: controller.signal, detach };
    }
    const onAbort = (): void => {
      controller.abort(source.reason);
      detach();
    };
    source.addEventListener("abort", onAbort, { once: true });
    detachers.push(() => source.removeEventListener("abort", onAbort));
  }
  return { signal: controller.signal, detach };
}
