import { EventType, type AGUIEvent, type RunAgentInput, type RunFinishedEvent, type RunStartedEvent, type TokenUsage } from "@ag-ui/core";
import type { TokenUsage as HarnessTokenUsage } from "@ag-ui-antigravity/harness";
import type { CumulativeUsage } from "@ag-ui-antigravity/translator";

/**
 * RUN_STARTED carries the run's input (AG-UI 1.0 allows it): a client that connects to the run
 * later rebuilds the user's side of the turn from it, not only the agent's.
 */
export function runStarted(input: RunAgentInput): RunStartedEvent {
  return { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId, input: knownInputFields(input) };
}

/** The fields RunAgentInput defines: extra top-level fields a client sent are not echoed back. */
function knownInputFields(input: RunAgentInput): RunAgentInput {
  const { threadId, runId, protocolVersion, parentRunId, state, messages, tools, context, forwardedProps, resume } = input;
  return {
    threadId,
    runId,
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(parentRunId === undefined ? {} : { parentRunId }),
    state,
    messages,
    tools,
    context,
    forwardedProps,
    ...(resume === undefined ? {} : { resume }),
  };
}

export function runFinished(options: {
  threadId: string;
  runId: string;
  usage: TokenUsage[];
  outcome?: RunFinishedEvent["outcome"];
}): RunFinishedEvent {
  return {
    type: EventType.RUN_FINISHED,
    threadId: options.threadId,
    runId: options.runId,
    ...(options.outcome === undefined ? {} : { outcome: options.outcome }),
    ...(options.usage.length === 0 ? {} : { usage: options.usage }),
  };
}

/** The harness client's cumulative usage, in the translator's (wire-shaped) terms. */
export function cumulativeUsageOf(usage: HarnessTokenUsage): CumulativeUsage {
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.candidatesTokens,
    totalTokenCount: usage.totalTokens,
    thoughtsTokenCount: usage.thoughtsTokens,
    cachedContentTokenCount: usage.cachedContentTokens,
  };
}

export type { AGUIEvent };
