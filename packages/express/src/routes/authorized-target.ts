import type { AbstractAgent } from "@ag-ui/client";
import type { Request, Response } from "express";
import { authorizeRequest } from "../auth/authorize-request.js";
import type { Principal } from "../auth/principal.js";
import { httpError, sendHttpError } from "../errors/http-error.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";

/** The agent a request addresses, and the route name it is served under. */
export interface AgentTarget {
  readonly agent: AbstractAgent;
  readonly name: string | undefined;
}

export type ResolveAgent = (request: Request) => AgentTarget | undefined;

export interface AuthorizedTarget {
  readonly target: AgentTarget;
  /** Undefined when the binding has no `authorize` hook. */
  readonly principal: Principal | undefined;
}

/**
 * The checks every agent route makes first, in this order: the path names a served agent (404), then
 * the app's `authorize` hook allows the caller (401/403), before anything of the body is read. On a
 * refusal the error is already sent and the result is undefined.
 */
export async function resolveAuthorizedTarget(
  request: Request,
  response: Response,
  resolveAgent: ResolveAgent,
  options: Pick<ResolvedAgentRouterOptions, "authorize" | "logger">,
): Promise<AuthorizedTarget | undefined> {
  const target = resolveAgent(request);
  if (target === undefined) {
    sendHttpError(response, httpError("AGENT_NOT_FOUND", "No agent is served at this path."));
    return undefined;
  }
  const authorization = await authorizeRequest(request, options.authorize, options.logger);
  if (!authorization.allowed) {
    sendHttpError(response, authorization.refusal);
    return undefined;
  }
  return { target, principal: authorization.principal };
}
