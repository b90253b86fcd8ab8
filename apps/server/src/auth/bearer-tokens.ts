import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthorizeRequest } from "@ag-ui-antigravity/express";
import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** One accepted token and the principal it stands for. */
interface TokenEntry {
  principal: string;
  digest: Buffer;
}

const namePattern = /^[A-Za-z0-9._@-]{1,64}$/;

/** AUTH_TOKENS cannot be read; the message never repeats a token. */
export class AuthTokensError extends CodedError<"AUTH_TOKENS_INVALID"> {
  static {
    nameErrorClass(this, "AuthTokensError");
  }

  constructor(message: string) {
    super("AUTH_TOKENS_INVALID", message);
  }
}

/**
 * Reads `AUTH_TOKENS`: comma-separated `name:token` pairs (`alice:s3cret,bob:other`). Each token
 * must be at least 16 characters; the name becomes the principal that owns the threads it creates.
 * The message of a refusal never repeats a token.
 */
export function parseAuthTokens(text: string): ReadonlyMap<string, string> {
  const tokens = new Map<string, string>();
  for (const [index, entry] of text.split(",").map((part) => part.trim()).filter((part) => part !== "").entries()) {
    const separator = entry.indexOf(":");
    const name = separator < 0 ? "" : entry.slice(0, separator);
    const token = separator < 0 ? "" : entry.slice(separator + 1);
    if (!namePattern.test(name)) throw new AuthTokensError(`AUTH_TOKENS entry ${index + 1} must be name:token with a name of 1 to 64 of [A-Za-z0-9._@-].`);
    if (token.length < 16) throw new AuthTokensError(`AUTH_TOKENS entry ${index + 1} (${name}): the token must be at least 16 characters.`);
    if (tokens.has(token)) throw new AuthTokensError(`AUTH_TOKENS entry ${index + 1} (${name}) repeats another entry's token.`);
    tokens.set(token, name);
  }
  if (tokens.size === 0) throw new AuthTokensError("AUTH_TOKENS is set but names no name:token pair.");
  return tokens;
}

/**
 * An `authorize` hook for the Express binding: `Authorization: Bearer <token>` names the principal
 * the token belongs to; anything else is refused (401). Tokens are compared by their SHA-256
 * digests in constant time, so neither a token's length nor its prefix leaks through timing.
 */
export function bearerTokenAuthorize(tokens: ReadonlyMap<string, string>): AuthorizeRequest {
  const entries: TokenEntry[] = [...tokens].map(([token, principal]) => ({ principal, digest: digestOf(token) }));
  return (request) => {
    const header = request.header("authorization");
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) return null;
    const presented = digestOf(match[1] ?? "");
    let principal: string | undefined;
    for (const entry of entries) if (timingSafeEqual(entry.digest, presented)) principal = entry.principal;
    return principal === undefined ? null : { id: principal };
  };
}

function digestOf(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/** Whether a listen address is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}
