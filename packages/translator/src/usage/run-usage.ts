import type { TokenUsage } from "@ag-ui/core";

/**
 * The harness's cumulative usage counters (`usageUpdate.total`, the ≤0.1.9 `usageMetadata`, or the
 * init response's `cumulativeUsage`). Counts are uint64 on the wire, so they arrive as decimal
 * strings; numbers are accepted too.
 */
export interface CumulativeUsage {
  /** Tokens of every prompt so far: AG-UI `inputTokens`. */
  promptTokenCount?: string | number | undefined;
  /** Tokens of every answer so far, thoughts excluded (Gemini counts those apart): with `thoughtsTokenCount`, AG-UI `outputTokens`. */
  candidatesTokenCount?: string | number | undefined;
  /** The provider's own total; used for AG-UI `totalTokens` only when the prompt or answer count is missing (else that is input + output). */
  totalTokenCount?: string | number | undefined;
  /** Tokens the model spent thinking so far: AG-UI `reasoningTokens`, and part of `outputTokens`. */
  thoughtsTokenCount?: string | number | undefined;
  /** Prompt tokens served from the context cache so far: AG-UI `cachedInputTokens`. */
  cachedContentTokenCount?: string | number | undefined;
  /** The prompt's tokens by modality (harness 0.1.12+). */
  promptTokensDetails?: readonly CumulativeModalityCount[] | undefined;
  /** The answer's tokens by modality (harness 0.1.12+). */
  candidatesTokensDetails?: readonly CumulativeModalityCount[] | undefined;
  /** The cached prompt tokens by modality (harness 0.1.12+). */
  cacheTokensDetails?: readonly CumulativeModalityCount[] | undefined;
}

/** One modality's count in `CumulativeUsage` (`TEXT`, `IMAGE`, `AUDIO`, `VIDEO`, `DOCUMENT`), as the wire's `ModalityTokenCount` has it; named apart from the harness's stricter type of that name. */
export interface CumulativeModalityCount {
  /** The modality's enum name, with or without the `MODALITY_` prefix (`TEXT`, `MODALITY_IMAGE`); an entry whose modality is not such a name (a number included) is not counted. */
  modality?: string | number | undefined;
  /** That modality's tokens so far (a decimal string or a number); an entry without a non-negative integer count is skipped. */
  tokenCount?: string | number | undefined;
}

/**
 * A run's token counts split by modality name (`TEXT`, `IMAGE`, ...), where the harness reports them:
 * `input` parts `inputTokens`, `output` parts `outputTokens`, `cachedInput` parts `cachedInputTokens`.
 */
export interface TokensByModality {
  /** The run's prompt tokens per modality; absent when the harness gave no split or none were spent. */
  input?: Record<string, number>;
  /** The run's answer tokens per modality; absent when the harness gave no split or none were spent. */
  output?: Record<string, number>;
  /** The run's cached prompt tokens per modality; absent when the harness gave no split or none were spent. */
  cachedInput?: Record<string, number>;
}

/**
 * A run's share of the usage: AG-UI TokenUsage entries (for RUN_FINISHED's `usage`) and, where the
 * harness splits its counts by modality, the split. TokenUsage has no field for it and
 * `@ag-ui/client` removes fields the protocol does not define, so it travels apart (the agent puts
 * it in RUN_FINISHED's `metadata`).
 */
export interface RunUsage {
  /** One entry with the run's share, labelled with the provider and model; empty when the run spent nothing. */
  usage: TokenUsage[];
  /** The run's share split by modality; absent when the harness gave no split or the run spent nothing. */
  byModality?: TokensByModality;
}

/** The provider and model names stamped on every usage entry of a run. */
export interface UsageLabels {
  /** `TokenUsage.provider` of every entry. */
  provider?: string;
  /** `TokenUsage.model` of every entry. */
  model?: string;
}

type Counts = Pick<TokenUsage, "inputTokens" | "outputTokens" | "totalTokens" | "reasoningTokens" | "cachedInputTokens"> & { byModality?: TokensByModality };
const MODALITY_FIELDS: readonly (keyof TokensByModality)[] = ["input", "output", "cachedInput"];
type CountField = Exclude<keyof Counts, "byModality">;
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
  settle(): RunUsage {
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
    const byModality = spent ? modalityDifference(this.#latest.byModality, this.#settled.byModality) : undefined;
    this.#settled = this.#latest;
    const usage = spent ? [entry] : [];
    return byModality === undefined ? { usage } : { usage, byModality };
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
  const byModality: TokensByModality = {};
  const inputByModality = modalityCounts(usage.promptTokensDetails);
  const outputByModality = modalityCounts(usage.candidatesTokensDetails);
  const cachedByModality = modalityCounts(usage.cacheTokensDetails);
  if (inputByModality !== undefined) byModality.input = inputByModality;
  if (outputByModality !== undefined) byModality.output = outputByModality;
  if (cachedByModality !== undefined) byModality.cachedInput = cachedByModality;
  if (Object.keys(byModality).length > 0) counts.byModality = byModality;
  return counts;
}

function modalityCounts(details: readonly CumulativeModalityCount[] | undefined): Record<string, number> | undefined {
  if (details === undefined || details.length === 0) return undefined;
  const counts: Record<string, number> = {};
  for (const detail of details) {
    const tokens = count(detail.tokenCount);
    if (tokens === undefined) continue;
    // Modality names are the harness's enum names, without the prefix (`MODALITY_TEXT` or `TEXT`: `TEXT`).
    const modality = String(detail.modality ?? "MODALITY_UNSPECIFIED").replace(/^MODALITY_/, "");
    // Only an enum-shaped name becomes a key (never `__proto__` from a hostile or broken frame).
    if (!/^[A-Z][A-Z0-9_]{0,31}$/.test(modality)) continue;
    counts[modality] = (counts[modality] ?? 0) + tokens;
  }
  return Object.keys(counts).length === 0 ? undefined : counts;
}

/** Per-modality differences of two cumulative splits; a restart (a smaller total) counts as new. */
function modalityDifference(latest: TokensByModality | undefined, settled: TokensByModality | undefined): TokensByModality | undefined {
  if (latest === undefined) return undefined;
  const difference: TokensByModality = {};
  let any = false;
  for (const field of MODALITY_FIELDS) {
    const now = latest[field];
    if (now === undefined) continue;
    const before = settled?.[field] ?? {};
    const counts: Record<string, number> = {};
    for (const [modality, tokens] of Object.entries(now)) {
      const earlier = before[modality] ?? 0;
      const spent = tokens >= earlier ? tokens - earlier : tokens;
      if (spent > 0) counts[modality] = spent;
    }
    if (Object.keys(counts).length > 0) {
      difference[field] = counts;
      any = true;
    }
  }
  return any ? difference : undefined;
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
