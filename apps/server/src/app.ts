import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAgentRouter, type AgentRouterOptions } from "@ag-ui-antigravity/express";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import { HarnessPool, type HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import express, { type Express } from "express";
import type { Logger } from "pino";
import { demoFeatures, type DemoFeature } from "./agents/demo-agent-environment.js";
import { createDemoAgents } from "./agents/demo-agents.js";
import type { HarnessChoice } from "./harness/harness-choice.js";
import { defaultTaskStepDelayMs } from "./server-environment.js";
import { createDojoRouter } from "./http/dojo-routes.js";
import { createErrorHandler, notFoundHandler } from "./http/json-errors.js";
import { createMetricsHandler } from "./http/metrics-route.js";
import { requirePrincipal } from "./http/require-principal.js";
import { PrometheusMetrics } from "./metrics/prometheus-metrics.js";
import { publicPoolMetrics, publicReason } from "./http/public-metrics.js";
import { bearerTokenAuthorize } from "./auth/bearer-tokens.js";
import { createStateStores, type StateStoreConfig } from "./state/state-stores.js";

export interface DemoServerConfig {
  harness: HarnessChoice;
  logger: Logger;
  /** The built dojo (`apps/dojo/dist`), served under /dojo/. */
  dojoDistDirectory: string;
  /** Parent of the server's temporary root (per-thread workspaces, write_file sandboxes); default the OS temp dir. */
  temporaryParent?: string;
  /** How long each agentic_generative_ui step takes (default 700 ms, slow enough to watch). */
  taskStepDelayMs?: number;
  /** Pool settings beyond the binary path and logger, e.g. a shorter idle grace in tests. */
  pool?: Partial<HarnessPoolSettings>;
  /** Bearer token → principal name (`AUTH_TOKENS`); when set, every run must present one. */
  authTokens?: ReadonlyMap<string, string>;
  /** Where thread state lives (SAVE_DIR, REDIS_URL, REPLICA_ID); default memory. */
  state?: StateStoreConfig;
  /**
   * What one client may hold (CLIENT_LIMITS): the binding's `clientLimits`, per principal with
   * AUTH_TOKENS and per address without. Default on with the binding's defaults; `false` turns it off.
   */
  clientLimits?: AgentRouterOptions["clientLimits"];
  /** Express's `trust proxy` (TRUST_PROXY), so a client behind a trusted proxy is its forwarded address. */
  trustProxy?: string | number;
}

export interface DemoServer {
  app: Express;
  agents: Readonly<Record<DemoFeature, AntigravityAgent>>;
  pool: HarnessPool;
  /** Holds `workspaces/` (one short directory per thread) and `files/` (write_file sandboxes); removed on close. */
  temporaryRoot: string;
  /**
   * Closes the agent routes (new requests get 503 `SERVER_CLOSED`; streaming runs get up to half the
   * deadline to finish, then are ended with every other open stream), closes every agent (their
   * sessions end and parked turns are released), the state stores, then stops every harness
   * process and removes the temporary root. Idempotent.
   */
  close(options?: { deadlineMs?: number }): Promise<void>;
  /** Aborted when `close()` starts. */
  readonly signal: AbortSignal;
  /** Resolves when `close()` has finished. */
  readonly closed: Promise<void>;
}

export const defaultShutdownDeadlineMs = 10_000;
/** Harness processes the demo's shared pool runs at most (each holds up to 8 conversations). */
export const defaultMaxHarnessProcesses = 8;

/**
 * Builds the demo server: one agent per dojo feature on one shared harness pool, the agent routes
 * (`POST /<feature>`, `GET /<feature>/capabilities`, `GET /healthz`), `GET /metrics`, and the dojo
 * under `/dojo/`. Listening is the caller's job (main.ts, or a test on port 0).
 */
export async function createDemoServer(config: DemoServerConfig): Promise<DemoServer> {
  const { harness, logger } = config;
  // A short name: thread workspaces live under it, and the harness tells the model their paths.
  const temporaryRoot = await mkdtemp(join(config.temporaryParent ?? tmpdir(), "agd-"));
  const workspaceRoot = join(temporaryRoot, "workspaces");
  const sandboxRoot = join(temporaryRoot, "files");
  await Promise.all([mkdir(workspaceRoot), mkdir(sandboxRoot)]);

  const prometheus = new PrometheusMetrics();
  const pool = new HarnessPool({
    // Every demo agent shares this pool; past the cap, acquires queue instead of spawning more processes.
    maxProcesses: defaultMaxHarnessProcesses,
    ...config.pool,
    harness: { binaryPath: harness.binaryPath, logger: logger.child({ component: "harness" }), onDrift: prometheus.drift.record },
    logger: logger.child({ component: "pool" }),
  });
  let agents: Record<DemoFeature, AntigravityAgent>;
  let stores;
  try {
    stores = await createStateStores(config.state ?? {}, logger);
    agents = createDemoAgents({
      harness,
      pool,
      workspaceRoot,
      sandboxRoot,
      taskStepDelayMs: config.taskStepDelayMs ?? defaultTaskStepDelayMs,
      logger: logger.child({ component: "agent" }),
      ...(config.state?.saveDir === undefined ? {} : { saveDir: config.state.saveDir }),
      ...(stores.threadStore === undefined ? {} : { threadStore: stores.threadStore }),
    });
  } catch (error) {
    // An invalid agent option or an unreachable Redis: nothing is running yet, but the pool, the
    // stores and the directory are ours to undo.
    await stores?.close();
    await pool.close({ deadlineMs: 0 });
    await rm(temporaryRoot, { recursive: true, force: true });
    throw error;
  }
  const stateStores = stores;
  const startedAt = Date.now();
  prometheus.attach({
    startedAt,
    pool: () => pool.metrics(),
    sessions: () => Object.fromEntries(demoFeatures.map((feature) => [feature, agents[feature].stats().sessions])),
  });

  const app = express();
  app.disable("x-powered-by");
  if (config.trustProxy !== undefined) app.set("trust proxy", config.trustProxy);
  app.use(createDojoRouter(config.dojoDistDirectory));
  const authorize = config.authTokens === undefined ? undefined : bearerTokenAuthorize(config.authTokens);
  app.get(
    "/metrics",
    // With AUTH_TOKENS, the metrics ask for a token as the agents do.
    ...(authorize === undefined ? [] : [requirePrincipal(authorize)]),
    createMetricsHandler(() => ({
      harness: { kind: harness.kind, reason: publicReason(harness.reason) },
      uptimeMs: Date.now() - startedAt,
      pool: publicPoolMetrics(pool.metrics()),
      agents: Object.fromEntries(demoFeatures.map((feature) => [feature, agents[feature].stats()])),
      state: { kind: stateStores.kind },
    }), prometheus.registry),
  );
  const router = createAgentRouter(agents, {
    logger: logger.child({ component: "http" }),
    // One client (a principal, or an address) must not take what every visitor shares: parked
    // questions, runs, open streams. On unless the operator turns it off.
    clientLimits: config.clientLimits ?? {},
    // With AUTH_TOKENS, every run needs a bearer token and threads belong to the token's name.
    ...(authorize === undefined ? {} : { authorize }),
    // Replicas say who served each response (x-ag-ui-antigravity-replica); a lone server does not.
    ...(config.state?.replicaId === undefined ? {} : { replicaId: config.state.replicaId }),
  });
  app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger.child({ component: "http" })));

  const close = async (deadlineMs: number): Promise<void> => {
    const closingStartedAt = Date.now();
    const deadline = closingStartedAt + deadlineMs;
    // Drain: the agent routes refuse new requests, and the streaming runs get up to half the deadline
    // to finish. Runs parked on a human are not in flight; closing the agents releases them. The
    // metrics and the dojo, outside the router, keep answering until the HTTP server closes.
    const drainMs = deadlineMs / 2;
    await router.close({ drainMs });
    // The router's drain lasts its whole time only when runs were still streaming at its end.
    if (Date.now() - closingStartedAt >= drainMs) logger.warn({ drainMs }, "runs still streaming at the drain deadline were stopped");
    const results = await Promise.allSettled(demoFeatures.map((feature) => agents[feature].close()));
    for (const [index, result] of results.entries()) {
      if (result.status === "rejected") logger.warn({ err: result.reason, agent: demoFeatures[index] }, "an agent failed to close");
    }
    // After the agents, whose sessions record their threads as they close.
    await stateStores.close().catch((error: unknown) => logger.warn({ err: error }, "closing the thread state stores failed"));
    await pool.close({ deadlineMs: Math.max(deadline - Date.now(), 0) });
    await rm(temporaryRoot, { recursive: true, force: true });
  };

  const lifetime = new Lifetime();
  return {
    app,
    agents,
    pool,
    temporaryRoot,
    close: (options = {}) => lifetime.close(() => new DOMException("The demo server was closed.", "AbortError"), () => close(options.deadlineMs ?? defaultShutdownDeadlineMs)),
    signal: lifetime.signal,
    closed: lifetime.closed,
  };
}
