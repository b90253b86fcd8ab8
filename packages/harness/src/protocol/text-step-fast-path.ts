import { STEP_SOURCE_VALUES, STEP_STATE_VALUES, STEP_TARGET_VALUES } from "./enums.js";
import type { OutputEvent } from "./messages.js";

const knownStates: ReadonlySet<string> = new Set(STEP_STATE_VALUES);
const knownSources: ReadonlySet<string> = new Set(STEP_SOURCE_VALUES);
const knownTargets: ReadonlySet<string> = new Set(STEP_TARGET_VALUES);

/** The fields of a text or thinking step update, and what each must be to need no further check. */
const decimal = /^-?\d+$/;
const stringFields: ReadonlySet<string> = new Set(["cascadeId", "trajectoryId", "text", "textDelta", "thinking", "thinkingDelta"]);

/**
 * Most frames of a turn are `{stepUpdate}` (with the envelope's `seqNum` and `timestampMicros`) carrying text or thinking, and
 * each repeats the reply so far. When a parsed frame holds nothing but those fields, each with the
 * type and (for enums) a name the schema knows, it is already exactly what the full parse would
 * return, with no snake_case key to rename and no drift to record: it is returned as is, without
 * the schema walk and the copy. Anything else (another field, a number where a name is usual, a
 * string index) returns undefined and takes the full path.
 */
export function plainTextStepEvent(value: unknown): OutputEvent | undefined {
  const stepUpdate = soleEnvelopeField(value, "stepUpdate");
  if (typeof stepUpdate !== "object" || stepUpdate === null || Array.isArray(stepUpdate)) return undefined;
  const fields = stepUpdate as Record<string, unknown>;
  for (const key in fields) {
    const field = fields[key];
    if (stringFields.has(key)) {
      if (typeof field !== "string") return undefined;
    } else if (key === "stepIndex") {
      if (!Number.isInteger(field)) return undefined;
    } else if (key === "state") {
      if (typeof field !== "string" || !knownStates.has(field)) return undefined;
    } else if (key === "source") {
      if (typeof field !== "string" || !knownSources.has(field)) return undefined;
    } else if (key === "target") {
      if (typeof field !== "string" || !knownTargets.has(field)) return undefined;
    } else {
      return undefined;
    }
  }
  return value as OutputEvent;
}

/**
 * The `name` field of a frame that holds nothing else but the envelope's `seqNum` and
 * `timestampMicros` (each a decimal string or a whole number); undefined for any other frame.
 */
export function soleEnvelopeField(value: unknown, name: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  let found: unknown;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (key === name) found = field;
    else if (key !== "seqNum" && key !== "timestampMicros") return undefined;
    // The envelope's int64 fields: a decimal string, or a whole number.
    else if (!(typeof field === "string" ? decimal.test(field) : Number.isSafeInteger(field))) return undefined;
  }
  return found;
}
