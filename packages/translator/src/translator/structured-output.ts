import type { AGUIEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import type { StateChannel } from "../state/state-channel.js";
import { type ResolvedOptions, STRUCTURED_OUTPUT_EVENT_NAME } from "./translator-options.js";
import type { Scope } from "./turn-memory.js";

/**
 * Where a `finish` step's structured output goes: a subagent's is its answer to its parent; the
 * main agent's becomes the client's shared state (whole, or merged under `structuredOutputKey`), or
 * a CUSTOM event when the host asked for one. A policy of its own, apart from the step translator,
 * because it is the one place the options about structured output are read; the shared state it
 * writes through stays the translator's.
 */
export function deliverStructuredOutput(
  finish: NonNullable<NormalizedStep["finish"]>,
  scope: Scope,
  options: Pick<ResolvedOptions, "structuredOutput" | "structuredOutputKey">,
  channel: StateChannel,
  events: AGUIEvent[],
): void {
  // Output that does not parse is still the model's answer: it is passed on as the string it is.
  const output = "output" in finish ? finish.output : finish.outputString;
  if (scope.invocation !== undefined) {
    // A subagent's structured output is its answer to the parent, not the client's state.
    scope.invocation.answer = output;
    scope.invocation.answerIsOutput = true;
    return;
  }
  if (options.structuredOutput === "custom") {
    events.push({ type: EventType.CUSTOM, name: STRUCTURED_OUTPUT_EVENT_NAME, value: output });
    return;
  }
  const key = options.structuredOutputKey;
  if (key !== undefined) {
    // Merged under its key, the client's other state survives; `add` creates or replaces the member.
    events.push(...channel.setMember(key, output));
    return;
  }
  const state = typeof output === "object" && output !== null && !Array.isArray(output) ? output : { structured_output: output };
  events.push(...channel.change(state));
}
