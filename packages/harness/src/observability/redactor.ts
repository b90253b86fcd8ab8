const REPLACEMENT = "[REDACTED]";

/** Keys whose values are credentials wherever they appear in a message or config. */
const SECRET_KEYS = new Set(["apikey", "api_key", "x-goog-api-key", "gemini_api_key", "authorization", "token"]);

/** Secrets shorter than this are not scrubbed from free text: replacing "a" everywhere would destroy the log. */
const MIN_SECRET_LENGTH = 6;

/**
 * Removes API keys and the harness's per-process token from anything that leaves the package as
 * text: logs, wire traces, inspector records and error messages.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  /** Registers a value that must never be shown. Empty and very short values are ignored. */
  addSecret(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) this.#secrets.add(secret);
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
    return result;
  }

  /** A deep copy of a JSON-like value with secret-named keys blanked and known secrets scrubbed from strings. */
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
        copy[key] =
          SECRET_KEYS.has(key.toLowerCase()) && typeof entry === "string" && entry !== "" ? REPLACEMENT : this.#redact(entry, depth + 1);
      }
      return copy;
    }
    return value;
  }
}
