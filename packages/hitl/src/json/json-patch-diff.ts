import type { JsonValue } from "./json-value.js";

/** One RFC 6902 operation, as STATE_DELTA carries it. */
export type JsonPatchOperation =
  | { op: "add"; path: string; value: JsonValue }
  | { op: "replace"; path: string; value: JsonValue }
  | { op: "remove"; path: string };

/**
 * The JSON Patch that turns `before` into `after`. Objects are compared key by key; arrays and
 * scalars that differ are replaced whole, because index-wise array patches are fragile when a
 * client applies them to a state it has edited meanwhile.
 */
export function diffJson(before: JsonValue, after: JsonValue, path = ""): JsonPatchOperation[] {
  if (isObject(before) && isObject(after)) {
    const operations: JsonPatchOperation[] = [];
    for (const key of Object.keys(before)) {
      if (!(key in after)) operations.push({ op: "remove", path: `${path}/${escapePointer(key)}` });
    }
    for (const [key, value] of Object.entries(after)) {
      const childPath = `${path}/${escapePointer(key)}`;
      const previous = before[key];
      if (previous === undefined) operations.push({ op: "add", path: childPath, value });
      else operations.push(...diffJson(previous, value, childPath));
    }
    return operations;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ op: "replace", path, value: after }];
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
