import { z } from "zod/v4";
import type { DriftEntry } from "./drift.js";
import { knownEnumNames } from "./wire-types.js";

/**
 * Walks a wire value alongside its schema before validation, for the two jobs zod cannot do on
 * its own: renaming known snake_case keys to their camelCase JSON names (protobuf JSON parsers
 * accept both), and noticing what the schema does not know (unknown fields, unknown enum values)
 * so it can be recorded as drift. The input is never mutated; renamed objects are copies.
 */
export function normalizeWireValue(schema: z.ZodType, value: unknown, path: string, drift: DriftEntry[]): unknown {
  const inner = unwrapOptional(schema);

  const enumNames = knownEnumNames(inner);
  if (enumNames !== undefined) {
    if (typeof value === "number" || (typeof value === "string" && !enumNames.has(value))) {
      drift.push({ kind: "enum-value", path, value });
    }
    return value;
  }

  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return value;
    const element = inner.element as z.ZodType;
    return value.map((item: unknown) => normalizeWireValue(element, item, `${path}[]`, drift));
  }

  if (inner instanceof z.ZodObject) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const shape = inner.shape as Record<string, z.ZodType>;
    const source = value as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const [key, fieldValue] of Object.entries(source)) {
      const name = key in shape ? key : camelCaseAlias(key, shape, source);
      const fieldSchema = shape[name];
      if (fieldSchema === undefined) {
        drift.push({ kind: "unknown-field", path, key });
        result[key] = fieldValue;
      } else {
        result[name] = normalizeWireValue(fieldSchema, fieldValue, `${path}.${name}`, drift);
      }
    }
    return result;
  }

  return value;
}

/** The camelCase JSON name of a snake_case key, when the schema declares it and the message does not also carry it. */
function camelCaseAlias(key: string, shape: Record<string, z.ZodType>, source: Record<string, unknown>): string {
  if (!key.includes("_")) return key;
  const camel = key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
  return camel in shape && !(camel in source) ? camel : key;
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current;
}
