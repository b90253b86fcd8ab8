import type { Request, Response } from "express";
import type { ThreadOwners } from "../auth/thread-owners.js";
import { httpError, sendHttpError } from "../errors/http-error.js";
import type { ClientAccounts } from "../limits/client-accounts.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";
import { createJsonBodyReader } from "../request/json-body.js";
import { validateRunInput } from "../request/run-input-schema.js";
import { checkThreadIdHeader } from "../request/thread-id-header.js";
import { checkThreadIdKey } from "../request/thread-id-key.js";
import { referenceFailure } from "../run/failure-reference.js";
import { resolveAuthorizedTarget, type AgentTarget, type ResolveAgent } from "./authorized-target.js";
import { serveConnect } from "./serve-connect.js";
import { serveRun } from "./serve-run.js";

/** What a run or a connect is served with once its request passed the common checks. */
export interface RouteServices {
  readonly options: ResolvedAgentRouterOptions;
  /** Who owns the threads of an agent: its own records, or the binding's ownership store. */
  readonly ownersOf: (target: AgentTarget) => ThreadOwners;
  /** The one account per client of what it holds; undefined when `clientLimits` is off. */
  readonly accounts: ClientAccounts | undefined;
}

/** What `createRunHandler` builds a handler from. */
export interface RunHandlerOptions {
  /** Finds the agent a request names. */
  readonly resolveAgent: ResolveAgent;
  readonly services: RouteServices;
  /** A run (`POST /<agent>`) or a connect (`POST /<agent>/connect`); a run when left out. */
  readonly kind?: "run" | "connect";
}

/**
 * POST handler for a run, or for a connect (AG-UI's reconnect: the agent's `connect(input)` stream,
 * resumed after `Last-Event-ID`). Both check, in order, the agent and the principal (before the
 * body is read), the body, its schema and the thread id header; then `serveRun` or `serveConnect`
 * take over. Every refusal before the stream is a JSON error; the handler's promise never rejects.
 */
export function createRunHandler({ resolveAgent, services, kind = "run" }: RunHandlerOptions): (request: Request, response: Response) => Promise<void> {
  const { options } = services;
  const readJsonBody = createJsonBodyReader({ maxBodyBytes: options.maxBodyBytes });
  return async (request, response) => {
    try {
      // Authorized before the body is read, so an anonymous caller cannot make us parse a megabyte.
      const authorized = await resolveAuthorizedTarget(request, response, resolveAgent, options);
      if (authorized === undefined) return;
      const body = await readJsonBody(request, response);
      if (!body.ok) {
        sendHttpError(response, body.reply);
        return;
      }
      const validation = validateRunInput(body.body);
      if (!validation.valid) {
        sendHttpError(response, httpError("INVALID_INPUT", "The request body is not a valid AG-UI RunAgentInput.", { issues: validation.issues }));
        return;
      }
      // A proxy routes on the first `threadId` of the text, JSON.parse keeps the last: they must be one.
      const ambiguousKey = body.text === undefined ? undefined : checkThreadIdKey(body.text);
      if (ambiguousKey !== undefined) {
        sendHttpError(response, ambiguousKey);
        return;
      }
      const headerMismatch = checkThreadIdHeader(request, validation.input.threadId);
      if (headerMismatch !== undefined) {
        sendHttpError(response, headerMismatch);
        return;
      }
      const checked = { request, response, ...authorized, input: validation.input, body };
      if (kind === "connect") await serveConnect(checked, services);
      else await serveRun(checked, services);
    } catch (error) {
      const failure = referenceFailure("The server failed to handle the run.");
      options.logger.error({ err: error, correlationId: failure.correlationId }, "run handler failed");
      if (response.headersSent) response.destroy();
      else sendHttpError(response, httpError("INTERNAL_ERROR", failure.message));
    }
  };
}
