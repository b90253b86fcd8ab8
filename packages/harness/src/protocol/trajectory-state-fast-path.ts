import { TRAJECTORY_STATE_VALUES } from "./enums.js";
import { isPlainRecord, soleEnvelopeField } from "./fast-path-shapes.js";
import type { OutputEvent } from "./messages.js";

const knownStates: ReadonlySet<string> = new Set(TRAJECTORY_STATE_VALUES);

/**
 * Every turn starts and ends with `{trajectoryStateUpdate: {trajectoryId, state}}` frames (RUNNING,
 * then the final idle). When one holds nothing but those fields (and maybe an `error` string), each
 * a string and the state a name the schema knows, it is already exactly what the full parse would
 * return: it is returned as is, without the schema walk and the copy. Anything else returns
 * undefined and takes the full path.
 */
export function plainTrajectoryStateEvent(value: unknown): OutputEvent | undefined {
  const update = soleEnvelopeField(value, "trajectoryStateUpdate");
  if (!isPlainRecord(update)) return undefined;
  const fields = update;
  for (const key in fields) {
    const field = fields[key];
    if (key === "state") {
      if (typeof field !== "string" || !knownStates.has(field)) return undefined;
    } else if (key !== "trajectoryId" && key !== "error") {
      return undefined;
    } else if (typeof field !== "string") {
      return undefined;
    }
  }
  return value as OutputEvent;
}
