import type { TokenUsage } from "@ag-ui/core";

/**
 * The harness's cumulative usage counters (`usageUpdate.total`, the ≤0.1.9 `usageMetadata`, or the
 * init response's `cumulativeUsage`). Counts are uint64 on the wire, so they arrive as decimal
 * strings; numbers are accepted too.
 */
export interface CumulativeUsage {
  promptTokenCount?: string | number | undefined;
  candidatesTokenCount?: string | number | undefined;
  totalTokenCount?: string | number | undefined;
  thoughtsTokenCount?: string | number | undefined;
  cachedContentTokenCount?: string | number | undefined;
}

export interface UsageLabels {
  /** `TokenUsage.provider` of every entry. */
  provider?: string;
  /** `TokenUsage.model` of every entry. */
  model?: string;
}

type Counts = Pick<TokenUsage, "inputTokens" | "outputTokens" | "totalTokens" | "reasoningTokens" | "cachedInputTokens">;
type CountField = keyof Counts;
const COUNT_FIELDS: readonly CountField[] = ["inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens"];

/**
 * Turns cumulative per-conversation totals into each run's share. The harness overwrites its totals
 * rather than adding, so a run's usage is the difference between the latest totals and the totals
 * at the previous settlement.
 */
export class RunUsageMeter {
  readonly #labels: UsageLabels;
  #settled: Counts;
  #latest: Counts;

  constructor(labels: UsageLabels, baseline: CumulativeUsage | undefined) {
    this.#labels = labels;
    this.#settled = baseline === undefined ? {} : countsOf(baseline);
    this.#latest = this.#settled;
  }

  record(totals: CumulativeUsage): void {
    this.#latest = countsOf(totals);
  }

  /** This run's usage (empty when nothing was spent), and the start of the next run's accounting. */
  settle(): TokenUsage[] {
    // Built in place, labels first, with an indexed loop: this runs once per run, too rarely to be
    // optimised, where spreads and an array iterator each allocate.
    const entry: TokenUsage = labelsOf(this.#labels);
    let spent = false;
    for (let index = 0; index < COUNT_FIELDS.length; index += 1) {
      const field = COUNT_FIELDS[index]!;
      const latest = this.#latest[field];
      if (latest === undefined) continue;
      const settled = this.#settled[field] ?? 0;
      // A total below the settled one means the counters restarted (a new harness process without
      // a baseline): everything counted since is this run's.
      const difference = latest >= settled ? latest - settled : latest;
      entry[field] = difference;
      if (difference > 0) spent = true;
    }
    this.#settled = this.#latest;
    return spent ? [entry] : [];
  }
}

/** Gemini counts thoughts apart from candidates; AG-UI counts reasoning as part of the output. */
function countsOf(usage: CumulativeUsage): Counts {
  const prompt = count(usage.promptTokenCount);
  const candidates = count(usage.candidatesTokenCount);
  const thoughts = count(usage.thoughtsTokenCount);
  const cached = count(usage.cachedContentTokenCount);
  const providerTotal = count(usage.totalTokenCount);
  const output = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  const counts: Counts = {};
  if (prompt !== undefined) counts.inputTokens = prompt;
  if (output !== undefined) counts.outputTokens = output;
  // TokenUsage.totalTokens is input + output; the provider's total is used only when a part is missing.
  const total = prompt !== undefined && output !== undefined ? prompt + output : providerTotal;
  if (total !== undefined) counts.totalTokens = total;
  if (thoughts !== undefined) counts.reasoningTokens = thoughts;
  if (cached !== undefined) counts.cachedInputTokens = cached;
  return counts;
}

function count(value: string | number | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed >= 0 ? parsed : undefined;
}

function labelsOf(labels: UsageLabels): Pick<TokenUsage, "provider" | "model"> {
  const entry: Pick<TokenUsage, "provider" | "model"> = {};
  if (labels.provider !== undefined) entry.provider = labels.provider;
  if (labels.model !== undefined) entry.model = labels.model;
  return entry;
}
