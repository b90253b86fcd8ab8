import type { NormalizedStep } from "@ag-ui-antigravity/harness";

/**
 * A short human-readable line for a step worth a progress notification, or undefined. Text is
 * reported as it streams (each delta); tools, questions and errors once, when first seen.
 */
export function progressMessageOf(step: NormalizedStep, seen: Set<string>): string | undefined {
  if (step.source === "user") return undefined;
  if (step.textDelta !== "" && step.tool === undefined) return step.textDelta;
  const firstSight = !seen.has(step.id);
  seen.add(step.id);
  if (!firstSight) return undefined;
  if (step.tool !== undefined) return `Calling ${step.tool.serverName === undefined ? "" : `${step.tool.serverName}/`}${step.tool.name}`;
  if (step.questions !== undefined) return "Waiting for an answer to the agent's question";
  if (step.kind === "error") return `Error: ${step.error?.message ?? "unknown"}`;
  if (step.thinkingDelta !== "") return "Thinking";
  return undefined;
}
