/**
 * What a `schedule` call asks for, read from its arguments. No public source says which argument
 * names the harness gives the model for this tool, so the first of several plausible names wins.
 */
export interface ScheduleRequest {
  /** What the later turn is to be asked. */
  prompt?: string;
  /** How long from now, in milliseconds, when the arguments give a duration. */
  delayMs?: number;
  /** When it is due, when the arguments give a time instead (as written: ISO 8601 or the harness's text). */
  at?: string;
}

const PROMPT_NAMES = ["prompt", "message", "task", "instruction", "instructions", "text", "query", "description"];
const AT_NAMES = ["at", "time", "when", "run_at", "runAt", "scheduled_time", "scheduledTime", "datetime", "due"];
/** Duration argument names and the milliseconds each of their units is. */
const DURATION_NAMES: ReadonlyArray<readonly [string, number]> = [
  ["delay_ms", 1],
  ["delayMs", 1],
  ["after_ms", 1],
  ["afterMs", 1],
  ["delay_seconds", 1_000],
  ["delaySeconds", 1_000],
  ["seconds", 1_000],
  ["delay_minutes", 60_000],
  ["delayMinutes", 60_000],
  ["minutes", 60_000],
  ["delay_hours", 3_600_000],
  ["hours", 3_600_000],
];
/** A duration written as text: `90s`, `5 minutes`, `2h`, `PT10M`. */
const DURATION_TEXT = /^\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$/i;
const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Reads a `schedule` call's arguments: the prompt, and either a delay (a number with its unit in
 * the argument's name, or text like `5m` / `PT5M` under `delay`, `after`, `in`, `duration`) or a time.
 *
 * @example
 * scheduleRequestOf({ prompt: "check the build", delay_ms: 300 }); // { prompt: "check the build", delayMs: 300 }
 */
export function scheduleRequestOf(argumentsOf: Record<string, unknown>): ScheduleRequest {
  const request: ScheduleRequest = {};
  const prompt = firstString(argumentsOf, PROMPT_NAMES);
  if (prompt !== undefined) request.prompt = prompt;
  for (const [name, unit] of DURATION_NAMES) {
    const value = numberOf(argumentsOf[name]);
    if (value !== undefined) {
      request.delayMs = Math.round(value * unit);
      break;
    }
  }
  if (request.delayMs === undefined) {
    for (const name of ["delay", "after", "in", "duration", "interval"]) {
      const value = argumentsOf[name];
      const parsed = typeof value === "string" ? durationOfText(value) : undefined;
      if (parsed !== undefined) {
        request.delayMs = parsed;
        break;
      }
    }
  }
  const at = firstString(argumentsOf, AT_NAMES);
  if (at !== undefined) request.at = at;
  return request;
}

function durationOfText(text: string): number | undefined {
  const plain = DURATION_TEXT.exec(text);
  if (plain !== null) {
    const unit = (plain[2] ?? "").toLowerCase();
    const key = unit === "ms" || unit.startsWith("milli") ? "ms" : (unit[0] ?? "s");
    return Math.round(Number(plain[1]) * (UNIT_MS[key] ?? 1_000));
  }
  const iso = ISO_DURATION.exec(text.trim());
  if (iso === null || text.trim().toUpperCase() === "P" || text.trim().toUpperCase().endsWith("T")) return undefined;
  const [days, hours, minutes, seconds] = [iso[1], iso[2], iso[3], iso[4]].map((part) => Number(part ?? 0));
  return Math.round((days ?? 0) * 86_400_000 + (hours ?? 0) * 3_600_000 + (minutes ?? 0) * 60_000 + (seconds ?? 0) * 1_000);
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === "string" && /^\s*\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function firstString(record: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 2_000);
  }
  return undefined;
}
