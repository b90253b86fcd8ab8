import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import type { RunItem } from "./notifications.js";

/**
 * What a run yields for a harness step, given the bridge's own tools (server, frontend and silent
 * tools, from `harnessPieces`). The harness reports a call of one of those tools as a step of its
 * own (its mirror), while the bridge reports the call and its result itself: the mirror is dropped,
 * so the stream says each call once. Except a call the harness refused before it ran (a policy, a
 * denial): nobody else reports that, so it becomes a `tool-denied` item, and the client's card does
 * not wait forever.
 */
export function itemOfStep(step: NormalizedStep, hostToolNames: ReadonlySet<string>): RunItem | undefined {
  const tool = step.tool;
  if (tool?.kind !== "custom" || !hostToolNames.has(tool.name)) return { type: "step", step };
  if (step.status !== "error" || tool.callId === undefined) return undefined;
  return { type: "tool-denied", toolCallId: tool.callId, toolName: tool.name, arguments: tool.arguments, reason: step.error?.message ?? "", hostTool: true };
}
