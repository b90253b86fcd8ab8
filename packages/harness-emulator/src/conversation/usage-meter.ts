import type { UsageCounts } from "../persistence/conversation-store.js";
import type { VersionProfile } from "../version/version-profile.js";
import type { UsageMetadata } from "../wire/output-messages.js";

/** Rough token estimate: about four characters per token, at least one for non-empty text. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/**
 * Cumulative token usage per trajectory, the way the harness reports it (totals, never increments),
 * rendered with the fields the played release has.
 */
export class UsageMeter {
  readonly #counts = new Map<string, UsageCounts>();
  readonly #serviceTier: string | undefined;
  readonly #profile: VersionProfile;
  /** The totals when this session began: a budget scoped FORWARD_LOOKING counts only what came after. */
  readonly sessionStart: UsageCounts;

  constructor(options: { initial: Record<string, UsageCounts>; serviceTier: string | undefined; profile: VersionProfile }) {
    for (const [trajectoryId, counts] of Object.entries(options.initial)) this.#counts.set(trajectoryId, { ...counts });
    this.#serviceTier = options.serviceTier;
    this.#profile = options.profile;
    this.sessionStart = this.totals();
  }

  add(trajectoryId: string, delta: Partial<UsageCounts>): void {
    const counts = this.#counts.get(trajectoryId) ?? { prompt: 0, candidates: 0, thoughts: 0 };
    counts.prompt += delta.prompt ?? 0;
    counts.candidates += delta.candidates ?? 0;
    counts.thoughts += delta.thoughts ?? 0;
    this.#counts.set(trajectoryId, counts);
  }

  get isEmpty(): boolean {
    return this.#counts.size === 0;
  }

  snapshot(): Record<string, UsageCounts> {
    return Object.fromEntries([...this.#counts.entries()].map(([key, counts]) => [key, { ...counts }]));
  }

  #render(counts: UsageCounts): UsageMetadata {
    const metadata: UsageMetadata = {
      promptTokenCount: String(counts.prompt),
      candidatesTokenCount: String(counts.candidates),
      totalTokenCount: String(counts.prompt + counts.candidates + counts.thoughts),
      thoughtsTokenCount: String(counts.thoughts),
      // Explicit presence: the harness sets every count, zero included.
      cachedContentTokenCount: "0",
    };
    if (this.#profile.has("serviceTier") && this.#serviceTier !== undefined) metadata.serviceTier = this.#serviceTier;
    if (this.#profile.has("modalityUsage")) {
      // The emulator's input and output are text (media parts are not counted), so one TEXT entry each.
      metadata.promptTokensDetails = [{ modality: "TEXT", tokenCount: String(counts.prompt) }];
      metadata.candidatesTokensDetails = [{ modality: "TEXT", tokenCount: String(counts.candidates) }];
    }
    return metadata;
  }

  /** The conversation's totals over every trajectory, as numbers. */
  totals(): UsageCounts {
    const sum: UsageCounts = { prompt: 0, candidates: 0, thoughts: 0 };
    for (const counts of this.#counts.values()) {
      sum.prompt += counts.prompt;
      sum.candidates += counts.candidates;
      sum.thoughts += counts.thoughts;
    }
    return sum;
  }

  total(): UsageMetadata {
    return this.#render(this.totals());
  }

  agents(): { trajectoryId: string; usage: UsageMetadata }[] {
    return [...this.#counts.entries()].map(([trajectoryId, counts]) => ({ trajectoryId, usage: this.#render(counts) }));
  }
}
