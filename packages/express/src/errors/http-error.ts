import { CLIENT_ERROR_CODES, type ClientErrorCode } from "@ag-ui-antigravity/foundation";
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
  /** Where in the request body, as a JSON pointer (`/messages/0/content`); `""` for the body as a whole or a count of issues left out. */
  path: string;
  /** What is wrong there, in words (a schema's message); never quotes the value. */
  message: string;
}

/**
 * The JSON body of every error response the router sends: a code to match on, a message, and the
 * refused fields.
 */
export interface HttpErrorBody {
  /** The error itself; the body's only field. */
  error: {
    /** What went wrong, to match on (docs/error-codes.md); an agent's own first-`RUN_ERROR` code is passed through as spelled. */
    code: HttpErrorCode;
    /** A human-readable explanation; it may change between versions, so match on `code`. */
    message: string;
    /** The rejected fields of an invalid request (at most 20, then one that counts the rest); absent for other errors. */
    issues?: HttpErrorIssue[];
  };
}

/** A vocabulary code that has an HTTP status: the codes this binding answers a request with. */
export type HttpStatusErrorCode = {
  [Code in keyof typeof CLIENT_ERROR_CODES]: (typeof CLIENT_ERROR_CODES)[Code]["httpStatus"] extends number ? Code : never;
}[keyof typeof CLIENT_ERROR_CODES];

export interface HttpErrorReply {
  readonly status: number;
  readonly code: HttpErrorCode;
  readonly message: string;
  readonly issues?: HttpErrorIssue[];
  /** Sent as `Retry-After` (seconds), for 429 and 503. */
  readonly retryAfterSeconds?: number;
}

/** What a reply may carry beside its code and message. */
export interface HttpErrorDetails {
  readonly issues?: HttpErrorIssue[];
  readonly retryAfterSeconds?: number;
}

/**
 * The binding's reply for one of its own refusals: the status is the one docs/error-codes.md gives
 * the code (`CLIENT_ERROR_CODES`), so a code and its status are written down once.
 */
export function httpError(code: HttpStatusErrorCode, message: string, details: HttpErrorDetails = {}): HttpErrorReply {
  return { status: CLIENT_ERROR_CODES[code].httpStatus, code, message, ...details };
}

/**
 * The reply relaying a code an agent reported (a first `RUN_ERROR`'s, a readiness check's): an
 * agent other than ours may spell codes its own way, so this is the one path that takes any string.
 */
export function relayedHttpError(status: number, code: string, message: string, details: HttpErrorDetails = {}): HttpErrorReply {
  return { status, code, message, ...details };
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
