import type { DriftEntry } from "../protocol/drift.js";

/**
 * Drift kinds already warned about, per logger the caller gave: a pool passes one logger to its
 * many processes, and each new kind should reach it once, not once per process. Bounded.
 */
const warnedDriftKinds = new WeakMap<object, Set<string>>();
const MAX_WARNED_DRIFT_KINDS = 1_000;

/** True the first time a logger sees this kind of drift from this harness version. */
export function firstSightingForLogger(logger: object, entry: DriftEntry, harnessVersion: string): boolean {
  let warned = warnedDriftKinds.get(logger);
  if (warned === undefined) {
    warned = new Set();
    warnedDriftKinds.set(logger, warned);
  }
  const key = JSON.stringify([harnessVersion, entry]);
  if (warned.has(key) || warned.size >= MAX_WARNED_DRIFT_KINDS) return false;
  warned.add(key);
  return true;
}
