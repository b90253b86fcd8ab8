import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";
import { parseAuthTokens } from "./auth/bearer-tokens.js";

/** What the server reads from its environment. */
export interface ServerEnvironment {
  /** `PORT`, default 8027; 0 picks a free port (tests). */
  port: number;
  /** `HOST`, default 127.0.0.1: the demo is not meant to be reachable from other machines. */
  host: string;
  /** `LOG_LEVEL`, default info. */
  logLevel: string;
  /** `ANTIGRAVITY_DEMO_HARNESS`: auto (default), real or emulator. */
  harnessPreference: string | undefined;
  /** `DOJO_DIST_DIR`: serve the dojo from elsewhere than apps/dojo/dist. */
  dojoDistDirectory: string | undefined;
  /** `DEMO_TASK_STEP_MS`: how long each agentic_generative_ui step takes (default 700; tests use less). */
  taskStepDelayMs: number;
  /** `SAVE_DIR`: where conversations, the thread map and thread owners persist (an absolute path); default none (memory). */
  saveDir?: string | undefined;
  /** `REDIS_URL` (`redis://` or `rediss://`): keep the thread map, owners and thread leases in Redis, for replicas. */
  redisUrl?: string | undefined;
  /** `REPLICA_ID`: this replica's name in thread leases (default: a random id). */
  replicaId?: string | undefined;
  /** `REPLICA_TTL_MS`: with Redis, how long after its last heartbeat a replica counts as dead (default the store's, 15 s). */
  replicaTtlMs?: number | undefined;
  /** `AUTH_TOKENS` (`name:token,…`): bearer token → principal; when set, every run must present one. */
  authTokens?: ReadonlyMap<string, string> | undefined;
  /**
   * `CLIENT_LIMITS`: `on` (default) counts what each client holds (per principal with AUTH_TOKENS,
   * per address without) and refuses it past the binding's limits; `off` only for tests and trusted
   * load generators.
   */
  clientLimits: boolean;
  /**
   * `TRUST_PROXY`: Express's `trust proxy` setting (`loopback`, an address or subnet list, or a hop
   * count), so that behind a proxy each client is its forwarded address; default none.
   */
  trustProxy?: string | number | undefined;
}

/** A variable of the server's environment is invalid; the message names it. */
export class ServerEnvironmentError extends CodedError<"ENVIRONMENT_INVALID"> {
  static {
    nameErrorClass(this, "ServerEnvironmentError");
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super("ENVIRONMENT_INVALID", message, options);
  }
}

export const defaultPort = 8027;
export const defaultHost = "127.0.0.1";
export const defaultTaskStepDelayMs = 700;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

export function readServerEnvironment(env: NodeJS.ProcessEnv): ServerEnvironment {
  const authText = nonEmpty(env.AUTH_TOKENS);
  let authTokens: ReadonlyMap<string, string> | undefined;
  try {
    authTokens = authText === undefined ? undefined : parseAuthTokens(authText);
  } catch (error) {
    throw new ServerEnvironmentError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const portText = nonEmpty(env.PORT);
  const port = portText === undefined ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ServerEnvironmentError(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(env.PORT)}).`);
  const stepText = nonEmpty(env.DEMO_TASK_STEP_MS);
  const taskStepDelayMs = stepText === undefined ? defaultTaskStepDelayMs : Number(stepText);
  if (!Number.isInteger(taskStepDelayMs) || taskStepDelayMs < 0 || taskStepDelayMs > 60_000) {
    throw new ServerEnvironmentError(`DEMO_TASK_STEP_MS must be an integer from 0 to 60000 (got ${JSON.stringify(env.DEMO_TASK_STEP_MS)}).`);
  }
  const saveDir = nonEmpty(env.SAVE_DIR);
  if (saveDir !== undefined && !saveDir.startsWith("/")) throw new ServerEnvironmentError(`SAVE_DIR must be an absolute path (got ${JSON.stringify(env.SAVE_DIR)}).`);
  const redisUrl = nonEmpty(env.REDIS_URL);
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) throw new ServerEnvironmentError("REDIS_URL must be a redis:// or rediss:// URL.");
  const replicaId = nonEmpty(env.REPLICA_ID);
  // It is also sent as the x-ag-ui-antigravity-replica header, so it must be header-safe.
  if (replicaId !== undefined && !/^[A-Za-z0-9._~:-]{1,64}$/.test(replicaId)) {
    throw new ServerEnvironmentError(`REPLICA_ID must be 1 to 64 of [A-Za-z0-9._~:-] (got ${JSON.stringify(env.REPLICA_ID)}).`);
  }
  const ttlText = nonEmpty(env.REPLICA_TTL_MS);
  const replicaTtlMs = ttlText === undefined ? undefined : Number(ttlText);
  if (replicaTtlMs !== undefined && (!Number.isInteger(replicaTtlMs) || replicaTtlMs < 300 || replicaTtlMs > 600_000)) {
    throw new ServerEnvironmentError(`REPLICA_TTL_MS must be an integer from 300 to 600000 (got ${JSON.stringify(env.REPLICA_TTL_MS)}).`);
  }
  const limitsText = nonEmpty(env.CLIENT_LIMITS) ?? "on";
  if (limitsText !== "on" && limitsText !== "off") throw new ServerEnvironmentError(`CLIENT_LIMITS must be on or off (got ${JSON.stringify(env.CLIENT_LIMITS)}).`);
  const proxyText = nonEmpty(env.TRUST_PROXY);
  if (proxyText !== undefined && !/^[A-Za-z0-9.:/, ]{1,512}$/.test(proxyText)) {
    throw new ServerEnvironmentError("TRUST_PROXY must be loopback, linklocal, uniquelocal, addresses or subnets (comma-separated), or a hop count.");
  }
  return {
    port,
    host: nonEmpty(env.HOST) ?? defaultHost,
    logLevel: nonEmpty(env.LOG_LEVEL) ?? "info",
    harnessPreference: nonEmpty(env.ANTIGRAVITY_DEMO_HARNESS),
    dojoDistDirectory: nonEmpty(env.DOJO_DIST_DIR),
    taskStepDelayMs,
    saveDir,
    redisUrl,
    replicaId,
    replicaTtlMs,
    authTokens,
    clientLimits: limitsText === "on",
    trustProxy: proxyText === undefined ? undefined : /^\d+$/.test(proxyText) ? Number(proxyText) : proxyText,
  };
}
