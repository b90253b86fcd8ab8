import type { Request, Response } from "express";
import { FORBIDDEN_REPLY } from "../auth/authorize-request.js";
import { principalId } from "../auth/principal.js";
import type { OwnershipKey, ThreadClaim, ThreadOwnershipStore } from "../auth/thread-ownership-store.js";
import { sendHttpError } from "../errors/http-error.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";
import { createJsonBodyReader } from "../request/json-body.js";
import { inputEchoOf } from "../run/input-echo.js";
import { readLastEventId } from "../request/last-event-id.js";
import { validateRunInput } from "../request/run-input-schema.js";
import { checkThreadIdHeader } from "../request/thread-id-header.js";
import { connectSourceOf } from "../run/connect-source.js";
import { referenceFailure } from "../run/failure-reference.js";
import { isRefusal, type PrincipalBudget } from "../limits/principal-budget.js";
import { resolveAuthorizedTarget, type AgentTarget, type ResolveAgent } from "./authorized-target.js";
import { streamAgentRun, type StreamAgentRunOutcome, type StreamAgentRunRequest } from "../run/stream-agent-run.js";

/** The agent id a thread is owned under: the route name, else the agent's own id. */
function ownershipAgentId(target: AgentTarget): string {
  return target.name ?? target.agent.agentId ?? "agent";
}

/**
 * POST handler for a run, or for a connect (AG-UI's reconnect: the agent's `connect(input)` stream,
 * resumed after `Last-Event-ID`): principal → body → schema → thread ownership → stream. A thread is
 * claimed only by a request that passed all the checks before it, and a claim whose run the agent
 * refused before starting (a 4xx/5xx instead of a stream) is undone, so refused runs never take a
 * thread. Every refusal before the stream is a JSON error; the handler's promise never rejects.
 */
export function createRunHandler(
  resolveAgent: ResolveAgent,
  options: ResolvedAgentRouterOptions,
  threadOwnership: ThreadOwnershipStore,
  budget: PrincipalBudget | undefined,
  kind: "run" | "connect" = "run",
): (request: Request, response: Response) => Promise<void> {
  const readJsonBody = createJsonBodyReader({ maxBodyBytes: options.maxBodyBytes });
  const logger = options.logger;
  return async (request, response) => {
    try {
      // Authorized before the body is read, so an anonymous caller cannot make us parse a megabyte.
      const authorized = await resolveAuthorizedTarget(request, response, resolveAgent, options);
      if (authorized === undefined) return;
      const { target, principal } = authorized;
      const body = await readJsonBody(request, response);
      if (!body.ok) {
        sendHttpError(response, body.reply);
        return;
      }
      const validation = validateRunInput(body.body);
      if (!validation.valid) {
        sendHttpError(response, {
          status: 400,
          code: "INVALID_INPUT",
          message: "The request body is not a valid AG-UI RunAgentInput.",
          issues: validation.issues,
        });
        return;
      }
      const input = validation.input;
      const headerMismatch = checkThreadIdHeader(request, input.threadId);
      if (headerMismatch !== undefined) {
        sendHttpError(response, headerMismatch);
        return;
      }
      // Where the stream comes from: a connect follows the thread; a run echoes its input from the request text when it can.
      let streamFrom: Pick<StreamAgentRunRequest, "source" | "resumeAfter" | "inputEcho"> = {};
      if (kind === "connect") {
        const lastEventId = readLastEventId(request, body.body);
        if (!lastEventId.ok) {
          sendHttpError(response, { status: 400, code: "INVALID_INPUT", message: lastEventId.message });
          return;
        }
        const source = connectSourceOf(target.agent.clone() as typeof target.agent, input);
        if (source === undefined) {
          sendHttpError(response, { status: 501, code: "CONNECT_NOT_SUPPORTED", message: "This agent does not implement AG-UI connect." });
          return;
        }
        streamFrom = { source, ...(lastEventId.cursor === undefined ? {} : { resumeAfter: lastEventId.cursor }) };
      } else {
        const inputEcho = inputEchoOf(body.body, input, body.text);
        if (inputEcho !== undefined) streamFrom = { inputEcho };
      }
      // Checked before the thread is claimed, so a refused run takes nothing. Without auth, a client is its
      // address. A connect starts no work, so only runs count.
      const admission =
        kind === "run"
          ? budget?.begin(
              principal === undefined ? `address:${request.socket.remoteAddress ?? "unknown"}` : `principal:${principalId(principal)}`,
              `${target.name ?? ""}\u0000${input.threadId}`,
            )
          : undefined;
      if (admission !== undefined && isRefusal(admission)) {
        logger.warn({ agent: target.name }, "run refused: the client is over its budget");
        sendHttpError(response, { status: 429, ...admission });
        return;
      }
      let outcome: StreamAgentRunOutcome = "refused";
      try {
        let claim: { key: OwnershipKey; owner: string; result: ThreadClaim } | undefined;
        if (principal !== undefined) {
          const owner = principalId(principal);
          const key: OwnershipKey = { agentId: ownershipAgentId(target), threadId: input.threadId };
          let result: ThreadClaim;
          try {
            result = await threadOwnership.claim(key, owner);
          } catch (error) {
            const failure = referenceFailure("The thread's owner cannot be checked right now; try again shortly.");
            logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "run refused: the ownership store failed");
            sendHttpError(response, { status: 503, code: "OWNERSHIP_UNAVAILABLE", message: failure.message });
            return;
          }
          if (result === "refused") {
            logger.warn({ agent: target.name, principal: owner }, "run refused: thread belongs to another principal");
            sendHttpError(response, FORBIDDEN_REPLY);
            return;
          }
          if (result === "full") {
            logger.warn({ agent: target.name }, "run refused: the ownership store is full");
            sendHttpError(response, { status: 503, code: "OWNERSHIP_FULL", message: "The server cannot take new threads right now; try again later." });
            return;
          }
          claim = { key, owner, result };
        }
        outcome = await streamAgentRun(
          { request, response, agent: target.agent, agentName: target.name, input, ...streamFrom },
          {
            keepAliveIntervalMs: options.keepAliveIntervalMs,
            // A connect has no refusal to turn into a status worth waiting for: it streams at once.
            firstEventTimeoutMs: kind === "connect" ? 0 : options.firstEventTimeoutMs,
            maxBufferedBytes: options.maxBufferedBytes,
            runErrorStatuses: options.runErrorStatuses,
            logger,
          },
        );
        if (outcome === "refused" && claim?.result === "claimed") {
          await threadOwnership.release(claim.key, claim.owner).catch((error: unknown) => {
            logger.warn({ agent: target.name, err: error }, "a refused run's thread claim could not be undone");
          });
        }
      } finally {
        admission?.end(outcome === "parked" ? "parked" : "ended");
      }
    } catch (error) {
      const failure = referenceFailure("The server failed to handle the run.");
      logger.error({ err: error, correlationId: failure.correlationId }, "run handler failed");
      if (response.headersSent) response.destroy();
      else sendHttpError(response, { status: 500, code: "INTERNAL_ERROR", message: failure.message });
    }
  };
}
