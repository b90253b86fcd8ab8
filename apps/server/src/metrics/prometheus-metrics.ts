import type { PoolMetrics } from "@ag-ui-antigravity/pool";
import { Counter, Gauge, Registry } from "prom-client";
import { DriftMetrics } from "./drift-metrics.js";

/** What the server reads at scrape time. */
export interface PrometheusSources {
  pool: () => PoolMetrics;
  /** Live, busy and parked sessions per agent. */
  sessions: () => Record<string, { liveSessions: number; busySessions: number; parkedSessions: number }>;
  startedAt: number;
}

/**
 * The server's metrics in the Prometheus text format: the harness protocol drift (counted as it
 * happens), and the pool's and the agents' figures (read from their snapshots at scrape time).
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  readonly drift: DriftMetrics;
  #sources: PrometheusSources | undefined;

  constructor() {
    this.drift = new DriftMetrics(this.registry);
    const sources = (): PrometheusSources | undefined => this.#sources;
    new Gauge({
      name: "antigravity_server_uptime_seconds",
      help: "Seconds since the server started.",
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current !== undefined) this.set((Date.now() - current.startedAt) / 1000);
      },
    });
    new Gauge({
      name: "antigravity_pool_processes",
      help: "Harness processes in the pool.",
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current !== undefined) this.set(current.pool().processes);
      },
    });
    new Gauge({
      name: "antigravity_pool_conversations",
      help: "Conversations open on the pool's processes.",
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current !== undefined) this.set(current.pool().conversations);
      },
    });
    new Gauge({
      name: "antigravity_pool_waiting_acquires",
      help: "Acquires waiting for the pool-wide process cap.",
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current !== undefined) this.set(current.pool().waitingAcquires);
      },
    });
    new Counter({
      name: "antigravity_pool_events_total",
      help: "Pool events since it was created, by kind (acquires, spawns, crashes, health check failures, ...).",
      labelNames: ["event"],
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current === undefined) return;
        // The pool keeps the totals; a scrape copies them.
        this.reset();
        for (const [event, value] of Object.entries(current.pool().totals)) this.inc({ event }, value);
      },
    });
    new Gauge({
      name: "antigravity_agent_sessions",
      help: "Sessions per agent, by state (live, busy, parked).",
      labelNames: ["agent", "state"],
      registers: [this.registry],
      collect() {
        const current = sources();
        if (current === undefined) return;
        this.reset();
        for (const [agent, stats] of Object.entries(current.sessions())) {
          this.set({ agent, state: "live" }, stats.liveSessions);
          this.set({ agent, state: "busy" }, stats.busySessions);
          this.set({ agent, state: "parked" }, stats.parkedSessions);
        }
      },
    });
  }

  /** Connects the scrape-time sources once the pool and the agents exist. */
  attach(sources: PrometheusSources): void {
    this.#sources = sources;
  }
}
