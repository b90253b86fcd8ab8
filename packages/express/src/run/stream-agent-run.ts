import type { Logger } from "@ag-ui-antigravity/foundation";
import { EventType, type BaseEvent, type RunAgentInput, type RunErrorEvent, type RunFinishedEvent } from "@ag-ui/core";
import type { AbstractAgent } from "@ag-ui/client";
import type { ClientErrorCode } from "@ag-ui-antigravity/foundation";
import { AGUI_MEDIA_TYPE as AGUI_PROTOBUF_MEDIA_TYPE, EventEncoder } from "@ag-ui/encoder";
import type { Request, Response } from "express";
import { relayedHttpError, sendHttpError } from "../errors/http-error.js";
import { retryAfterSecondsFor } from "../errors/retry-after.js";
import { httpStatusForRunErrorCode } from "../errors/run-error-status.js";
import { type EventCursor, EventIdSequence } from "../stream/event-ids.js";
import { EventStreamWriter } from "../stream/event-stream-writer.js";
import type { AgentEventStream } from "./connect-source.js";
import { errorCodeOf, referenceFailure } from "./failure-reference.js";

export interface StreamAgentRunSettings {
  readonly keepAliveIntervalMs: number;
  readonly firstEventTimeoutMs: number;
  readonly maxBufferedBytes: number;
  readonly runErrorStatuses: Readonly<Record<string, number | null>>;
  readonly logger: Logger;
}

export interface StreamAgentRunRequest {
  readonly request: Request;
  readonly response: Response;
  /** The registered agent; each run gets its own clone so runs never share mutable state. */
  readonly agent: AbstractAgent;
  readonly agentName: string | undefined;
  readonly input: RunAgentInput;
  /** The events to stream instead of a clone's `run(input)` (a `connect` stream). */
  readonly source?: AgentEventStream;
  /** Where the client's previous stream broke off: events up to it are not sent again. */
  readonly resumeAfter?: EventCursor;
}

type Phase = "waiting" | "streaming" | "finished";

/** `refused`: the agent's first event was a RUN_ERROR answered with an HTTP error (nothing ran); `served` otherwise. */
export type StreamAgentRunOutcome = "refused" | "served" | "parked";

/**
 * Runs one agent clone and answers the request with its events.
 *
 * Headers wait for the agent's first event: a first `RUN_ERROR` whose code has an HTTP status
 * (`THREAD_BUSY` → 409, …) is answered as a JSON error instead of a stream. If no event comes
 * within `firstEventTimeoutMs`, the stream starts anyway so keep-alives can flow. Once streaming,
 * failures are `RUN_ERROR` events. A client that goes away (`response` 'close') unsubscribes from
 * the agent, which is how an AG-UI agent learns its run was abandoned.
 */
export function streamAgentRun(run: StreamAgentRunRequest, settings: StreamAgentRunSettings): Promise<StreamAgentRunOutcome> {
  const { request, response, input } = run;
  const logger = settings.logger;
  const runFields = { agent: run.agentName, threadId: input.threadId, runId: input.runId };
  const encoder = new EventEncoder(acceptHeaderOf(request));
  const writer = new EventStreamWriter(response, encoder, {
    keepAliveIntervalMs: settings.keepAliveIntervalMs,
    maxBufferedBytes: settings.maxBufferedBytes,
  });

  const eventIds = new EventIdSequence(run.resumeAfter);
  let phase: Phase = "waiting";
  let sourceEnded = false;
  let sourceStopped = false;
  // A RUN_ERROR after the run already ended would be a protocol violation, so remember whether it did.
  let runTerminated = false;
  let subscription: { unsubscribe(): void } | undefined;
  let unsubscribeRequested = false;
  let firstEventTimer: NodeJS.Timeout | undefined;
  let outcome: StreamAgentRunOutcome = "served";
  let settle: () => void = () => undefined;
  const done = new Promise<StreamAgentRunOutcome>((resolve) => {
    settle = () => resolve(outcome);
  });

  const stopSource = (): void => {
    sourceStopped = true;
    if (subscription === undefined) unsubscribeRequested = true;
    else subscription.unsubscribe();
  };

  const clearFirstEventTimer = (): void => {
    if (firstEventTimer === undefined) return;
    clearTimeout(firstEventTimer);
    firstEventTimer = undefined;
  };

  const finish = (): void => {
    if (phase === "finished") return;
    phase = "finished";
    clearFirstEventTimer();
    void writer.end().finally(() => {
      response.off("close", onClose);
      settle();
    });
  };

  const replyInstead = (status: number, code: string, message: string): void => {
    phase = "finished";
    outcome = "refused";
    clearFirstEventTimer();
    stopSource();
    response.off("close", onClose);
    const retryAfterSeconds = retryAfterSecondsFor(code);
    sendHttpError(response, relayedHttpError(status, code, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds }));
    settle();
  };

  const startStream = (firstEventFollows = false): void => {
    if (phase !== "waiting") return;
    phase = "streaming";
    clearFirstEventTimer();
    writer.start({ firstEventFollows });
  };

  const write = (event: BaseEvent): void => {
    runTerminated = event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
    // A run that ends waiting on the client's answer ("parked") counts against that client's budget.
    if (event.type === EventType.RUN_FINISHED) outcome = (event as RunFinishedEvent).outcome?.type === "interrupt" ? "parked" : "served";
    const { id, alreadySeen } = eventIds.next(event);
    if (alreadySeen) return;
    let result;
    try {
      result = writer.enqueue(event, id);
    } catch (error) {
      const failure = referenceFailure(`The agent produced a ${String(event.type)} event that could not be encoded.`);
      logger.error({ ...runFields, err: error, correlationId: failure.correlationId, eventType: event.type }, "event encoding failed");
      stopSource();
      writer.enqueue(runError("ENCODING_ERROR", failure.message));
      finish();
      return;
    }
    if (result === "overflow") {
      logger.warn({ ...runFields, maxBufferedBytes: settings.maxBufferedBytes }, "client reads too slowly; the run is abandoned");
      stopSource();
      writer.abort();
      response.destroy();
      finish();
      return;
    }
    // A run's terminal event is its last: its stream ends with it, not after the agent's own
    // bookkeeping that follows (a connect stream may carry several runs; it ends with its source).
    if (runTerminated && run.source === undefined) finish();
  };

  function onClose(): void {
    if (!sourceEnded && !sourceStopped) logger.warn(runFields, "client disconnected before the run ended; unsubscribing from the agent");
    clearFirstEventTimer();
    stopSource();
    writer.abort();
    if (phase !== "finished") {
      phase = "finished";
      settle();
    }
  }

  const onNext = (event: BaseEvent): void => {
    if (phase === "finished") return;
    if (phase === "waiting") {
      if (event.type === EventType.RUN_ERROR) {
        const { code, message } = event as RunErrorEvent;
        const status = httpStatusForRunErrorCode(code, settings.runErrorStatuses);
        if (status !== undefined && code !== undefined) {
          logger.info({ ...runFields, code, status }, "run refused before streaming");
          replyInstead(status, code, message);
          return;
        }
      }
      // Its headers go out with this event, unless it may be one the client already has (a resume).
      startStream(run.resumeAfter === undefined);
    }
    write(event);
  };

  const onError = (error: unknown): void => {
    sourceEnded = true;
    if (phase === "finished") {
      // The stream already ended with the run's terminal event; what failed after it is still told.
      if (runTerminated) logger.error({ ...runFields, err: error }, "agent failed after its run ended");
      return;
    }
    const code = errorCodeOf(error);
    const status = phase === "waiting" ? httpStatusForRunErrorCode(code, settings.runErrorStatuses) : undefined;
    const failure = referenceFailure(status === undefined ? "The agent failed unexpectedly." : `The agent refused the run (${code}).`);
    logger.error({ ...runFields, err: error, correlationId: failure.correlationId }, "agent run failed");
    if (phase === "waiting") {
      replyInstead(status ?? 500, status === undefined ? "INTERNAL_ERROR" : (code as string), failure.message);
      return;
    }
    if (!runTerminated) writer.enqueue(runError("INTERNAL_ERROR", failure.message));
    finish();
  };

  const onComplete = (): void => {
    sourceEnded = true;
    if (phase === "finished") return;
    startStream();
    finish();
  };

  // 'close' may already have fired while the body was being read; then there is no one to run for.
  if (response.destroyed || response.socket?.destroyed === true) {
    logger.warn(runFields, "client disconnected before the run started; the agent is not run");
    return Promise.resolve("refused");
  }
  response.on("close", onClose);
  if (settings.firstEventTimeoutMs > 0) {
    firstEventTimer = setTimeout(startStream, settings.firstEventTimeoutMs);
    firstEventTimer.unref();
  } else {
    startStream();
  }

  try {
    const source = run.source ?? (run.agent.clone() as AbstractAgent).run(input);
    subscription = source.subscribe({ next: onNext, error: onError, complete: onComplete });
    if (unsubscribeRequested) subscription.unsubscribe();
  } catch (error) {
    // clone() or run() threw before an observable existed.
    onError(error);
  }
  logger.debug({ ...runFields, contentType: encoder.getContentType() }, "run started");
  return done;
}

/** A RUN_ERROR of the binding's own, so its code is one of the vocabulary's. */
function runError(code: ClientErrorCode, message: string): RunErrorEvent {
  return { type: EventType.RUN_ERROR, code, message };
}

// The encoder picks protobuf for any Accept it can satisfy with it, the wildcard included; curl and
// most HTTP libraries send the wildcard by default and expect text. Only a client that names the
// AG-UI protobuf media type gets protobuf; everything else gets SSE.
function acceptHeaderOf(request: Request): { accept?: string } {
  const accept = request.headers.accept;
  return accept !== undefined && accept.includes(AGUI_PROTOBUF_MEDIA_TYPE) ? { accept } : {};
}
