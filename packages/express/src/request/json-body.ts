import express, { type Request, type Response } from "express";
import type { HttpErrorReply } from "../errors/http-error.js";

export type JsonBodyResult = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reply: HttpErrorReply };

/** True for `application/json` and structured-syntax `application/*+json` media types. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return mediaType === "application/json" || /^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

/**
 * Reads a JSON body with a byte limit, answering the ways it can go wrong with the binding's own
 * replies. A body an app-level parser already read (`express.json()` mounted earlier) is used as is.
 */
export function createJsonBodyReader(options: { maxBodyBytes: number }): (request: Request, response: Response) => Promise<JsonBodyResult> {
  // The media type is checked before the parser runs, so the parser accepts whatever reaches it.
  const parse = express.json({ limit: options.maxBodyBytes, strict: true, type: () => true });
  return (request, response) =>
    new Promise<JsonBodyResult>((resolve) => {
      if (!isJsonMediaType(request.headers["content-type"])) {
        resolve({
          ok: false,
          reply: { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", message: "The request body must be application/json." },
        });
        return;
      }
      if (!hasRequestBody(request)) {
        resolve({ ok: false, reply: { status: 400, code: "INVALID_JSON", message: "The request body is empty." } });
        return;
      }
      parse(request, response, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          resolve({ ok: false, reply: replyForParserError(error) });
          return;
        }
        const body: unknown = request.body;
        if (body === undefined) {
          resolve({ ok: false, reply: { status: 400, code: "INVALID_JSON", message: "The request body is empty." } });
          return;
        }
        resolve({ ok: true, body });
      });
    });
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
      return { status: 413, code: "BODY_TOO_LARGE", message: "The request body is larger than this server accepts." };
    case "entity.parse.failed":
      return { status: 400, code: "INVALID_JSON", message: "The request body is not valid JSON." };
    case "encoding.unsupported":
    case "charset.unsupported":
      return { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", message: "The request body's encoding or charset is not supported." };
    case "request.size.invalid":
    case "request.aborted":
      return { status: 400, code: "INVALID_JSON", message: "The request body ended early." };
    default:
      return { status: 500, code: "INTERNAL_ERROR", message: "The request body could not be read." };
  }
}
