import { createHash, timingSafeEqual } from "node:crypto";

/** Shortest token `serveHttp` accepts: a short one could be guessed. */
export const MIN_AUTH_TOKEN_LENGTH = 16;

/**
 * The bearer tokens of an HTTP server (`--auth-token`), and the owner each stands for: the sessions
 * opened with a token are that token's. Compared by their SHA-256 digests in constant time, so
 * neither a token's length nor its prefix leaks through timing; the owner names the token by a
 * digest, never by itself.
 */
export class BearerTokens {
  readonly #entries: Array<{ digest: Buffer; owner: string }>;

  constructor(tokens: readonly string[]) {
    for (const [index, token] of tokens.entries()) {
      if (token.length < MIN_AUTH_TOKEN_LENGTH) throw new TypeError(`authTokens: token ${index + 1} must be at least ${MIN_AUTH_TOKEN_LENGTH} characters`);
    }
    this.#entries = [...new Set(tokens)].map((token) => {
      const digest = digestOf(token);
      return { digest, owner: `token:${digest.toString("hex").slice(0, 32)}` };
    });
  }

  /** Whether requests must present a token. */
  get required(): boolean {
    return this.#entries.length > 0;
  }

  /** The owner a request's `Authorization` header stands for; undefined without a known token. */
  ownerOf(authorization: string | undefined): string | undefined {
    if (this.#entries.length === 0 || authorization === undefined) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match === null) return undefined;
    const presented = digestOf(match[1] ?? "");
    let owner: string | undefined;
    for (const entry of this.#entries) if (timingSafeEqual(entry.digest, presented)) owner = entry.owner;
    return owner;
  }
}

function digestOf(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
