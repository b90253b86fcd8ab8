/** What every long-lived object offers its owner (ARCHITECTURE.md, "Public API"). */
export interface OwnedLifetime {
  readonly signal: AbortSignal;
  readonly closed: Promise<void>;
}

/**
 * Closes `owner` through `close` (twice) and checks the contract every long-lived object keeps:
 * `signal` aborts as soon as closing starts, a second `close()` is the same promise (closing is
 * idempotent), and `closed` resolves once closing has finished. Returns the signal's reason. What the
 * object owned being gone (processes, sockets, timers) is each test's own check.
 */
export async function expectClosesOnce(owner: OwnedLifetime, close: () => Promise<void>): Promise<unknown> {
  check(!owner.signal.aborted, "signal was aborted before close()");
  let settled = false;
  void owner.closed.then(() => (settled = true));
  const closing = close();
  check(owner.signal.aborted, "signal was not aborted when close() started");
  check(close() === closing, "a second close() is not the first one's promise");
  await closing;
  await owner.closed;
  check(settled, "closed had not resolved when close() did");
  return owner.signal.reason;
}

function check(condition: boolean, failure: string): void {
  if (!condition) throw new Error(`close()/signal/closed contract broken: ${failure}`);
}
