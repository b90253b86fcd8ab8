/** Active handle counts by kind (sockets, pipes, timers, child processes), as Node reports them. */
export type HandleCounts = Map<string, number>;

const watched = new Set(["TCPSocketWrap", "TCPServerWrap", "ProcessWrap", "PipeWrap", "Timeout"]);

export function countHandles(): HandleCounts {
  const counts: HandleCounts = new Map();
  for (const kind of process.getActiveResourcesInfo()) if (watched.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/**
 * Waits until no kind of handle outnumbers `baseline` (the test runner's own pipes and timers are in
 * it), or throws naming what a test left open.
 */
export async function expectNoHandlesBeyond(baseline: HandleCounts, graceMs = 3_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  const excess = (): string[] => [...countHandles()].filter(([kind, count]) => count > (baseline.get(kind) ?? 0)).map(([kind, count]) => `${kind} ×${count - (baseline.get(kind) ?? 0)}`);
  let left = excess();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
    left = excess();
  }
  if (left.length > 0) throw new Error(`handles left open: ${left.join(", ")}`);
}
