import type { HarnessConfig, HarnessSideTools, PolicyRule, ToolDeclaration } from "../wire/input-messages.js";

/** HarnessSideTools toggle key of each builtin wire name (docs/protocol.md, "Conversation init"). */
const toggleKeyOf: Record<string, keyof HarnessSideTools> = {
  list_directory: "listDir",
  view_file: "viewFile",
  find_file: "find",
  search_directory: "grepSearch",
  create_file: "writeToFile",
  edit_file: "fileEdit",
  run_command: "runCommand",
  ask_question: "userQuestions",
  invoke_subagent: "subagents",
  start_subagent: "subagents",
  generate_image: "generateImage",
  search_web: "searchWeb",
  read_url_content: "readUrlContent",
  schedule: "schedule",
  manage_task: "manageTask",
  run_workflow: "runWorkflow",
};

/** A conversation's budget (0.1.11) as numbers; a limit absent or 0 is unlimited. */
export interface BudgetConfigView {
  maxModelCalls: number | undefined;
  maxToolCalls: number | undefined;
  maxInputTokens: number | undefined;
  maxOutputTokens: number | undefined;
  maxTotalTokens: number | undefined;
  /** Tokens count from this session's start (BUDGET_SCOPE_FORWARD_LOOKING) rather than the conversation's. */
  forwardLooking: boolean;
}

function limit(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Read-only questions about one conversation's HarnessConfig. */
export class ConfigView {
  readonly config: HarnessConfig;

  constructor(config: HarnessConfig) {
    this.config = config;
  }

  /**
   * An absent toggle means enabled: genai-rs reports the harness defaults most builtins to enabled,
   * which is why both SDKs write every toggle explicitly.
   */
  builtinEnabled(wireName: string, tools: HarnessSideTools | undefined = this.config.harnessSideTools): boolean {
    const key = toggleKeyOf[wireName];
    if (key === undefined) return false;
    const toggle = tools?.[key] as { enabled?: boolean } | undefined;
    return toggle?.enabled !== false;
  }

  get customTools(): readonly ToolDeclaration[] {
    return this.config.tools ?? [];
  }

  customTool(name: string): ToolDeclaration | undefined {
    return this.customTools.find((tool) => tool.name === name);
  }

  hookEnabled(hook: string): boolean {
    return (this.config.enabledHooks ?? []).some((entry) => entry === hook);
  }

  get workspaces(): string[] {
    return (this.config.workspaces ?? [])
      .map((workspace) => workspace.filesystemWorkspace?.directory)
      .filter((directory): directory is string => typeof directory === "string" && directory !== "");
  }

  get enforceWorkspaceValidation(): boolean {
    return this.config.harnessSideTools?.permissions?.enforceWorkspaceValidation !== false;
  }

  get hasTextModel(): boolean {
    return (this.config.models ?? []).some((model) => (model.types ?? []).some((type) => type === "MODEL_TYPE_TEXT" || type === 1));
  }

  get firstModelName(): string | undefined {
    return this.config.models?.[0]?.name;
  }

  /** The Gemini key the client configured, for scenarios that play an upstream error quoting it. */
  get modelApiKey(): string {
    return this.config.models?.[0]?.geminiApiEndpoint?.apiKey ?? "";
  }

  get serviceTier(): string | undefined {
    const tier = this.config.models?.[0]?.geminiApiEndpoint?.options?.serviceTier;
    return tier === undefined || tier === "" ? undefined : tier;
  }

  /**
   * The command sandbox the init response reports (0.1.17). The emulator has none: asked for one,
   * it says it is unavailable and runs commands unsandboxed, so a client learns to read the reason.
   */
  get sandboxStatus(): { available: boolean; unavailableReason: string } {
    const requested = this.config.harnessSideTools?.runCommand?.enableSandbox === true;
    return {
      available: false,
      unavailableReason: requested ? "the emulator has no command sandbox; commands run unsandboxed" : "sandbox not requested (runCommand.enableSandbox is off)",
    };
  }

  get finishSchema(): string | undefined {
    const schema = this.config.finishToolSchemaJson;
    return schema === undefined || schema.trim() === "" ? undefined : schema;
  }

  /** Tokens after which the context is compacted: `compactionConfig.tokenThreshold` (0.1.17), else `compactionThreshold`. */
  get compactionThreshold(): number {
    const configured = Number(this.config.compactionConfig?.tokenThreshold ?? 0);
    if (configured > 0) return configured;
    const threshold = Number(this.config.compactionThreshold ?? 0);
    return threshold > 0 ? threshold : 50_000;
  }

  get budget(): BudgetConfigView | undefined {
    const budget = this.config.budgetConfig;
    if (budget === undefined) return undefined;
    return {
      maxModelCalls: limit(budget.maxModelCalls),
      maxToolCalls: limit(budget.maxToolCalls),
      maxInputTokens: limit(budget.maxInputTokens),
      maxOutputTokens: limit(budget.maxOutputTokens),
      maxTotalTokens: limit(budget.maxTotalTokens),
      forwardLooking: budget.scope === "BUDGET_SCOPE_FORWARD_LOOKING" || budget.scope === 2,
    };
  }

  /**
   * The agent's behaviour toward its user (0.1.11): INTERACTIVE asks questions; AUTONOMOUS, the
   * default for UNSPECIFIED ("the user will not respond to questions"), and MINIMAL do not.
   */
  get agentBehavior(): "AGENT_BEHAVIOR_AUTONOMOUS" | "AGENT_BEHAVIOR_INTERACTIVE" | "AGENT_BEHAVIOR_MINIMAL" {
    const behavior = this.config.agentBehavior;
    if (behavior === "AGENT_BEHAVIOR_INTERACTIVE" || behavior === 2) return "AGENT_BEHAVIOR_INTERACTIVE";
    if (behavior === "AGENT_BEHAVIOR_MINIMAL" || behavior === 3) return "AGENT_BEHAVIOR_MINIMAL";
    return "AGENT_BEHAVIOR_AUTONOMOUS";
  }

  /** Policy rules that may apply to a tool: exact names first, then `*`, each in configured order. */
  policyRulesFor(toolName: string, serverName: string): { rule: PolicyRule; index: number }[] {
    const rules = (this.config.policyConfig?.rules ?? []).map((rule, index) => ({ rule, index }));
    const serverMatches = (rule: PolicyRule): boolean => (rule.serverName ?? "") === "" || rule.serverName === serverName;
    const exact = rules.filter(({ rule }) => rule.tool === toolName && serverMatches(rule));
    const wildcard = rules.filter(({ rule }) => rule.tool === "*" && serverMatches(rule));
    return [...exact, ...wildcard];
  }
}
