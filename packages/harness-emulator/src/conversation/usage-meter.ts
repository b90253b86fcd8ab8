import type { UsageCounts } from "../persistence/conversation-store.js";
import type { UsageMetadata } from "../wire/output-messages.js";

/** Rough token estimate: about four characters per token, at least one for non-empty text. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** Cumulative token usage per trajectory, the way 0.1.10 reports it (totals, never increments). */
export class UsageMeter {
  readonly #counts = new Map<string, UsageCounts>();
  readonly #serviceTier: string | undefined;

  constructor(options: { initial: Record<string, UsageCounts>; serviceTier: string | undefined }) {
    for (const [trajectoryId, counts] of Object.entries(options.initial)) this.#counts.set(trajectoryId, { ...counts });
    this.#serviceTier = options.serviceTier;
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

  #render(counts: UsageCounts, options: { serviceTier: boolean }): UsageMetadata {
    const metadata: UsageMetadata = {
      promptTokenCount: String(counts.prompt),
      candidatesTokenCount: String(counts.candidates),
      totalTokenCount: String(counts.prompt + counts.candidates + counts.thoughts),
      thoughtsTokenCount: String(counts.thoughts),
      // Explicit presence: the harness sets every count, zero included.
      cachedContentTokenCount: "0",
    };
    if (options.serviceTier && this.#serviceTier !== undefined) metadata.serviceTier = this.#serviceTier;
    return metadata;
  }

  total(options: { serviceTier: boolean }): UsageMetadata {
    const sum: UsageCounts = { prompt: 0, candidates: 0, thoughts: 0 };
    for (const counts of this.#counts.values()) {
      sum.prompt += counts.prompt;
      sum.candidates += counts.candidates;
      sum.thoughts += counts.thoughts;
    }
    return this.#render(sum, options);
  }

  agents(options: { serviceTier: boolean }): { trajectoryId: string; usage: UsageMetadata }[] {
    return [...this.#counts.entries()].map(([trajectoryId, counts]) => ({ trajectoryId, usage: this.#render(counts, options) }));
  }
}
