export interface LinkedSignal {
  /** Aborts, with the first source's reason, as soon as any source does. */
  readonly signal: AbortSignal;
  /** Removes the link's listeners from every source; call it once the linked work is over. */
  unlink(): void;
}

/**
 * A signal that aborts when any of `sources` does (undefined entries are skipped). This is
 * `AbortSignal.any` with an owner: on Node 20 each `AbortSignal.any` call leaves a reference on
 * every source for as long as that source lives, so linking to a long-lived signal (a process's, a
 * pool's, an agent's lifetime) once per conversation or per turn grows without bound. `unlink()`
 * leaves nothing behind; a link whose sources abort unlinks itself.
 */
export function linkSignals(sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const listeners: Array<{ source: AbortSignal; onAbort: () => void }> = [];
  const unlink = (): void => {
    for (const { source, onAbort } of listeners.splice(0)) source.removeEventListener("abort", onAbort);
  };
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      unlink();
      controller.abort(source.reason);
      break;
    }
    const onAbort = (): void => {
      unlink();
      controller.abort(source.reason);
    };
    source.addEventListener("abort", onAbort, { once: true });
    listeners.push({ source, onAbort });
  }
  return { signal: controller.signal, unlink };
}
