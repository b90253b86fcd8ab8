import type { UsageMetadata } from "../protocol/messages.js";
import { toSafeInteger } from "../protocol/wire-types.js";

/** Token counts. The harness reports cumulative totals per conversation; per-turn numbers are differences of those. */
export interface TokenUsage {
  promptTokens: number;
  candidatesTokens: number;
  totalTokens: number;
  thoughtsTokens: number;
  cachedContentTokens: number;
}

export const ZERO_USAGE: Readonly<TokenUsage> = Object.freeze({
  promptTokens: 0,
  candidatesTokens: 0,
  totalTokens: 0,
  thoughtsTokens: 0,
  cachedContentTokens: 0,
});

function count(value: string | number | undefined): number {
  try {
    return toSafeInteger(value);
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}

export function tokenUsageOf(metadata: UsageMetadata | undefined): TokenUsage {
  if (metadata === undefined) return { ...ZERO_USAGE };
  return {
    promptTokens: count(metadata.promptTokenCount),
    candidatesTokens: count(metadata.candidatesTokenCount),
    totalTokens: count(metadata.totalTokenCount),
    thoughtsTokens: count(metadata.thoughtsTokenCount),
    cachedContentTokens: count(metadata.cachedContentTokenCount),
  };
}

/** `after - before`, never negative (a harness restart resets its totals). */
export function usageDifference(after: TokenUsage, before: TokenUsage): TokenUsage {
  const difference = (key: keyof TokenUsage): number => Math.max(0, after[key] - before[key]);
  return {
    promptTokens: difference("promptTokens"),
    candidatesTokens: difference("candidatesTokens"),
    totalTokens: difference("totalTokens"),
    thoughtsTokens: difference("thoughtsTokens"),
    cachedContentTokens: difference("cachedContentTokens"),
  };
}
