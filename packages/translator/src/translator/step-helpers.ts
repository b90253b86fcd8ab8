import type { NormalizedStep, StepToolCall } from "@ag-ui-antigravity/harness";
import type { NamedCall } from "./turn-memory.js";

/** Where a delivery leaves its step: still going, finished, or failed. */
export type StepProgress = "open" | "done" | "failed";

/** Names a subagent's invocation may carry in its arguments, most specific first. */
const SUBAGENT_NAME_ARGUMENTS = ["name", "subagent", "subagentName", "subagent_name", "agent", "agentName", "agent_name"];

/** The step key: the pair itself, since a trajectory id may contain the `:` of the wire step id. */
export function keyOf(trajectoryId: string, stepIndex: number): string {
  return `${stepIndex}\u0000${trajectoryId}`;
}

/**
 * What a delivery adds to what was emitted. The cumulative field is the authority, so a repeated
 * or stale delivery adds nothing; the delta counts alone only from a producer that sends no
 * cumulative text.
 */
export function unseen(cumulative: string, delta: string, seen: number): string {
  // The delta is what the update appended (NormalizedStep): when it is exactly the unseen part, it
  // is taken as is, since slicing a text built by appending makes V8 copy it whole.
  if (cumulative.length > seen) return cumulative.length - seen === delta.length ? delta : cumulative.slice(seen);
  if (cumulative === "") return delta;
  return "";
}

/** Fields present now that were not arguments at the call's first sight: the call's result. */
export function addedFields(current: Record<string, unknown>, argumentKeys: readonly string[] | undefined): Record<string, unknown> | undefined {
  if (argumentKeys === undefined) return undefined;
  let added: Record<string, unknown> | undefined;
  for (const key of Object.keys(current)) {
    if (argumentKeys.includes(key)) continue;
    added ??= {};
    added[key] = current[key];
  }
  return added;
}

export function withAttribution<Target extends object>(target: Target, subagentRunId: string | undefined): Target {
  if (subagentRunId !== undefined) (target as { subagentRunId?: string }).subagentRunId = subagentRunId;
  return target;
}

/**
 * The harness's echo of a turn's input: the user's prompt, or an automated trigger's message (from
 * the system, addressed to the model). Neither is something the assistant said.
 */
export function isInputEcho(step: NormalizedStep): boolean {
  if (step.source === "user") return true;
  return step.source === "system" && step.target === "model" && step.tool === undefined;
}

/**
 * A step in which the model calls something the harness names no action for (`manage_task`,
 * `schedule`, a builtin newer than this client): its text describes the call, it is not an answer.
 */
export function isUnnamedCall(step: NormalizedStep): boolean {
  return step.tool === undefined && step.source === "model" && step.target === "environment" && step.finish === undefined;
}

/** The call a pre-tool hook named, as a tool call: its result, once its step is done, is the step's text. */
export function namedToolCall(named: NamedCall, resultText: string): StepToolCall {
  return {
    kind: "builtin",
    name: named.toolName,
    actionField: "",
    arguments: named.arguments,
    ...(named.callId === undefined ? {} : { callId: named.callId }),
    ...(resultText === "" ? {} : { result: { result: resultText } }),
  };
}

export function subagentNameOf(argumentsOf: Record<string, unknown>): string | undefined {
  return SUBAGENT_NAME_ARGUMENTS.map((key) => argumentsOf[key]).find((value): value is string => typeof value === "string" && value !== "");
}
