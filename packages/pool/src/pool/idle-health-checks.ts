// The periodic probe of idle processes: owns the interval timer, the per-probe timeout and the
// signals a probe listens to, and reports a process that failed. What to do about a failed probe
// (count it, pause spawns, replace the process) is the process lifecycle's call, not the probe's,
// so the mechanics of probing stay apart from the policy and can be tested alone.
import { linkSignals } from "@ag-ui-antigravity/foundation";
import { PoolError } from "../errors/pool-error.js";
import { raceAbort } from "../internal/race-abort.js";
import type { PooledConversation, PooledProcess } from "../process/pooled-process.js";
import type { PoolMember } from "./pool-member.js";

/** What the health checks need from the pool. */
export interface IdleHealthCheckOptions<TConfig, TConversation extends PooledConversation> {
  /** How often idle processes are probed; 0 turns the timer off (`probeIdle` still works). */
  readonly intervalMs: number;
  /** How long a probe may take before the process counts as unhealthy. */
  readonly timeoutMs: number;
  /** Aborted when the pool closes: probes in flight give up. */
  readonly poolSignal: AbortSignal;
  /** The processes the pool owns now; read at each round. */
  readonly members: () => Iterable<PoolMember<TConfig, TConversation>>;
  /** A probe of `member` failed (rejected, or outlived `timeoutMs`) with `error`. */
  readonly onFailure: (member: PoolMember<TConfig, TConversation>, process: PooledProcess<TConfig, TConversation>, error: unknown) => void;
}

/** Probes the pool's idle processes every `intervalMs`, one probe per process at a time. */
export class IdleHealthChecks<TConfig, TConversation extends PooledConversation> {
  readonly #options: IdleHealthCheckOptions<TConfig, TConversation>;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: IdleHealthCheckOptions<TConfig, TConversation>) {
    this.#options = options;
    if (options.intervalMs > 0) {
      this.#timer = setInterval(() => this.probeIdle(), options.intervalMs);
      this.#timer.unref();
    }
  }

  /** Starts a probe of every ready, empty process that has a `checkHealth` and no probe in flight. */
  probeIdle(): void {
    for (const member of this.#options.members()) {
      if (member.state === "ready" && member.occupied === 0 && !member.healthCheckInFlight && member.process?.checkHealth !== undefined) {
        void this.#probe(member, member.process);
      }
    }
  }

  /** Stops the timer; probes in flight end with the pool's signal. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #probe(member: PoolMember<TConfig, TConversation>, process: PooledProcess<TConfig, TConversation>): Promise<void> {
    member.healthCheckInFlight = true;
    const timeoutMs = this.#options.timeoutMs;
    const overdue = new AbortController();
    const probe = linkSignals([this.#options.poolSignal, process.signal, overdue.signal]);
    const timer = setTimeout(() => overdue.abort(new PoolError("PROCESS_DIED", `the health check took longer than ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    try {
      await raceAbort(process.checkHealth?.({ signal: probe.signal }) ?? Promise.resolve(), [probe.signal], (signal) => signal.reason);
    } catch (error) {
      this.#options.onFailure(member, process, error);
    } finally {
      clearTimeout(timer);
      probe.unlink();
      member.healthCheckInFlight = false;
    }
  }
}
