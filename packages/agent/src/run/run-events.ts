import { EventType, type AGUIEvent, type RunAgentInput, type RunFinishedEvent, type RunStartedEvent, type TokenUsage } from "@ag-ui/client";
import type { TokenUsage as HarnessTokenUsage } from "@ag-ui-antigravity/harness";
import type { CumulativeUsage, CumulativeModalityCount, RunUsage } from "@ag-ui-antigravity/translator";

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

/**
 * RUN_FINISHED with the run's usage. Its split by modality (harness 0.1.12+) rides in `metadata`
 * as `antigravity.usageByModality`: AG-UI's TokenUsage has no field for it, and `@ag-ui/client`
 * removes fields the protocol does not define (metadata it keeps whole).
 */
export function runFinished(options: {
  threadId: string;
  runId: string;
  usage: RunUsage;
  outcome?: RunFinishedEvent["outcome"];
}): RunFinishedEvent {
  const { usage, byModality } = options.usage;
  return {
    type: EventType.RUN_FINISHED,
    threadId: options.threadId,
    runId: options.runId,
    ...(options.outcome === undefined ? {} : { outcome: options.outcome }),
    ...(usage.length === 0 ? {} : { usage: usage as TokenUsage[] }),
    ...(byModality === undefined ? {} : { metadata: { antigravity: { usageByModality: byModality } } }),
  };
}

/** The harness client's cumulative usage, in the translator's (wire-shaped) terms, its split by modality included (0.1.12+). */
export function cumulativeUsageOf(usage: HarnessTokenUsage): CumulativeUsage {
  const byModality = usage.byModality;
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.candidatesTokens,
    totalTokenCount: usage.totalTokens,
    thoughtsTokenCount: usage.thoughtsTokens,
    cachedContentTokenCount: usage.cachedContentTokens,
    ...(byModality?.prompt === undefined ? {} : { promptTokensDetails: modalityCounts(byModality.prompt) }),
    ...(byModality?.candidates === undefined ? {} : { candidatesTokensDetails: modalityCounts(byModality.candidates) }),
    ...(byModality?.cache === undefined ? {} : { cacheTokensDetails: modalityCounts(byModality.cache) }),
  };
}

function modalityCounts(counts: Record<string, number>): CumulativeModalityCount[] {
  return Object.entries(counts).map(([modality, tokenCount]) => ({ modality, tokenCount }));
}

export type { AGUIEvent };
