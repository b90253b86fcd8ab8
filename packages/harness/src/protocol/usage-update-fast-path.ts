import { isPlainInt64, isPlainRecord, soleEnvelopeField } from "./fast-path-shapes.js";
import type { OutputEvent } from "./messages.js";

const countFields: ReadonlySet<string> = new Set(["promptTokenCount", "candidatesTokenCount", "totalTokenCount", "thoughtsTokenCount", "cachedContentTokenCount"]);

/**
 * Every turn reports its token usage once, as `{usageUpdate: {agents: [{trajectoryId, usage}], total}}`.
 * When one holds nothing but those fields, each count a decimal string or a whole number (and
 * `serviceTier` a string), it is already exactly what the full parse would return: it is returned
 * as is, without the schema walk and the copy. Anything else returns undefined and takes the full path.
 */
export function plainUsageUpdateEvent(value: unknown): OutputEvent | undefined {
  const update = soleEnvelopeField(value, "usageUpdate");
  if (!isPlainRecord(update)) return undefined;
  for (const key in update) {
    const field = update[key];
    if (key === "total") {
      if (!isPlainUsage(field)) return undefined;
    } else if (key === "agents") {
      if (!Array.isArray(field) || !field.every(isPlainAgentUsage)) return undefined;
    } else {
      return undefined;
    }
  }
  return value as OutputEvent;
}

function isPlainAgentUsage(entry: unknown): boolean {
  if (!isPlainRecord(entry)) return false;
  for (const key in entry) {
    const field = entry[key];
    if (key === "trajectoryId") {
      if (typeof field !== "string") return false;
    } else if (key !== "usage" || !isPlainUsage(field)) {
      return false;
    }
  }
  return true;
}

function isPlainUsage(usage: unknown): boolean {
  if (!isPlainRecord(usage)) return false;
  for (const key in usage) {
    const field = usage[key];
    if (countFields.has(key)) {
      if (!isPlainInt64(field)) return false;
    } else if (key !== "serviceTier" || typeof field !== "string") {
      return false;
    }
  }
  return true;
}
