import { FORBIDDEN_REPLY } from "../auth/authorize-request.js";
import { principalId } from "../auth/principal.js";
import type { ThreadClaim } from "../auth/thread-ownership-store.js";
import { httpError, sendHttpError } from "../errors/http-error.js";
import { isAccountRefusal } from "../limits/client-accounts.js";
import { clientKeyOf } from "../limits/client-key.js";
import { holdingProbeOf } from "../limits/thread-holdings.js";
import { referenceFailure } from "../run/failure-reference.js";
import { streamAgentRun, type StreamAgentRunOutcome } from "../run/stream-agent-run.js";
import { accountThreadKeyOf, type CheckedRequest } from "./checked-request.js";
import type { RouteServices } from "./run-handler.js";

/**
 * A run: the client's account admits it (429 past a limit), then the thread is claimed for its
 * principal (403 when another owns it), then the agent's clone runs it. Both come before anything
 * runs, so a refused run takes nothing; and a claim whose run the agent refused before starting (a
 * 4xx/5xx instead of a stream) is undone, so refused runs never take a thread. The account learns
 * how the request ended; what the agent still holds after it is asked at the client's next request.
 */
export async function serveRun(checked: CheckedRequest, services: RouteServices): Promise<void> {
  const { request, response, target, principal, input } = checked;
  const { options, accounts } = services;
  const owners = services.ownersOf(target);
  const logger = options.logger;
  const admission = accounts?.admitRun(clientKeyOf(principal, request), {
    key: accountThreadKeyOf(checked),
    holding: holdingProbeOf(target.agent, input.threadId),
  });
  if (admission !== undefined && isAccountRefusal(admission)) {
    logger.warn({ agent: target.name }, "run refused: the client is over its limits");
    sendHttpError(response, httpError(admission.code, admission.message, { retryAfterSeconds: admission.retryAfterSeconds }));
    return;
  }
  let outcome: StreamAgentRunOutcome = "refused";
  try {
    let claim: { owner: string; result: ThreadClaim } | undefined;
    if (principal !== undefined) {
      const owner = principalId(principal);
      let result: ThreadClaim;
      try {
        result = await owners.claim(input.threadId, owner);
      } catch (error) {
        const failure = referenceFailure("The thread's owner cannot be checked right now; try again shortly.");
        logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "run refused: the ownership store failed");
        sendHttpError(response, httpError("OWNERSHIP_UNAVAILABLE", failure.message));
        return;
      }
      if (result === "refused") {
        logger.warn({ agent: target.name, principal: owner }, "run refused: thread belongs to another principal");
        sendHttpError(response, FORBIDDEN_REPLY);
        return;
      }
      if (result === "full") {
        logger.warn({ agent: target.name }, "run refused: the ownership store is full");
        sendHttpError(response, httpError("OWNERSHIP_FULL", "The server cannot take new threads right now; try again later."));
        return;
      }
      claim = { owner, result };
    }
    outcome = await streamAgentRun(
      { request, response, agent: target.agent, agentName: target.name, input },
      {
        keepAliveIntervalMs: options.keepAliveIntervalMs,
        firstEventTimeoutMs: options.firstEventTimeoutMs,
        maxBufferedBytes: options.maxBufferedBytes,
        runErrorStatuses: options.runErrorStatuses,
        logger,
      },
    );
    if (outcome === "refused" && claim?.result === "claimed") {
      await owners.release(input.threadId, claim.owner).catch((error: unknown) => {
        logger.warn({ agent: target.name, err: error }, "a refused run's thread claim could not be undone");
      });
    }
  } finally {
    admission?.end(outcome === "parked" ? "parked" : outcome === "refused" ? "refused" : "ended");
  }
}
