import type { ModalityTokenCount, UsageMetadata } from "../protocol/messages.js";
import { toSafeInteger } from "../protocol/wire-types.js";

/** Token counts. The harness reports cumulative totals per conversation; per-turn numbers are differences of those. */
export interface TokenUsage {
  /** Input tokens the model read (instructions, history, tool results), cached ones included. */
  promptTokens: number;
  /** Tokens the model wrote in its responses. */
  candidatesTokens: number;
  /** Every token counted, as the harness totals them (not recomputed here). */
  totalTokens: number;
  /** Tokens the model spent thinking. */
  thoughtsTokens: number;
  /** The part of `promptTokens` served from the context cache. */
  cachedContentTokens: number;
  /** The same counts split by modality (`TEXT`, `IMAGE`, `AUDIO`, ...), when the harness reports them (0.1.12+). */
  byModality?: ModalityUsage;
}

/** Token counts per modality name, for each kind of count the harness splits (0.1.12+). */
export interface ModalityUsage {
  /** `promptTokens` by modality. */
  prompt?: Record<string, number>;
  /** `candidatesTokens` by modality. */
  candidates?: Record<string, number>;
  /** `cachedContentTokens` by modality. */
  cache?: Record<string, number>;
  /** Tokens of tool-use prompts by modality (a split the harness reports with no total of its own). */
  toolUsePrompt?: Record<string, number>;
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
  const usage: TokenUsage = {
    promptTokens: count(metadata.promptTokenCount),
    candidatesTokens: count(metadata.candidatesTokenCount),
    totalTokens: count(metadata.totalTokenCount),
    thoughtsTokens: count(metadata.thoughtsTokenCount),
    cachedContentTokens: count(metadata.cachedContentTokenCount),
  };
  const byModality: ModalityUsage = {};
  addModalities(byModality, "prompt", metadata.promptTokensDetails);
  addModalities(byModality, "candidates", metadata.candidatesTokensDetails);
  addModalities(byModality, "cache", metadata.cacheTokensDetails);
  addModalities(byModality, "toolUsePrompt", metadata.toolUsePromptTokensDetails);
  if (Object.keys(byModality).length > 0) usage.byModality = byModality;
  return usage;
}

function addModalities(usage: ModalityUsage, key: keyof ModalityUsage, details: readonly ModalityTokenCount[] | undefined): void {
  if (details === undefined || details.length === 0) return;
  const counts: Record<string, number> = {};
  for (const detail of details) {
    const modality = typeof detail.modality === "string" ? detail.modality : String(detail.modality ?? "MODALITY_UNSPECIFIED");
    counts[modality] = (counts[modality] ?? 0) + count(detail.tokenCount);
  }
  usage[key] = counts;
}

/** `after - before`, never negative (a harness restart resets its totals). */
export function usageDifference(after: TokenUsage, before: TokenUsage): TokenUsage {
  const difference = (key: Exclude<keyof TokenUsage, "byModality">): number => Math.max(0, after[key] - before[key]);
  const usage: TokenUsage = {
    promptTokens: difference("promptTokens"),
    candidatesTokens: difference("candidatesTokens"),
    totalTokens: difference("totalTokens"),
    thoughtsTokens: difference("thoughtsTokens"),
    cachedContentTokens: difference("cachedContentTokens"),
  };
  if (after.byModality !== undefined) {
    const byModality: ModalityUsage = {};
    for (const key of ["prompt", "candidates", "cache", "toolUsePrompt"] as const) {
      const now = after.byModality[key];
      if (now === undefined) continue;
      const earlier = before.byModality?.[key] ?? {};
      byModality[key] = Object.fromEntries(Object.entries(now).map(([modality, tokens]) => [modality, Math.max(0, tokens - (earlier[modality] ?? 0))]));
    }
    usage.byModality = byModality;
  }
  return usage;
}
