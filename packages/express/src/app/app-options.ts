import cors from "cors";
import type { RequestHandler } from "express";
import { z } from "zod/v4";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import type { AgentRouterOptions } from "../options/binding-options.js";

/** Cross-origin access for browser apps served from another origin. Off unless given. */
export interface AntigravityCorsOptions {
  /** Origins allowed to call the routes, e.g. `["https://app.example.com"]`, or `"*"` for any. */
  origins: readonly string[] | "*";
  /** Let browsers send cookies and HTTP auth (`fetch(…, { credentials: "include" })`). Not with `"*"`. Default false. */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** `createAntigravityApp`'s options: the router's, plus what only a whole app can own. */
export interface AntigravityAppOptions extends AgentRouterOptions {
  /** CORS for every route (preflights included). Default: off, so other origins are refused by browsers. */
  cors?: AntigravityCorsOptions | false;
  /**
   * Middleware that runs before the agent routes, in order (rate limiting, request logging, a
   * custom auth layer…). Middleware added with `app.use()` after creation runs only for unknown routes.
   */
  beforeRoutes?: readonly RequestHandler[];
}

const DEFAULT_PREFLIGHT_MAX_AGE_SECONDS = 600;

const origin = z.string().refine((value) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}, "must be an origin such as https://app.example.com (scheme, host and port, no path or trailing slash)");

const corsSchema = z
  .object({
    origins: z.union([z.literal("*"), z.array(origin).min(1)]),
    credentials: z.boolean().optional(),
    maxAgeSeconds: z.number().int().nonnegative().optional(),
  })
  .strict()
  .refine((value) => !(value.origins === "*" && value.credentials === true), {
    message: 'credentials cannot be combined with origins "*" (browsers refuse it); list the origins',
  });

const appOnlySchema = z.object({
  cors: z.union([corsSchema, z.literal(false)]).optional(),
  beforeRoutes: z.array(z.custom<RequestHandler>((value) => typeof value === "function", "must be a middleware function")).optional(),
});

/** Splits the app-only options from the router's, validating them; throws `CONFIG_INVALID`. */
export function resolveAppOptions(options: AntigravityAppOptions): { routerOptions: AgentRouterOptions; before: RequestHandler[] } {
  const { cors: corsOption, beforeRoutes, ...routerOptions } = options;
  const parsed = appOnlySchema.safeParse({ cors: corsOption, beforeRoutes });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`).join("; ");
    throw new ExpressBindingError("CONFIG_INVALID", `Invalid Express app options: ${detail}`, { cause: parsed.error });
  }
  const before: RequestHandler[] = [];
  if (parsed.data.cors !== undefined && parsed.data.cors !== false) before.push(corsMiddleware(parsed.data.cors));
  before.push(...(parsed.data.beforeRoutes ?? []));
  return { routerOptions, before };
}

function corsMiddleware(options: z.infer<typeof corsSchema>): RequestHandler {
  const allowed = options.origins === "*" ? "*" : new Set(options.origins);
  return cors({
    // A request from an origin not listed gets no CORS headers, so the browser blocks the response.
    origin: allowed === "*" ? "*" : (requestOrigin, callback) => callback(null, requestOrigin !== undefined && allowed.has(requestOrigin)),
    credentials: options.credentials ?? false,
    methods: ["GET", "POST"],
    maxAge: options.maxAgeSeconds ?? DEFAULT_PREFLIGHT_MAX_AGE_SECONDS,
  });
}
