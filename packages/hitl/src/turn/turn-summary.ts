import type { Context } from "@ag-ui/core";

export interface TurnSummaryInput {
  context: readonly Context[];
  state: unknown;
  maxChars: number;
}

/**
 * A bounded block describing the client's context and shared state, prepended to a turn's input so
 * UI edits reach the model without it having to call a tool. Undefined when there is nothing to say.
 */
export function turnSummary(input: TurnSummaryInput): string | undefined {
  const sections: string[] = [];
  if (input.context.length > 0) {
    sections.push(`<app_context>\n${input.context.map((entry) => `- ${entry.description}: ${entry.value}`).join("\n")}\n</app_context>`);
  }
  if (input.state !== undefined && input.state !== null && !(typeof input.state === "object" && Object.keys(input.state).length === 0)) {
    sections.push(`<shared_state>\n${JSON.stringify(input.state)}\n</shared_state>`);
  }
  if (sections.length === 0) return undefined;
  const text = `The application shows the following (for reference; the user's message follows).\n${sections.join("\n")}`;
  if (text.length <= input.maxChars) return text;
  const marker = "\n[... truncated]";
  return text.slice(0, Math.max(0, input.maxChars - marker.length)) + marker;
}
