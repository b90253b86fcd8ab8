import type { ConfigView } from "../conversation/config-view.js";
import type { Scenario, ScenarioRule } from "./scenario-schema.js";

export interface MatchInput {
  text: string;
  trigger: boolean;
  lastToolResult: string;
  config: ConfigView;
}

export interface RuleMatch {
  rule: ScenarioRule;
  /** The custom tool the text names, when the rule asked for one. */
  mentionedTool: string | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The longest declared custom tool name that appears in the text as a whole word. */
export function findMentionedTool(text: string, config: ConfigView): string | undefined {
  const names = config.customTools.map((tool) => tool.name).sort((left, right) => right.length - left.length);
  return names.find((name) => new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}($|[^A-Za-z0-9_])`).test(text));
}

/** First rule whose every condition holds; undefined when none does. */
export function matchRule(scenario: Scenario, input: MatchInput): RuleMatch | undefined {
  for (const rule of scenario.rules) {
    const { when } = rule;
    const flags = when.flags ?? "i";
    if (when.trigger !== undefined && when.trigger !== input.trigger) continue;
    if (when.text !== undefined && !new RegExp(when.text, flags).test(input.text)) continue;
    if (when.lastToolResult !== undefined && !new RegExp(when.lastToolResult, flags).test(input.lastToolResult)) continue;
    if (when.toolAvailable !== undefined && input.config.customTool(when.toolAvailable) === undefined) continue;
    if (when.builtinEnabled !== undefined && !input.config.builtinEnabled(when.builtinEnabled)) continue;
    let mentionedTool: string | undefined;
    if (when.mentionsTool === true) {
      mentionedTool = findMentionedTool(input.text, input.config);
      if (mentionedTool === undefined) continue;
    }
    return { rule, mentionedTool };
  }
  return undefined;
}
