import type { ClientErrorCode } from "@ag-ui-antigravity/foundation";
import type { Response } from "express";

/**
 * The codes a client can see in an HTTP error body (`{ error: { code, message, issues? } }`),
 * answered before any event is streamed. After the stream starts, failures travel as `RUN_ERROR`
 * events instead (see `run-error-status.ts`).
 */
export type HttpErrorCode =
  | ClientErrorCode
  // Codes an agent other than ours reported in its first `RUN_ERROR` keep their own spelling.
  | (string & {});

/** One schema violation, located by a JSON-pointer-like path. Never carries the offending value. */
export interface HttpErrorIssue {
  path: string;
  message: string;
}

/**
 * The JSON body of every error response the router sends: a code to match on, a message, and the
 * refused fields.
 */
export interface HttpErrorBody {
  error: {
    code: HttpErrorCode;
    message: string;
    issues?: HttpErrorIssue[];
  };
}

export interface HttpErrorReply {
  status: number;
  code: HttpErrorCode;
  message: string;
  issues?: HttpErrorIssue[];
  /** Sent as `Retry-After` (seconds), for 429 and 503. */
  retryAfterSeconds?: number;
}

/** Answers a request with the binding's JSON error shape, unless headers already left. */
export function sendHttpError(response: Response, reply: HttpErrorReply): void {
  if (response.headersSent) return;
  const body: HttpErrorBody = { error: { code: reply.code, message: reply.message } };
  if (reply.issues !== undefined) body.error.issues = reply.issues;
  response.status(reply.status).set("Cache-Control", "no-store");
  if (reply.retryAfterSeconds !== undefined) response.set("Retry-After", String(reply.retryAfterSeconds));
  response.json(body);
}
