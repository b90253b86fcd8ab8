import { z } from "zod/v4";
import type { VersionRange } from "./harness-versions.js";
import { ProtocolError } from "./protocol-error.js";

/**
 * Field schemas for the proto3 JSON scalar rules of docs/protocol.md ("JSON on the socket"). Each keeps the
 * value exactly as sent so that re-encoding a parsed message reproduces the original JSON.
 */

/** Known names of each enum field schema; the schema walker reads it to record drift. */
const enumNamesBySchema = new WeakMap<z.ZodType, ReadonlySet<string>>();
/** The releases of the enum names that did not exist in every release. */
const enumRangesBySchema = new WeakMap<z.ZodType, Readonly<Record<string, VersionRange>>>();

/** The enum names a field schema was declared with, or undefined when it is not an enum field. */
export function knownEnumNames(schema: z.ZodType): ReadonlySet<string> | undefined {
  return enumNamesBySchema.get(schema);
}

/** The releases an enum name of a field exists in (undefined: all of them). */
export function enumNameRange(schema: z.ZodType, name: string): VersionRange | undefined {
  return enumRangesBySchema.get(schema)?.[name];
}

/**
 * An enum field: a value name, or a number. Numbers are accepted because every protobuf JSON parser
 * accepts them; unknown names are kept rather than rejected when parsing leniently, because the
 * harness adds values between releases. `ranges` says which names exist only in some releases
 * (`STATE_WAITING_FOR_TASKS` was in 0.1.8, gone in 0.1.9, back in 0.1.10), for the strict check.
 */
export function enumField<const Names extends readonly string[]>(
  names: Names,
  ranges: Partial<Record<Names[number], VersionRange>> = {},
): z.ZodType<Names[number] | (string & {}) | number> {
  const schema = z.union([z.string(), z.number().int()]) as z.ZodType<Names[number] | (string & {}) | number>;
  enumNamesBySchema.set(schema, new Set(names));
  enumRangesBySchema.set(schema, ranges as Record<string, VersionRange>);
  return schema;
}

/**
 * int64/uint64: a decimal string on the wire; a number is accepted too (genai-rs's `flex_num`, and
 * 0.1.1's int32 usage counts). Kept as sent, so re-encoding gives the original JSON.
 */
export const int64Field = z.union([z.string().regex(/^-?\d+$/, "expected a decimal integer string"), z.number().int()]);
/** A proto3 JSON int64: a decimal string, or a number when the writer chose one (what `int64Field` accepts). */
export type Int64Value = string | number;

/** int32/uint32 travel as JSON numbers; a numeric string is accepted because protobuf JSON parsers (the Go harness's protojson) accept it. */
export const int32Field = z.union([z.number(), z.string().regex(/^-?\d+$/, "expected an integer")]);

/** double: a JSON number, or one of the strings protojson uses for non-finite values ("NaN", "Infinity"). */
export const doubleField = z.union([z.number(), z.string()]);

/** bytes travel as standard base64; URL-safe and unpadded forms are accepted because protojson accepts them. */
export const bytesField = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "expected base64");

/**
 * Converts a 64-bit wire integer (string or number) to a JS number; absent means the proto3
 * default 0. Throws PROTOCOL_INVALID_MESSAGE when the value does not fit a safe integer, rather
 * than silently losing precision.
 *
 * @example
 * const promptTokens = toSafeInteger(usageOf(event)?.promptTokenCount);
 */
export function toSafeInteger(value: string | number | bigint | undefined | null): number {
  if (value === undefined || value === null || value === "") return 0;
  const asNumber = typeof value === "number" ? value : Number(value);
  if (!Number.isSafeInteger(asNumber)) {
    throw new ProtocolError("PROTOCOL_INVALID_MESSAGE", `integer ${String(value)} is not a safe JavaScript integer`);
  }
  return asNumber;
}
