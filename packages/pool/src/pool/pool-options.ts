import { type Logger, shieldLogger } from "@ag-ui-antigravity/foundation";
import { defaultSpawnBackoff, type SpawnBackoffOptions } from "../backoff/spawn-backoff.js";
import { PoolError } from "../errors/pool-error.js";
import type { PlacementStrategy } from "../placement/placement-policy.js";

/** How the pool sizes, places, watches and stops processes. Every field is optional. */
export interface HarnessPoolSettings {
  /** Conversations one process may hold at once. Default 8; 1 gives every conversation its own process. */
  readonly maxConversationsPerProcess?: number;
  /** Processes the whole pool may run at once, over all partitions. Acquires beyond it wait. Default: no cap. */
  readonly maxProcesses?: number;
  /**
   * Conversations that may stay parked (waiting on a human) while an acquire finds no room under
   * `maxProcesses`: past it, the pool reclaims the oldest parked conversation whose holder offers it
   * (`PoolLease.setReclaimable`), so parked turns cannot take every slot. Default: three quarters of
   * `maxProcesses` × `maxConversationsPerProcess` (no cap without `maxProcesses`).
   */
  readonly maxParkedConversations?: number;
  /**
   * How long an acquire waits for room under `maxProcesses` (no process with a free slot, none to
   * reclaim) before it fails with `CAPACITY_EXHAUSTED`. Default 30 000 ms; `Infinity` waits forever.
   */
  readonly maxRoomWaitMs?: number;
  /** How long a process stays up with nothing on it before the pool stops it. Default 30 000 ms. */
  readonly idleGraceMs?: number;
  /** Empty processes kept ready per partition, so a new conversation never waits for a spawn. Default 0. */
  readonly minIdleProcesses?: number;
  /** Where a new conversation goes among processes with room. Default `fill-first` (see the README's bench). */
  readonly placement?: PlacementStrategy;
  /** How often idle processes are probed. 0 turns health checks off. Default 15 000 ms. */
  readonly healthCheckIntervalMs?: number;
  /** How long a probe may take before the process counts as unhealthy. Default 5 000 ms. */
  readonly healthCheckTimeoutMs?: number;
  /** The crash-loop pause. */
  readonly spawnBackoff?: SpawnBackoffOptions;
  /** Passed to each process's `close()`: how long it gets between stdin end and SIGTERM. Default: the client's. */
  readonly processGracePeriodMs?: number;
  /** How long `close()` waits for conversations to close before it stops the processes anyway. Default 10 000 ms. */
  readonly closeDeadlineMs?: number;
  /** Where spawns, crashes, back-off and idle stops are reported; any subset of the four levels. Default: nowhere. */
  readonly logger?: Partial<Logger>;
  /** Closes the pool when aborted, for pools owned by something with a lifetime of its own. */
  readonly signal?: AbortSignal;
}

export interface ResolvedPoolSettings {
  readonly maxConversationsPerProcess: number;
  readonly maxProcesses: number;
  readonly maxParkedConversations: number;
  readonly maxRoomWaitMs: number;
  readonly idleGraceMs: number;
  readonly minIdleProcesses: number;
  readonly placement: PlacementStrategy;
  readonly healthCheckIntervalMs: number;
  readonly healthCheckTimeoutMs: number;
  readonly spawnBackoff: Required<SpawnBackoffOptions>;
  readonly processGracePeriodMs: number | undefined;
  readonly closeDeadlineMs: number;
  readonly logger: Logger;
}

/** Applies the defaults and refuses values that cannot work, naming the field. */
export function resolvePoolSettings(settings: HarnessPoolSettings): ResolvedPoolSettings {
  const maxConversationsPerProcess = settings.maxConversationsPerProcess ?? 8;
  const maxProcesses = settings.maxProcesses ?? Number.POSITIVE_INFINITY;
  const resolved: ResolvedPoolSettings = {
    maxConversationsPerProcess,
    maxProcesses,
    maxParkedConversations: settings.maxParkedConversations ?? defaultParkedCap(maxProcesses, maxConversationsPerProcess),
    maxRoomWaitMs: settings.maxRoomWaitMs ?? DEFAULT_MAX_ROOM_WAIT_MS,
    idleGraceMs: settings.idleGraceMs ?? 30_000,
    minIdleProcesses: settings.minIdleProcesses ?? 0,
    placement: settings.placement ?? "fill-first",
    healthCheckIntervalMs: settings.healthCheckIntervalMs ?? 15_000,
    healthCheckTimeoutMs: settings.healthCheckTimeoutMs ?? 5_000,
    spawnBackoff: { ...defaultSpawnBackoff, ...settings.spawnBackoff },
    processGracePeriodMs: settings.processGracePeriodMs,
    closeDeadlineMs: settings.closeDeadlineMs ?? 10_000,
    logger: shieldLogger(settings.logger),
  };
  requireInteger("maxConversationsPerProcess", resolved.maxConversationsPerProcess, 1);
  if (resolved.maxProcesses !== Number.POSITIVE_INFINITY) requireInteger("maxProcesses", resolved.maxProcesses, 1);
  requireInteger("minIdleProcesses", resolved.minIdleProcesses, 0);
  if (resolved.maxParkedConversations !== Number.POSITIVE_INFINITY) requireInteger("maxParkedConversations", resolved.maxParkedConversations, 0);
  if (resolved.maxRoomWaitMs !== Number.POSITIVE_INFINITY) requireDuration("maxRoomWaitMs", resolved.maxRoomWaitMs);
  requireDuration("idleGraceMs", resolved.idleGraceMs);
  requireDuration("healthCheckIntervalMs", resolved.healthCheckIntervalMs);
  requireDuration("healthCheckTimeoutMs", resolved.healthCheckTimeoutMs);
  requireDuration("closeDeadlineMs", resolved.closeDeadlineMs);
  requireDuration("spawnBackoff.initialDelayMs", resolved.spawnBackoff.initialDelayMs);
  requireDuration("spawnBackoff.maxDelayMs", resolved.spawnBackoff.maxDelayMs);
  requireDuration("spawnBackoff.resetAfterMs", resolved.spawnBackoff.resetAfterMs);
  if (resolved.processGracePeriodMs !== undefined) requireDuration("processGracePeriodMs", resolved.processGracePeriodMs);
  if (resolved.placement !== "fill-first" && resolved.placement !== "spread") {
    throw new PoolError("CONFIG_INVALID", `placement must be "fill-first" or "spread", got ${JSON.stringify(resolved.placement)}`);
  }
  if (Number.isFinite(resolved.maxProcesses) && resolved.minIdleProcesses > resolved.maxProcesses) {
    throw new PoolError("CONFIG_INVALID", "minIdleProcesses cannot exceed maxProcesses");
  }
  return resolved;
}

/** How long an acquire waits for room under `maxProcesses` by default. */
export const DEFAULT_MAX_ROOM_WAIT_MS = 30_000;

/** Three quarters of the pool's slots may stay parked while others wait for room; no cap on an uncapped pool. */
function defaultParkedCap(maxProcesses: number, maxConversationsPerProcess: number): number {
  if (!Number.isFinite(maxProcesses)) return Number.POSITIVE_INFINITY;
  return Math.floor((maxProcesses * maxConversationsPerProcess * 3) / 4);
}

function requireInteger(field: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) {
    throw new PoolError("CONFIG_INVALID", `${field} must be an integer >= ${minimum}, got ${String(value)}`);
  }
}

function requireDuration(field: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new PoolError("CONFIG_INVALID", `${field} must be a finite number of milliseconds >= 0, got ${String(value)}`);
  }
}

