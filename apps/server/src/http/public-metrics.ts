import type { PoolMetrics } from "@ag-ui-antigravity/pool";

/**
 * The pool's metrics as `/metrics` shows them to anyone who can reach it: no process ids and no
 * directories (a pid and a storage path say how the host is laid out, and nothing an operator
 * watching the counters needs). The pool's own `metrics()` keeps both, for code on the server.
 */
export function publicPoolMetrics(metrics: PoolMetrics): unknown {
  return {
    ...metrics,
    partitions: metrics.partitions.map(({ storageDirectory, ...partition }) => ({ ...partition, persistent: storageDirectory !== undefined })),
    processDetails: metrics.processDetails.map(({ pid: _pid, ...process }) => process),
  };
}

/** A harness choice's reason without the paths it names (`found localharness at /opt/…`). */
export function publicReason(reason: string): string {
  return reason.replace(/(^|[\s"'(=:])(\/[^\s"'),;]+)/g, (_match, before: string) => `${before}[path]`);
}
