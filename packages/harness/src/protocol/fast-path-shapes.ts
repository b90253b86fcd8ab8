/**
 * The checks the frame fast paths share (text steps, trajectory states, usage updates): a frame takes a
 * fast path only when every field is already what the full schema parse would return.
 */

const decimal = /^-?\d+$/;

/** A proto3-JSON int64 as the schema takes it as is: a decimal string, or a safe whole number. */
export function isPlainInt64(value: unknown): boolean {
  return typeof value === "string" ? decimal.test(value) : Number.isSafeInteger(value);
}

/** A JSON object (not an array). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The `name` field of a frame that holds nothing else but the envelope's `seqNum` and
 * `timestampMicros` (each an int64); undefined for any other frame.
 */
export function soleEnvelopeField(value: unknown, name: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  let found: unknown;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (key === name) found = field;
    else if (key !== "seqNum" && key !== "timestampMicros") return undefined;
    else if (!isPlainInt64(field)) return undefined;
  }
  return found;
}
