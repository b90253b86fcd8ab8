/** A value that survives JSON.stringify / JSON.parse unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** True for a plain object (not an array, class instance or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Where `value` stops being JSON (a path such as `$.items[2].when`), or undefined when all of it is.
 * Dates, Maps, functions, undefined, NaN and cycles are refused because a JSON round trip would
 * change them silently.
 */
export function findNonJson(value: unknown, path = "$", seen: Set<object> = new Set()): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object") return path;
  if (seen.has(value)) return path;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const found = findNonJson(value[index], `${path}[${index}]`, seen);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!isPlainObject(value)) return path;
    for (const [key, item] of Object.entries(value)) {
      const found = findNonJson(item, `${path}.${key}`, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

/** True for a plain object whose every value is JSON. */
export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && findNonJson(value) === undefined;
}
