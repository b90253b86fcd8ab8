const REPLACEMENT = "[REDACTED]";

/** Keys whose values are credentials wherever they appear in a message or config. */
const SECRET_KEYS = new Set([
  "apikey",
  "api_key",
  "api-key",
  "x-api-key",
  "x-goog-api-key",
  "gemini_api_key",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "token",
  "access_token",
  "refresh_token",
  "client_secret",
  "password",
  "secret",
]);

/**
 * Keys whose values are maps of credentials-to-be: an MCP server's `env` and `headers`, an
 * endpoint's `headers` (`httpHeaders` on the wire), the harness's own `env`. Any value in them may
 * be a key (`X-Api-Key`, `GITHUB_TOKEN`, `Authorization`), whatever its name says, so every value
 * is blanked and only the names stay (a recording still shows what was configured).
 */
const CREDENTIAL_MAP_KEYS = new Set(["env", "headers", "httpheaders"]);

/** A map entry whose name says it holds a credential. */
const CREDENTIAL_NAME = /key|token|secret|passw|credential|auth|cookie|session|signature/i;
/** A value that may be a credential whatever its name: 20 characters or more with no space. */
const LONG_UNBROKEN_VALUE = /^\S{20,}$/;

/** Secrets shorter than this are not scrubbed from free text: replacing "a" everywhere would destroy the log. */
const MIN_SECRET_LENGTH = 6;

// The user and password of a URL (`https://user:pass@host`).
const urlUserInfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
// Credential parameters of a URL's query or fragment (`?key=…`, `&access_token=…`, `;sig=…`).
const urlSecretParameter = /([?&;#])((?:[a-z0-9]+[_-])?(?:key|token|secret|password|passwd|sig|signature|credential|auth))=([^&;#\s"'<>]*)/gi;

/**
 * Removes API keys and the harness's per-process token from anything that leaves the package as
 * text: logs, wire traces, inspector records, recordings (`ANTIGRAVITY_WIRE_RECORD`, meant to be
 * committed) and error messages. Beyond the secrets it was told about, it blanks every value of a
 * credential-named key and of an `env` / `headers` map, and the user info and credential
 * parameters of any URL.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  /** Registers a value that must never be shown. Empty and very short values are ignored. */
  addSecret(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) this.#secrets.add(secret);
  }

  /**
   * Registers the values of a map (an `env`, `headers`) that free text must not show: those named
   * like a credential, and any long unbroken value (a key under an innocent name). Short everyday
   * values (`production`, `1`, a version) are left alone, or every log line holding the word would
   * be garbled; recordings and traces blank every value of such a map anyway (`redactValue`).
   */
  addSecretsOf(values: Readonly<Record<string, string>> | undefined): void {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (CREDENTIAL_NAME.test(name) || LONG_UNBROKEN_VALUE.test(value)) this.addSecret(value);
    }
  }

  /** A redactor that knows this one's secrets plus its own; used per conversation. */
  fork(): Redactor {
    const child = new Redactor();
    for (const secret of this.#secrets) child.addSecret(secret);
    return child;
  }

  redactText(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REPLACEMENT);
    }
    // Most text (a model's words) names no URL and no parameter: the patterns run only where one may be.
    if (result.includes("://")) result = result.replace(urlUserInfo, `$1${REPLACEMENT}@`);
    if (result.includes("=")) result = result.replace(urlSecretParameter, (_match, separator: string, name: string) => `${separator}${name}=${REPLACEMENT}`);
    return result;
  }

  /**
   * A deep copy of a JSON-like value with secret-named keys and every value of an `env` /
   * `headers` map blanked, and known secrets and URL credentials scrubbed from strings.
   */
  redactValue(value: unknown): unknown {
    return this.#redact(value, 0);
  }

  #redact(value: unknown, depth: number): unknown {
    if (depth > 64) return value;
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.#redact(item, depth + 1));
    if (value !== null && typeof value === "object") {
      const copy: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) {
        const lowered = key.toLowerCase();
        if (SECRET_KEYS.has(lowered) && typeof entry === "string" && entry !== "") copy[key] = REPLACEMENT;
        else if (CREDENTIAL_MAP_KEYS.has(lowered) && entry !== null && typeof entry === "object" && !Array.isArray(entry)) copy[key] = blankValues(entry as Record<string, unknown>);
        else copy[key] = this.#redact(entry, depth + 1);
      }
      return copy;
    }
    return value;
  }
}

/** The map with its names kept and every value blanked. */
function blankValues(map: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(map)) copy[name] = value === "" ? value : REPLACEMENT;
  return copy;
}
