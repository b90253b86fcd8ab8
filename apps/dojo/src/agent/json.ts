/** Parses JSON, returning undefined instead of throwing: tool arguments may still be streaming in. */
export function parseJsonSafely(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Pretty JSON for display; strings that hold JSON are expanded so cards stay readable. */
export function prettyJson(value: unknown): string {
  if (typeof value === "string") {
    const parsed = parseJsonSafely(value);
    return parsed === undefined ? value : JSON.stringify(parsed, null, 2);
  }
  return JSON.stringify(value, null, 2) ?? "";
}
