/** What a tool call produced, as the translator knows it when the call settles. */
export interface ToolOutcome {
  toolName: string;
  /** Set when the call failed as a whole (an ERROR step, or a host tool that threw). */
  errorMessage?: string;
  /** The fields the harness added to the call after its first sight. */
  result?: Record<string, unknown>;
  /** A value to report when the call has no result fields (a host tool's return, a subagent's answer). */
  output?: unknown;
}

/** Result fields that, when truthy, mean the call failed (never `stderr`: warnings are output). */
const ERROR_FIELDS = ["error", "err", "failure", "exception", "errorMessage"] as const;

/**
 * The TOOL_CALL_RESULT content of a settled call: never empty, and a failure or "no output" is
 * stated in words so the model and the reader can tell them apart from a real result.
 */
export function toolResultContent(outcome: ToolOutcome): string {
  const failure = outcome.errorMessage ?? failureOf(outcome.result);
  if (failure !== undefined) {
    const detail = failure.trim() === "" ? "no details were given" : failure;
    return `There was an error executing \`${outcome.toolName}\`: ${detail}`;
  }
  const rendered = renderResult(outcome.result) ?? renderValue(outcome.output);
  return rendered ?? `\`${outcome.toolName}\` completed without returning any output.`;
}

function failureOf(result: Record<string, unknown> | undefined): string | undefined {
  if (result === undefined) return undefined;
  for (const field of ERROR_FIELDS) {
    const value = result[field];
    if (value) return typeof value === "string" ? value : safeJson(value);
  }
  // run_command reports failure through its exit code; stderr alone is not a failure.
  const exitCode = result["exitCode"];
  if (exitCode !== undefined && exitCode !== null && exitCode !== "" && Number(exitCode) !== 0) {
    const output = result["combinedOutput"] ?? result["stderr"] ?? result["output"];
    const text = typeof output === "string" && output !== "" ? `\n${output}` : "";
    return `exit code ${String(exitCode)}${text}`;
  }
  return undefined;
}

function renderResult(result: Record<string, unknown> | undefined): string | undefined {
  if (result === undefined) return undefined;
  const keys = Object.keys(result);
  if (keys.length === 0) return undefined;
  if (keys.length === 1) return renderValue(result[keys[0] as string]);
  return safeJson(result);
}

function renderValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return value;
  const json = safeJson(value);
  return json === "{}" || json === "[]" ? undefined : json;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
