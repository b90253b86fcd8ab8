import type { ToolPolicy } from "./conversation-config.js";

export type PolicyVerdict = { decision: "allow" | "deny" | "confirm"; rule: ToolPolicy } | undefined;

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

/** Exact names beat wildcards; among wildcards the one with more literal characters wins. */
function specificity(pattern: string): number {
  return pattern.includes("*") ? pattern.replace(/\*/g, "").length : Number.MAX_SAFE_INTEGER;
}

/**
 * Client-side policies: allow / deny / confirm by tool name with `*` wildcards. The most specific
 * matching rule decides; among equally specific rules the first listed wins. No match → undefined
 * (the caller decides what that means).
 */
interface CompiledRule {
  rule: ToolPolicy;
  matcher: RegExp;
  specificity: number;
}

export class PolicyEngine {
  readonly #rules: CompiledRule[];

  constructor(rules: readonly ToolPolicy[]) {
    this.#rules = rules.map((rule) => ({ rule, matcher: patternToRegExp(rule.tool), specificity: specificity(rule.tool) }));
  }

  get isEmpty(): boolean {
    return this.#rules.length === 0;
  }

  evaluate(toolName: string, serverName?: string): PolicyVerdict {
    let best: CompiledRule | undefined;
    for (const candidate of this.#rules) {
      if (candidate.rule.server !== undefined && candidate.rule.server !== serverName) continue;
      if (!candidate.matcher.test(toolName)) continue;
      const score = candidate.specificity + (candidate.rule.server !== undefined ? 0.5 : 0);
      const bestScore = best === undefined ? -1 : best.specificity + (best.rule.server !== undefined ? 0.5 : 0);
      if (score > bestScore) best = candidate;
    }
    return best === undefined ? undefined : { decision: best.rule.decision, rule: best.rule };
  }
}
