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
};

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

  get compactionThreshold(): number {
    const threshold = Number(this.config.compactionThreshold ?? 0);
    return threshold > 0 ? threshold : 50_000;
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
