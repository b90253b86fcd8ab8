import type { Request, Response } from "express";
import { principalId } from "../auth/principal.js";
import { httpError, sendHttpError } from "../errors/http-error.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";
import { referenceFailure } from "../run/failure-reference.js";
import { resolveAuthorizedTarget, type ResolveAgent } from "./authorized-target.js";
import type { RouteServices } from "./run-handler.js";

/** Threads a list gives by default, and at most (`?limit=`). */
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * GET handler for `<path>/threads` (or `<path>/<name>/threads`): the caller's threads on the agent,
 * the most recently active first, `{ threads: [{ threadId, lastActivityAt, firstUserMessage? }] }`,
 * at most `?limit=` (default 50, at most 200). A list belongs to a principal: without an `authorize`
 * hook there is none, and a thread id is all that tells threads apart, so nothing is listed (403).
 * An agent that keeps no thread list answers 501.
 */
export function createThreadsHandler(resolveAgent: ResolveAgent, services: RouteServices): (request: Request, response: Response) => Promise<void> {
  const options: ResolvedAgentRouterOptions = services.options;
  return async (request, response) => {
    const authorized = await resolveAuthorizedTarget(request, response, resolveAgent, options);
    if (authorized === undefined) return;
    const { target, principal } = authorized;
    if (principal === undefined) {
      sendHttpError(response, httpError("FORBIDDEN", "Thread lists need an authorize hook: without one, threads belong to no one."));
      return;
    }
    const list = services.ownersOf(target).list;
    if (list === undefined) {
      sendHttpError(response, httpError("THREADS_NOT_LISTED", "This agent keeps no thread list."));
      return;
    }
    const limitText = request.query["limit"];
    const limit = typeof limitText === "string" && /^\d{1,3}$/.test(limitText) ? Number(limitText) : limitText === undefined ? DEFAULT_LIMIT : Number.NaN;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      sendHttpError(response, httpError("INVALID_INPUT", `limit must be a whole number from 1 to ${MAX_LIMIT}.`));
      return;
    }
    try {
      const threads = await list(principalId(principal), { limit });
      response.status(200).set("Cache-Control", "no-store").json({ threads });
    } catch (error) {
      const failure = referenceFailure("The thread list cannot be read right now; try again shortly.");
      options.logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "thread list failed");
      sendHttpError(response, httpError("OWNERSHIP_UNAVAILABLE", failure.message));
    }
  };
}
