import type { Request } from "express";
import { httpError, type HttpErrorReply } from "../errors/http-error.js";

/**
 * A copy of the body's `threadId` a client may send so that a proxy can route the run without
 * reading the body (which it may only see the start of). The body stays the authority: a header
 * that disagrees with it is refused, so a run never lands where its thread is not routed.
 */
export const THREAD_ID_HEADER = "x-ag-ui-thread-id";

/** Undefined when the header is absent or equals the body's thread id; the 400 reply otherwise. */
export function checkThreadIdHeader(request: Request, threadId: string): HttpErrorReply | undefined {
  const header = request.headers[THREAD_ID_HEADER];
  if (header === undefined || header === threadId) return undefined;
  // The values are the caller's; the message names the rule, never echoes them.
  return httpError("INVALID_INPUT", `The ${THREAD_ID_HEADER} header must equal the body's threadId (sent once, or not at all).`, {
    issues: [{ path: "/threadId", message: `differs from the ${THREAD_ID_HEADER} header` }],
  });
}
