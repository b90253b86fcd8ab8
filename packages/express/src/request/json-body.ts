import { isUtf8 } from "node:buffer";
import express, { type Request, type Response } from "express";
import { httpError, type HttpErrorReply } from "../errors/http-error.js";
import { ENDED_EARLY_REPLY, NOT_JSON_REPLY, NOT_UTF8_REPLY, plainBodyLength, readPlainJsonBody, type PlainJsonBody, utf8BodyText } from "./plain-json-body.js";

/**
 * Deepest nesting of arrays and objects a body may have. Deeper bodies are refused before any
 * agent sees them: libraries further down (state cloning, JSON encoders) recurse, and a body of
 * `[[[[…` within the size limit would exhaust their stack.
 */
export const MAX_BODY_DEPTH = 512;

/** A body read: its value, and the JSON text it was parsed from (when it was UTF-8 and this reader read it). */
export type JsonBodyResult = { readonly ok: true; readonly body: unknown; readonly text?: string } | { readonly ok: false; readonly reply: HttpErrorReply };

/** True for `application/json` and structured-syntax `application/*+json` media types. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return mediaType === "application/json" || /^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

/**
 * Reads a JSON body with a byte limit, answering the ways it can go wrong with the binding's own
 * replies. A body an app-level parser already read (`express.json()` mounted earlier) is used as is.
 * A small body in the common shape (a chat turn) is read without body-parser (`plain-json-body.ts`),
 * with the same results.
 */
export function createJsonBodyReader(options: { maxBodyBytes: number }): (request: Request, response: Response) => Promise<JsonBodyResult> {
  // The media type is checked before the parser runs, so the parser accepts whatever reaches it.
  const parse = express.json({ limit: options.maxBodyBytes, strict: true, type: () => true, verify: keepUtf8Body });
  return (request, response) =>
    new Promise<JsonBodyResult>((resolve) => {
      if (!isJsonMediaType(request.headers["content-type"])) {
        resolve({
          ok: false,
          reply: httpError("UNSUPPORTED_MEDIA_TYPE", "The request body must be application/json."),
        });
        return;
      }
      if (!hasRequestBody(request)) {
        resolve({ ok: false, reply: httpError("INVALID_JSON", "The request body is empty.") });
        return;
      }
      const checked = (body: unknown, text?: string): void => {
        const accepted: JsonBodyResult = text === undefined ? { ok: true, body } : { ok: true, body, text };
        const checkDepth = (): void => {
          if (exceedsDepth(body, MAX_BODY_DEPTH)) {
            resolve({ ok: false, reply: httpError("INVALID_INPUT", `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`) });
            return;
          }
          if (small) resolve(accepted);
          else setImmediate(() => resolve(accepted));
        };
        // Parsing a megabyte of JSON holds the event loop for tens of milliseconds; the walk below and
        // the request's own checks take about as long again. Other clients' requests run in between.
        // A small body (a chat turn) is walked and checked in well under a millisecond: it goes on
        // at once rather than waiting two turns of a busy event loop.
        const small = declaredLength(request) <= YIELD_ABOVE_BYTES;
        if (small) checkDepth();
        else setImmediate(checkDepth);
      };
      const plainLength = plainBodyLength(request, Math.min(options.maxBodyBytes, YIELD_ABOVE_BYTES));
      if (plainLength !== undefined) {
        const readPlain = (read: PlainJsonBody): void => {
          if (!read.ok) {
            resolve(read);
            return;
          }
          request.body = read.body;
          checked(read.body, read.text);
        };
        const read = readPlainJsonBody(request, plainLength);
        if (read instanceof Promise) void read.then(readPlain);
        else readPlain(read);
        return;
      }
      parse(request, response, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          resolve({ ok: false, reply: replyForParserError(error) });
          return;
        }
        const body: unknown = request.body;
        const bytes = utf8Bodies.get(request);
        utf8Bodies.delete(request);
        if (body === undefined) {
          resolve({ ok: false, reply: httpError("INVALID_JSON", "The request body is empty.") });
          return;
        }
        checked(body, bytes === undefined ? undefined : jsonTextOf(bytes));
      });
    });
}

/**
 * JSON is UTF-8 (RFC 8259, section 8.1). The decoder would turn invalid bytes into U+FFFD and hand the agent
 * text the client never sent, so such a body is refused instead. Other `utf-*` charsets are decoded
 * by body-parser as declared.
 */
function refuseInvalidUtf8(_request: unknown, _response: unknown, buffer: Buffer, encoding: string): void {
  if (!/^utf-?8$/i.test(encoding) || isUtf8(buffer)) return;
  throw Object.assign(new Error("The request body is not valid UTF-8."), { type: "entity.invalid.utf8" });
}

/** The bytes of UTF-8 bodies body-parser has read, from its `verify` hook until its callback takes them. */
const utf8Bodies = new WeakMap<object, Buffer>();

/** body-parser's `verify`: refuses invalid UTF-8, and keeps a UTF-8 body's bytes for its JSON text. */
function keepUtf8Body(request: object, response: unknown, buffer: Buffer, encoding: string): void {
  refuseInvalidUtf8(request, response, buffer, encoding);
  if (/^utf-?8$/i.test(encoding)) utf8Bodies.set(request, buffer);
}

/** The JSON text body-parser parsed from `bytes`; undefined for an empty body (parsed as `{}`). */
function jsonTextOf(bytes: Buffer): string | undefined {
  const text = utf8BodyText(bytes);
  return text.length === 0 ? undefined : text;
}

/** Whether arrays and objects nest deeper than `limit`, walked without recursion. */
function exceedsDepth(value: unknown, limit: number): boolean {
  // Two parallel stacks and for-in, not [child, depth] pairs and Object.values: a megabyte body
  // holds tens of thousands of objects, and allocating per object doubled the time the loop blocks.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  for (let current = values.pop(); current !== undefined; current = values.pop()) {
    const depth = depths.pop() as number;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    if (Array.isArray(current)) {
      // Indexed, not for-of: no iterator object per array.
      for (let index = 0; index < current.length; index += 1) {
        const child: unknown = current[index];
        if (typeof child === "object" && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Bodies up to this many bytes are checked without yielding the event loop in between. */
const YIELD_ABOVE_BYTES = 64 * 1024;

/**
 * The body's byte length as parsed, when its headers say it: Infinity for a chunked body, and for a
 * compressed one (a small gzip body may inflate to megabytes).
 */
function declaredLength(request: Request): number {
  const length = request.headers["content-length"];
  const encoding = request.headers["content-encoding"];
  if (length === undefined || (encoding !== undefined && encoding.toLowerCase() !== "identity")) return Number.POSITIVE_INFINITY;
  return Number(length);
}

/** The same test body-parser makes: a body is announced by a non-zero length or a transfer coding. */
function hasRequestBody(request: Request): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Maps body-parser's documented `type` strings onto our codes; its messages are not forwarded. */
function replyForParserError(error: unknown): HttpErrorReply {
  const type = typeof error === "object" && error !== null ? (error as { type?: unknown }).type : undefined;
  switch (type) {
    case "entity.too.large":
      return httpError("BODY_TOO_LARGE", "The request body is larger than this server accepts.");
    case "entity.parse.failed":
      return NOT_JSON_REPLY;
    case "encoding.unsupported":
    case "charset.unsupported":
      return httpError("UNSUPPORTED_MEDIA_TYPE", "The request body's encoding or charset is not supported.");
    case "entity.invalid.utf8":
      return NOT_UTF8_REPLY;
    case "request.size.invalid":
    case "request.aborted":
      return ENDED_EARLY_REPLY;
    default:
      // A Content-Encoding the client declared but did not honour (gzip that is not gzip): zlib's
      // error, which body-parser passes on with a 400 status and no type.
      if (isZlibError(error)) return httpError("INVALID_JSON", "The request body could not be decompressed.");
      return httpError("INTERNAL_ERROR", "The request body could not be read.");
  }
}

function isZlibError(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("Z_");
}
