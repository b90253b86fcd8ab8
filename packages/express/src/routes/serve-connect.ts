import { RESUME_RUN_ID_PROP } from "@ag-ui-antigravity/foundation";
import { EMPTY } from "rxjs";
import { FORBIDDEN_REPLY } from "../auth/authorize-request.js";
import { principalId } from "../auth/principal.js";
import { httpError, sendHttpError } from "../errors/http-error.js";
import { isAccountRefusal, type StreamTicket } from "../limits/client-accounts.js";
import { clientKeyOf } from "../limits/client-key.js";
import { readLastEventId } from "../request/last-event-id.js";
import { connectSourceOf, type AgentEventStream } from "../run/connect-source.js";
import { referenceFailure } from "../run/failure-reference.js";
import { streamAgentRun } from "../run/stream-agent-run.js";
import type { CheckedRequest } from "./checked-request.js";
import type { RouteServices } from "./run-handler.js";

/** Whether the client asks the connect stream to stay open for turns the server starts. */
function asksToStayOpen(checked: CheckedRequest): boolean {
  const props = checked.input.forwardedProps as Record<string, unknown> | undefined;
  return props?.["stayOpen"] === true;
}

/**
 * A connect (AG-UI's reconnect). It starts no work and claims nothing: with auth, a thread owned by
 * another principal is refused (403), and a thread nobody owns yet gets an empty stream without
 * asking the agent (nothing of it can be the caller's; a claim would let anyone squat threads, or
 * fill the ownership store, by connecting). Without auth, a caller that does not show the thread's
 * transcript (its newest user message, as a client that took part holds it) gets an empty stream
 * too: a thread id alone gives nobody a thread's contents. A `stayOpen` stream counts on the
 * client's account until it closes. It streams at once (no first-event wait). After `Last-Event-ID`
 * cut mid-run, the agent is asked for that run (`RESUME_RUN_ID_PROP`), never another one.
 */
export async function serveConnect(checked: CheckedRequest, services: RouteServices): Promise<void> {
  const { request, response, target, principal } = checked;
  const { options, accounts } = services;
  const owners = services.ownersOf(target);
  const logger = options.logger;
  const lastEventId = readLastEventId(request, checked.body.body);
  if (!lastEventId.ok) {
    sendHttpError(response, httpError("INVALID_INPUT", lastEventId.message));
    return;
  }
  const cursor = lastEventId.cursor;
  // A stream cut before its run's end resumes that run; after the end there is no run to resume.
  const input = cursor === undefined || cursor.ended ? checked.input : { ...checked.input, forwardedProps: { ...asRecord(checked.input.forwardedProps), [RESUME_RUN_ID_PROP]: cursor.runId } };
  let ownedByCaller = principal === undefined;
  if (principal === undefined && owners.showsTranscript !== undefined) {
    try {
      ownedByCaller = await owners.showsTranscript(input.threadId, input.messages);
    } catch (error) {
      const failure = referenceFailure("The thread's records cannot be read right now; try again shortly.");
      logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "connect refused: the thread store failed");
      sendHttpError(response, httpError("OWNERSHIP_UNAVAILABLE", failure.message));
      return;
    }
    if (!ownedByCaller) logger.info({ agent: target.name }, "connect without a principal did not show the thread's transcript: an empty stream");
  }
  if (principal !== undefined) {
    let owner: string | undefined;
    try {
      owner = await owners.ownerOf(input.threadId);
    } catch (error) {
      const failure = referenceFailure("The thread's owner cannot be checked right now; try again shortly.");
      logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "connect refused: the ownership store failed");
      sendHttpError(response, httpError("OWNERSHIP_UNAVAILABLE", failure.message));
      return;
    }
    if (owner !== undefined && owner !== principalId(principal)) {
      logger.warn({ agent: target.name, principal: principalId(principal) }, "connect refused: thread belongs to another principal");
      sendHttpError(response, FORBIDDEN_REPLY);
      return;
    }
    ownedByCaller = owner !== undefined;
  }
  let ticket: StreamTicket | undefined;
  if (ownedByCaller && asksToStayOpen(checked) && accounts !== undefined) {
    const admission = accounts.admitStream(clientKeyOf(principal, request));
    if (isAccountRefusal(admission)) {
      logger.warn({ agent: target.name }, "connect refused: the client holds too many open streams");
      sendHttpError(response, httpError(admission.code, admission.message, { retryAfterSeconds: admission.retryAfterSeconds }));
      return;
    }
    ticket = admission;
  }
  try {
    const source: AgentEventStream | undefined = ownedByCaller ? connectSourceOf(target.agent.clone() as typeof target.agent, input) : EMPTY;
    if (source === undefined) {
      sendHttpError(response, httpError("CONNECT_NOT_SUPPORTED", "This agent does not implement AG-UI connect."));
      return;
    }
    await streamAgentRun(
      { request, response, agent: target.agent, agentName: target.name, input, source, ...(cursor === undefined ? {} : { resumeAfter: cursor }) },
      {
        keepAliveIntervalMs: options.keepAliveIntervalMs,
        // A connect has no refusal to turn into a status worth waiting for: it streams at once.
        firstEventTimeoutMs: 0,
        maxBufferedBytes: options.maxBufferedBytes,
        runErrorStatuses: options.runErrorStatuses,
        logger,
      },
    );
  } finally {
    ticket?.end();
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
