/** Map-typed fields whose keys are user data (environment names, HTTP headers), not proto field names. */
const mapFields = new Set(["env", "httpHeaders", "http_headers", "headers"]);

function toCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * Rewrites snake_case proto field names to their lowerCamelCase JSON names, recursively. protojson
 * parsers (which the Go harness presumably uses) accept both spellings, so the emulator must too.
 */
export function normalizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => normalizeKeys(item));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const camel = toCamel(key);
    out[camel] = mapFields.has(key) ? inner : normalizeKeys(inner);
  }
  return out;
}
