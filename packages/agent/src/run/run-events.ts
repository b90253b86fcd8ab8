import { EventType, type AGUIEvent, type RunFinishedEvent, type RunStartedEvent, type TokenUsage } from "@ag-ui/client";
import type { TokenUsage as HarnessTokenUsage } from "@ag-ui-antigravity/harness";
import type { CumulativeUsage } from "@ag-ui-antigravity/translator";

export function runStarted(threadId: string, runId: string): RunStartedEvent {
  return { type: EventType.RUN_STARTED, threadId, runId };
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
