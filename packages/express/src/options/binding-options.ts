import { type Logger, shieldLogger } from "@ag-ui-antigravity/foundation";
import { z } from "zod/v4";
import type { AuthorizeRequest } from "../auth/principal.js";
import { DEFAULT_MAX_THREAD_OWNERS } from "../auth/memory-ownership-store.js";
import type { ThreadOwnershipStore } from "../auth/thread-ownership-store.js";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import type { ClientLimits } from "../limits/client-accounts.js";

/** `maxBodyBytes` when not given: 1 MiB, in bytes. A larger request body is answered with 413. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** `keepAliveIntervalMs` when not given: 15 s of stream silence, in ms, before a keep-alive comment. */
export const DEFAULT_KEEP_ALIVE_INTERVAL_MS = 15_000;
/** `firstEventTimeoutMs` when not given: 10 s, in ms, that headers wait for the agent's first event. */
export const DEFAULT_FIRST_EVENT_TIMEOUT_MS = 10_000;
/** `maxBufferedBytes` when not given: 8 MiB, in bytes, held for a slow reader before its response is dropped. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** What one client may hold at once when `clientLimits` is on and a field is not given. */
export const DEFAULT_CLIENT_LIMITS: Readonly<ClientLimits> = Object.freeze({
  maxConcurrentRuns: 8,
  maxParkedThreads: 16,
  maxOpenStreams: 8,
  parkedTtlMs: 2 * 60 * 60_000,
});

/** Options shared by `createAgentRouter` and `createAntigravityApp`. Every field is optional. */
export interface AgentRouterOptions {
  /** Where the agent routes are mounted inside the router, e.g. `"/agents"`. Default `"/"`. */
  path?: string;
  /** Largest accepted request body, in bytes; larger bodies get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Idle time before an SSE keep-alive comment is written, in ms; 0 turns them off. Default 15 000. */
  keepAliveIntervalMs?: number;
  /**
   * How long headers wait for the agent's first event (so a first `RUN_ERROR` can become a 4xx),
   * in ms; after it the stream starts anyway. 0 starts streams at once. Default 10 000.
   */
  firstEventTimeoutMs?: number;
  /** Encoded bytes held for a client that reads too slowly before its response is dropped. Default 8 MiB. */
  maxBufferedBytes?: number;
  /** Decides who a request comes from; when set, threads are bound to the principal that created them. */
  authorize?: AuthorizeRequest;
  /**
   * Where thread owners are kept (with `authorize`). Default: in this process's memory, lost on
   * restart; pass a `FileOwnershipStore` (one machine) or `RedisOwnershipStore` (replicas) to keep
   * them. The store is the caller's to close.
   */
  ownershipStore?: ThreadOwnershipStore;
  /** Owned threads the default in-memory store keeps; past it new threads get 503 `OWNERSHIP_FULL` (owners are never forgotten for newcomers). Default 100 000. */
  maxThreadOwners?: number;
  /**
   * Extra or replaced entries of the first-`RUN_ERROR` → HTTP status table; `null` removes a
   * default so that code is streamed instead.
   */
  runErrorStatuses?: Record<string, number | null>;
  /** Path of the health route (liveness: the process answers) inside the router, or `false` for none. Default `"/healthz"`. */
  healthPath?: string | false;
  /**
   * Path of the readiness route inside the router, or `false` for none. Default `"/readyz"`: 200
   * while runs would be accepted, 503 with the reason while they would be refused (an agent's
   * `readiness()`: no harness found, thread store unreachable, closing; or the router closing).
   * Point load balancers and orchestrators' readiness probes here, liveness probes at `healthPath`.
   */
  readyPath?: string | false;
  /**
   * What one client may hold at once: the principal `authorize` names, or without auth the client's
   * address (`request.ip`, so Express's `trust proxy` setting applies behind a proxy). Past a limit
   * a request is refused with 429 `RATE_LIMITED` and `Retry-After`. Off for `createAgentRouter`
   * unless given, on for `createAntigravityApp` unless `false`; `{}` takes every default
   * (`DEFAULT_CLIENT_LIMITS`).
   */
  clientLimits?:
    | false
    | {
        /** Runs in flight at once, counting runs that go on after their client left and turns the server starts on its threads. Default 8. */
        maxConcurrentRuns?: number;
        /** Threads waiting on the client's answer (questions, approvals, frontend tools, server-tool interrupts); a run on one of them (the answer) is always admitted. Default 16. */
        maxParkedThreads?: number;
        /** `connect` streams held open with `stayOpen`. Default 8. */
        maxOpenStreams?: number;
        /** For an agent that cannot say what it holds (no `threadHolding`): how long a park counts unless a later run of its thread ends otherwise. Default 2 h. */
        parkedTtlMs?: number;
      };
  /** Receives the binding's logs (pino-compatible). Default: none. */
  logger?: Partial<Logger>;
  /** Sent as `x-ag-ui-antigravity-replica` on every response of the router; default none (no header). */
  replicaId?: string;
}

export interface ResolvedAgentRouterOptions {
  readonly basePath: string;
  readonly maxBodyBytes: number;
  readonly keepAliveIntervalMs: number;
  readonly firstEventTimeoutMs: number;
  readonly maxBufferedBytes: number;
  readonly authorize: AuthorizeRequest | undefined;
  readonly maxThreadOwners: number;
  readonly ownershipStore: ThreadOwnershipStore | undefined;
  readonly runErrorStatuses: Readonly<Record<string, number | null>>;
  readonly healthPath: string | undefined;
  readonly readyPath: string | undefined;
  readonly clientLimits: ClientLimits | undefined;
  readonly logger: Logger;
  readonly replicaId: string | undefined;
}

// Literal segments only, so Express 4 and Express 5 (different path-to-regexp majors) read them alike.
const routePath = z.string().regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, "must be '/' or literal '/segment' parts of [A-Za-z0-9._~-]");
const nonNegativeInteger = z.number().int().nonnegative();
const positiveInteger = z.number().int().positive();

const optionsSchema = z
  .object({
    path: routePath.optional(),
    maxBodyBytes: positiveInteger.optional(),
    keepAliveIntervalMs: nonNegativeInteger.optional(),
    firstEventTimeoutMs: nonNegativeInteger.optional(),
    maxBufferedBytes: positiveInteger.optional(),
    authorize: z.custom<AuthorizeRequest>((value) => typeof value === "function", "must be a function").optional(),
    maxThreadOwners: positiveInteger.optional(),
    ownershipStore: z
      .custom<ThreadOwnershipStore>(
        (value) => typeof value === "object" && value !== null && ["claim", "release", "ownerOf"].every((method) => typeof (value as Record<string, unknown>)[method] === "function"),
        "must be a thread ownership store (claim, release, ownerOf)",
      )
      .optional(),
    runErrorStatuses: z.record(z.string(), z.number().int().min(400).max(599).nullable()).optional(),
    healthPath: z.union([routePath.refine((value) => value.length > 1, "must name a path"), z.literal(false)]).optional(),
    readyPath: z.union([routePath.refine((value) => value.length > 1, "must name a path"), z.literal(false)]).optional(),
    clientLimits: z
      .union([
        z.literal(false),
        z
          .object({ maxConcurrentRuns: positiveInteger.optional(), maxParkedThreads: positiveInteger.optional(), maxOpenStreams: positiveInteger.optional(), parkedTtlMs: positiveInteger.optional() })
          .strict(),
      ])
      .optional(),
    logger: z.custom<Partial<Logger>>((value) => typeof value === "object" && value !== null, "must be an object").optional(),
    replicaId: z.string().regex(/^[A-Za-z0-9._~:-]{1,64}$/, "must be 1 to 64 of [A-Za-z0-9._~:-] (it is sent as a header)").optional(),
  })
  .strict();

/** Validates options and fills in defaults; throws `ExpressBindingError` `CONFIG_INVALID`. */
export function resolveAgentRouterOptions(options: AgentRouterOptions = {}): ResolvedAgentRouterOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`).join("; ");
    throw new ExpressBindingError("CONFIG_INVALID", `Invalid Express binding options: ${detail}`, { cause: parsed.error });
  }
  const value = parsed.data;
  return {
    basePath: trimTrailingSlash(value.path ?? "/"),
    maxBodyBytes: value.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    keepAliveIntervalMs: value.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    firstEventTimeoutMs: value.firstEventTimeoutMs ?? DEFAULT_FIRST_EVENT_TIMEOUT_MS,
    maxBufferedBytes: value.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    authorize: value.authorize,
    maxThreadOwners: value.maxThreadOwners ?? DEFAULT_MAX_THREAD_OWNERS,
    ownershipStore: value.ownershipStore,
    runErrorStatuses: value.runErrorStatuses ?? {},
    healthPath: value.healthPath === false ? undefined : trimTrailingSlash(value.healthPath ?? "/healthz"),
    readyPath: value.readyPath === false ? undefined : trimTrailingSlash(value.readyPath ?? "/readyz"),
    clientLimits: value.clientLimits === undefined || value.clientLimits === false ? undefined : resolveClientLimits(value.clientLimits),
    logger: shieldLogger(value.logger),
    replicaId: value.replicaId,
  };
}

function resolveClientLimits(given: Partial<Record<keyof ClientLimits, number | undefined>>): ClientLimits {
  return {
    maxConcurrentRuns: given.maxConcurrentRuns ?? DEFAULT_CLIENT_LIMITS.maxConcurrentRuns,
    maxParkedThreads: given.maxParkedThreads ?? DEFAULT_CLIENT_LIMITS.maxParkedThreads,
    maxOpenStreams: given.maxOpenStreams ?? DEFAULT_CLIENT_LIMITS.maxOpenStreams,
    parkedTtlMs: given.parkedTtlMs ?? DEFAULT_CLIENT_LIMITS.parkedTtlMs,
  };
}

/** `"/"` becomes `""` so that joining `"" + "/chat"` yields `"/chat"`. */
function trimTrailingSlash(path: string): string {
  return path.endsWith("/") ? path.slice(0, -1) : path;
}
