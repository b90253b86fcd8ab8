import { availableParallelism, loadavg } from "node:os";

/**
 * A bound for a test that guards against a stall (never a performance target: those live in the
 * benchmarks), stretched by how busy the machine is right now: on a 2-core CI machine shared with
 * other jobs, a 3 s bound meets a load average of 30. The stretch is capped, so that the stall the
 * bound exists to catch (tens of seconds) still fails.
 */
export function loadScaledMs(ms: number, maxStretch = 6): number {
  const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.round(ms * Math.min(maxStretch, Math.max(1, loadPerCore)));
}
