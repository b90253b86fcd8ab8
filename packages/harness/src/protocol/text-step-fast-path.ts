import { STEP_SOURCE_VALUES, STEP_STATE_VALUES, STEP_TARGET_VALUES } from "./enums.js";
import { isPlainRecord, soleEnvelopeField } from "./fast-path-shapes.js";
import type { OutputEvent } from "./messages.js";

const knownStates: ReadonlySet<string> = new Set(STEP_STATE_VALUES);
const knownSources: ReadonlySet<string> = new Set(STEP_SOURCE_VALUES);
const knownTargets: ReadonlySet<string> = new Set(STEP_TARGET_VALUES);

/** The fields of a text or thinking step update, and what each must be to need no further check. */
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
  if (!isPlainRecord(stepUpdate)) return undefined;
  const fields = stepUpdate;
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
