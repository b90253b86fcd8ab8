import type { ConfigView } from "../conversation/config-view.js";
import type { Scenario, ScenarioRule } from "./scenario-schema.js";

export interface MatchInput {
  /** What the user asks for now (the newest message of a transcript), or a STOP hook's reason. */
  text: string;
  trigger: boolean;
  /** The harness started the turn itself (the schedule tool). */
  scheduled?: boolean | undefined;
  /** The agent goes on after a STOP hook answered CONTINUE. */
  continuation?: boolean | undefined;
  /** The agent's behaviour: AUTONOMOUS, INTERACTIVE or MINIMAL. */
  agentBehavior?: string | undefined;
  /** The names of the conversation's skills; asked only by a rule that looks for one (reading them touches the disk). */
  skills?: (() => readonly string[]) | undefined;
  lastToolResult: string;
  config: ConfigView;
  /** Tools of the conversation's loaded MCP servers. */
  mcpTools?: readonly { serverName: string; name: string }[];
}

export interface RuleMatch {
  rule: ScenarioRule;
  /** The custom tool the text names, when the rule asked for one. */
  mentionedTool: string | undefined;
  /** The MCP tool the text names, when the rule asked for one. */
  mentionedMcpTool?: { serverName: string; name: string } | undefined;
  /** The skill the text names, when the rule asked for one. */
  mentionedSkill?: string | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}($|[^A-Za-z0-9_])`).test(text);
}

/** The longest declared custom tool name that appears in the text as a whole word. */
export function findMentionedTool(text: string, config: ConfigView): string | undefined {
  const names = config.customTools.map((tool) => tool.name).sort((left, right) => right.length - left.length);
  return names.find((name) => mentions(text, name));
}

/** The MCP tool with the longest name that appears in the text as a whole word. */
export function findMentionedMcpTool<Tool extends { name: string }>(text: string, tools: readonly Tool[]): Tool | undefined {
  return [...tools].sort((left, right) => right.name.length - left.name.length).find((tool) => mentions(text, tool.name));
}

/** First rule whose every condition holds; undefined when none does. */
export function matchRule(scenario: Scenario, input: MatchInput): RuleMatch | undefined {
  for (const rule of scenario.rules) {
    const { when } = rule;
    const flags = when.flags ?? "i";
    if (when.trigger !== undefined && when.trigger !== input.trigger) continue;
    if (when.scheduled !== undefined && when.scheduled !== (input.scheduled === true)) continue;
    if (when.continuation !== undefined && when.continuation !== (input.continuation === true)) continue;
    if (when.agentBehavior !== undefined && `AGENT_BEHAVIOR_${when.agentBehavior}` !== input.agentBehavior) continue;
    if (when.text !== undefined && !new RegExp(when.text, flags).test(input.text)) continue;
    if (when.lastToolResult !== undefined && !new RegExp(when.lastToolResult, flags).test(input.lastToolResult)) continue;
    if (when.toolAvailable !== undefined && input.config.customTool(when.toolAvailable) === undefined) continue;
    if (when.builtinEnabled !== undefined && !input.config.builtinEnabled(when.builtinEnabled)) continue;
    let mentionedTool: string | undefined;
    if (when.mentionsTool === true) {
      mentionedTool = findMentionedTool(input.text, input.config);
      if (mentionedTool === undefined) continue;
    }
    let mentionedMcpTool: { serverName: string; name: string } | undefined;
    if (when.mentionsMcpTool === true) {
      mentionedMcpTool = findMentionedMcpTool(input.text, input.mcpTools ?? []);
      if (mentionedMcpTool === undefined) continue;
    }
    let mentionedSkill: string | undefined;
    if (when.mentionsSkill === true) {
      mentionedSkill = [...(input.skills?.() ?? [])].sort((left, right) => right.length - left.length).find((name) => mentions(input.text, name));
      if (mentionedSkill === undefined) continue;
    }
    return { rule, mentionedTool, mentionedMcpTool, mentionedSkill };
  }
  return undefined;
}
