import { shieldLogger } from "@ag-ui-antigravity/foundation";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import { httpError, sendHttpError } from "../errors/http-error.js";
import { toAgentRegistry, type AgentOrAgents } from "../options/agent-registry.js";
import { resolveAgentRouterOptions } from "../options/binding-options.js";
import { addAgentRoutes } from "../routes/add-agent-routes.js";
import { RouterLifetime, type AgentRouterLifetime } from "../routes/router-lifetime.js";

/** The app, with its router's `close()`, `signal` and `closed` for its owner. */
export type AntigravityApp = Express & AgentRouterLifetime;
import { referenceFailure } from "../run/failure-reference.js";
import { resolveAppOptions, type AntigravityAppOptions } from "./app-options.js";

/**
 * A ready Express app serving one AG-UI agent (or a map of them) with the routes of
 * `createAgentRouter`, plus JSON 404s for anything else and a last-resort JSON 500. Call
 * `.listen(port)` on it, or mount it inside another app. `cors` and `beforeRoutes` run ahead of
 * every route, since middleware added with `app.use()` afterwards would only see unknown routes.
 *
 * @example
 * ```ts
 * createAntigravityApp({ chat: chatAgent }).listen(8027);
 * ```
 */
export function createAntigravityApp(agentOrAgents: AgentOrAgents, options: AntigravityAppOptions = {}): AntigravityApp {
  const { routerOptions, before } = resolveAppOptions(options);
  const logger = shieldLogger(routerOptions.logger);
  const app = express();
  app.disable("x-powered-by");
  for (const middleware of before) app.use(middleware);
  // The routes go on the app itself rather than on a router mounted in it: one router dispatch per
  // request instead of two (see `createAgentRouter` for what they serve).
  const registry = toAgentRegistry(agentOrAgents);
  // An app is a whole server: one client must not take what every client shares, so limits are on unless turned off.
  const resolved = resolveAgentRouterOptions(routerOptions.clientLimits === undefined ? { ...routerOptions, clientLimits: {} } : routerOptions);
  const lifetime = new RouterLifetime();
  const closeOwned = addAgentRoutes(app, registry, resolved, lifetime);

  const notFound: RequestHandler = (_request, response) => {
    sendHttpError(response, httpError("NOT_FOUND", "No route matches this method and path."));
  };
  const lastResort: ErrorRequestHandler = (error, _request, response, next) => {
    const failure = referenceFailure("The server failed to handle the request.");
    logger.error({ err: error, correlationId: failure.correlationId }, "unhandled request error");
    // After headers, Express can only destroy the socket; hand it the error to do so.
    if (response.headersSent) {
      next(error);
      return;
    }
    sendHttpError(response, httpError("INTERNAL_ERROR", failure.message));
  };
  app.use(notFound);
  app.use(lastResort);
  return lifetime.attachTo(app, closeOwned);
}
