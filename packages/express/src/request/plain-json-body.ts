import { isUtf8 } from "node:buffer";
import type { Request } from "express";
import { httpError, type HttpErrorReply } from "../errors/http-error.js";

export const NOT_JSON_REPLY: HttpErrorReply = httpError("INVALID_JSON", "The request body is not valid JSON.");
export const NOT_UTF8_REPLY: HttpErrorReply = httpError("INVALID_JSON", "The request body is not valid UTF-8.");
export const ENDED_EARLY_REPLY: HttpErrorReply = httpError("INVALID_JSON", "The request body ended early.");

/** A body read: its value, and the JSON text it was parsed from (none for an empty body, read as `{}`). */
export type PlainJsonBody = { readonly ok: true; readonly body: unknown; readonly text?: string } | { readonly ok: false; readonly reply: HttpErrorReply };

/** JSON's own whitespace (RFC 8259), which body-parser's strict check skips before the first character. */
const LEADING_WHITESPACE = /^[ \t\n\r]*/;

/**
 * The declared length of a body in the common shape, or undefined: `application/json` without
 * parameters (so UTF-8), no content coding, no transfer coding, a declared length of at most
 * `maxBytes`, and nothing read yet (no app-level parser got there first). Such a body is read by
 * `readPlainJsonBody`; any other is left to body-parser, which also handles charsets, codings and
 * chunked bodies.
 */
export function plainBodyLength(request: Request, maxBytes: number): number | undefined {
  if (request.body !== undefined || request.readableDidRead) return undefined;
  const { headers } = request;
  const type = headers["content-type"];
  if (type === undefined || type.includes(";") || headers["transfer-encoding"] !== undefined) return undefined;
  const coding = headers["content-encoding"];
  if (coding !== undefined && coding.toLowerCase() !== "identity") return undefined;
  const length = Number(headers["content-length"]);
  return Number.isSafeInteger(length) && length > 0 && length <= maxBytes ? length : undefined;
}

/**
 * Reads and parses a body `plainBodyLength` accepted, as body-parser's strict JSON parser with our
 * UTF-8 check would: invalid UTF-8 and a first character other than `{` or `[` are refused, a BOM
 * is dropped (as its decoder drops it), and an empty text is `{}`. Without its general machinery
 * (stream decoders, charset tables, decompression), a small body costs a fraction of the time.
 *
 * A small body usually comes in the same socket read as its headers, and a handler that awaited
 * anything runs after the parser pushed it: when every declared byte is buffered (the parser never
 * passes on more than the declared length), the body is taken from the request's buffer at once,
 * with no listeners and no ticks waiting for the stream to flow and end. Otherwise it is read as it
 * arrives.
 */
export function readPlainJsonBody(request: Request, length: number): PlainJsonBody | Promise<PlainJsonBody> {
  // Not flowing: a flowing stream's read() hands out one buffered chunk, not the whole buffer.
  if (request.readableLength === length && request.readableFlowing !== true) {
    const body = request.read() as Buffer | null;
    if (body !== null) {
      // The parser may not have seen the message's end yet: flowing, the stream ends when it does,
      // as a body read through listeners ends.
      request.resume();
      return body.length === length ? parseJsonBody(body) : { ok: false, reply: ENDED_EARLY_REPLY };
    }
  }
  return readArrivingBody(request, length);
}

function readArrivingBody(request: Request, length: number): Promise<PlainJsonBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (result: PlainJsonBody): void => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onEndedEarly);
      request.off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (received !== length) settle({ ok: false, reply: ENDED_EARLY_REPLY });
      else settle(parseJsonBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received)));
    };
    const onEndedEarly = (): void => settle({ ok: false, reply: ENDED_EARLY_REPLY });
    // Closed before its end: the client went away in the middle of the body.
    const onClose = (): void => {
      if (!request.readableEnded) onEndedEarly();
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onEndedEarly);
    request.on("close", onClose);
  });
}

/** A UTF-8 body's text as body-parser's decoder gives it: decoded, without a byte order mark. */
export function utf8BodyText(buffer: Buffer): string {
  const text = buffer.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseJsonBody(buffer: Buffer): PlainJsonBody {
  if (!isUtf8(buffer)) return { ok: false, reply: NOT_UTF8_REPLY };
  const text = utf8BodyText(buffer);
  if (text.length === 0) return { ok: true, body: {} };
  const first = text[LEADING_WHITESPACE.exec(text)?.[0].length ?? 0];
  if (first !== "{" && first !== "[") return { ok: false, reply: NOT_JSON_REPLY };
  try {
    return { ok: true, body: JSON.parse(text) as unknown, text };
  } catch {
    return { ok: false, reply: NOT_JSON_REPLY };
  }
}
