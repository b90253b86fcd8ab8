import { fileURLToPath } from "node:url";
import type { HarnessDialect } from "../protocol/dialect.js";
import type { CustomAgent, HarnessConfig, ModelConfig, PolicyRule as WirePolicyRule, SystemInstructions, Tool } from "../protocol/messages.js";
import type { LifecycleHook } from "../protocol/enums.js";
import { defaultModelFor } from "../protocol/harness-versions.js";
import { DEFAULT_BUILTIN_TOOLS, harnessSideToolsFor, type BuiltinToolName } from "./builtin-tools.js";
import type { CustomTool, ResolvedConversationConfig } from "./conversation-config.js";
import { applyFeatureOptions } from "./harness-feature-config.js";

const USER_INSTRUCTIONS_TITLE = "user_system_instructions";
const WORKSPACE_TITLE = "Workspace";

function workspaceDirectory(path: string): string {
  return path.startsWith("file://") ? fileURLToPath(path) : path;
}

/**
 * The harness confines its file tools to the workspaces but does not tell the model where they are;
 * without this note the model guesses paths.
 */
export function workspaceNote(directories: readonly string[]): string {
  return ["<workspaces>", "Your workspace roots (absolute paths; file tools work inside them):", ...directories.map((directory) => `- ${directory}`), "</workspaces>"].join(
    "\n",
  );
}

function systemInstructions(config: ResolvedConversationConfig, directories: readonly string[]): SystemInstructions | undefined {
  const note = config.announceWorkspaces && directories.length > 0 ? workspaceNote(directories) : undefined;
  const instructions = typeof config.systemInstructions === "string" ? { text: config.systemInstructions, mode: "append" as const } : config.systemInstructions;
  if (instructions?.mode === "replace") {
    return { custom: { part: [{ text: instructions.text }, ...(note === undefined ? [] : [{ text: note }])] } };
  }
  const sections = [
    ...(instructions === undefined ? [] : [{ title: USER_INSTRUCTIONS_TITLE, content: instructions.text }]),
    ...(note === undefined ? [] : [{ title: WORKSPACE_TITLE, content: note }]),
  ];
  const identity = instructions?.mode === "append" && "identity" in instructions ? instructions.identity : undefined;
  if (sections.length === 0 && identity === undefined) return undefined;
  return { appended: { ...(identity === undefined ? {} : { customIdentity: identity }), appendedSections: sections } };
}

function wireTool(tool: CustomTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: JSON.stringify(tool.parameters),
    ...(tool.responseSchema === undefined ? {} : { responseJsonSchema: JSON.stringify(tool.responseSchema) }),
  };
}

function models(config: ResolvedConversationConfig, apiKey: string | undefined, dialect: HarnessDialect): ModelConfig[] {
  const options = {
    ...(config.thinkingLevel === undefined ? {} : { thinkingLevel: config.thinkingLevel }),
    ...(config.serviceTier === undefined ? {} : { serviceTier: config.serviceTier }),
  };
  const hasOptions = Object.keys(options).length > 0;
  const endpointFor = (): Omit<ModelConfig, "name" | "types"> => {
    if (config.baseUrl !== undefined) return { gemmaEndpoint: { baseUrl: config.baseUrl } };
    const endpoint = config.endpoint;
    if (endpoint?.type === "vertex") {
      return {
        vertexEndpoint: {
          project: endpoint.project,
          location: endpoint.location,
          ...(endpoint.baseUrl === undefined ? {} : { baseUrl: endpoint.baseUrl }),
          ...(endpoint.headers === undefined ? {} : { httpHeaders: endpoint.headers }),
          ...(hasOptions ? { options } : {}),
          ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
        },
      };
    }
    const key = endpoint?.apiKey ?? apiKey;
    return {
      geminiApiEndpoint: {
        ...(endpoint?.baseUrl === undefined ? {} : { baseUrl: endpoint.baseUrl }),
        ...(endpoint?.headers === undefined ? {} : { httpHeaders: endpoint.headers }),
        ...(key === undefined ? {} : { apiKey: key }),
        ...(hasOptions ? { options } : {}),
      },
    };
  };
  const result: ModelConfig[] = [{ name: config.model ?? defaultModelFor(dialect.version), types: ["MODEL_TYPE_TEXT"], ...endpointFor() }];
  if (typeof config.imageModel === "string") result.push({ name: config.imageModel, types: ["MODEL_TYPE_IMAGE"], ...endpointFor() });
  return result;
}

/** The lifecycle hooks the harness should call back for: exactly those with a handler (or a policy needing PRE_TOOL). */
function enabledHooksFor(config: ResolvedConversationConfig): LifecycleHook[] {
  const hooks: LifecycleHook[] = [];
  if (config.hooks.sessionStart) hooks.push("LIFECYCLE_HOOK_ON_SESSION_START");
  if (config.hooks.sessionEnd) hooks.push("LIFECYCLE_HOOK_ON_SESSION_END");
  if (config.hooks.preTurn) hooks.push("LIFECYCLE_HOOK_PRE_TURN");
  if (config.hooks.postTurn) hooks.push("LIFECYCLE_HOOK_POST_TURN");
  if (config.hooks.preTool || config.policies.length > 0) hooks.push("LIFECYCLE_HOOK_PRE_TOOL");
  if (config.hooks.postTool) hooks.push("LIFECYCLE_HOOK_POST_TOOL");
  if (config.hooks.onToolError) hooks.push("LIFECYCLE_HOOK_ON_TOOL_ERROR");
  if (config.hooks.onCompaction) hooks.push("LIFECYCLE_HOOK_ON_COMPACTION");
  if (config.hooks.stop) hooks.push("LIFECYCLE_HOOK_STOP");
  return hooks;
}

/** Policy rule ids the harness echoes in policyDecisionRequest: `rule_<index>`, as the Python SDK numbers them. */
export function policyRuleId(index: number): string {
  return `rule_${index}`;
}

/** Exact names first, then wildcards by literal length, `*` last: harnesses take the first matching rule. */
function specificityOf(tool: string): number {
  return tool.includes("*") ? tool.replace(/\*/g, "").length : Number.MAX_SAFE_INTEGER;
}

function policyConfig(config: ResolvedConversationConfig): { rules: WirePolicyRule[] } {
  const ordered = config.policies
    .map((rule, index) => ({ rule, index }))
    .sort((left, right) => specificityOf(right.rule.tool) + (right.rule.server ? 0.5 : 0) - (specificityOf(left.rule.tool) + (left.rule.server ? 0.5 : 0)));
  return {
    rules: ordered.map(({ rule, index }) => ({
      tool: rule.tool,
      ...(rule.server === undefined ? {} : { serverName: rule.server }),
      name: `${rule.decision}_${rule.tool}`,
      // `confirm` needs client code (the pre-tool hook), so the harness asks us for it.
      decision: rule.decision === "allow" ? "POLICY_DECISION_ALLOW" : rule.decision === "deny" ? "POLICY_DECISION_DENY" : "POLICY_DECISION_ASK_USER",
      ...(rule.reason === undefined ? {} : { denyReason: rule.reason }),
      isDynamic: rule.decision === "confirm",
      ruleId: policyRuleId(index),
    })),
  };
}

function subagents(config: ResolvedConversationConfig, directories: readonly string[], dialect: HarnessDialect): CustomAgent[] {
  // A subagent may start subagents of its own only where the harness allows nesting (0.1.11+) and the conversation asks for it.
  const nesting = (config.maxSubagentDepth ?? 1) > 1;
  const toolsByName = new Map(config.customTools.map((tool) => [tool.name, tool]));
  return config.subagents.map((subagent) => {
    const note = config.announceWorkspaces && directories.length > 0 ? workspaceNote(directories) : undefined;
    const sections = [
      ...(subagent.systemInstructions === undefined ? [] : [{ title: "System", content: subagent.systemInstructions }]),
      ...(note === undefined ? [] : [{ title: WORKSPACE_TITLE, content: note }]),
    ];
    return {
      name: subagent.name,
      description: subagent.description,
      ...(sections.length === 0 ? {} : { systemInstructions: { appended: { appendedSections: sections } } }),
      harnessSideTools: harnessSideToolsFor(subagent.builtinTools ?? DEFAULT_BUILTIN_TOOLS, { allowSubagents: nesting, dialect }),
      tools: (subagent.tools ?? []).map((name) => wireTool(toolsByName.get(name) as CustomTool)),
      ...(subagent.model === undefined ? {} : { model: { name: subagent.model, types: ["MODEL_TYPE_TEXT"] } }),
    };
  });
}

/**
 * The Gemini API key a conversation's models use: the config's own, the gemini endpoint's, then
 * GEMINI_API_KEY from the process's env option and from this process. Undefined for endpoints that
 * take none (a local base URL, Vertex with its own credentials).
 */
export function geminiApiKeyOf(config: ResolvedConversationConfig, configuredEnvironment: Readonly<Record<string, string>>): string | undefined {
  if (config.baseUrl !== undefined || config.endpoint?.type === "vertex") return undefined;
  return config.apiKey ?? config.endpoint?.apiKey ?? configuredEnvironment.GEMINI_API_KEY ?? process.env.GEMINI_API_KEY;
}

export interface BuildHarnessConfigOptions {
  apiKey: string | undefined;
  /** The harness release spoken: what the config may contain and how it is spelled. */
  dialect: HarnessDialect;
  cwd?: string;
}

/**
 * Turns a validated conversation config into the HarnessConfig sent in the InitializeConversationEvent,
 * spelled for the harness's release. An option the release lacks is still written, so that
 * `checkHarnessConfig` refuses it by name rather than the harness refusing the whole init.
 */
export function buildHarnessConfig(config: ResolvedConversationConfig, options: BuildHarnessConfigOptions): HarnessConfig {
  const dialect = options.dialect;
  const directories = (config.workspaces ?? [options.cwd ?? process.cwd()]).map(workspaceDirectory);
  const builtins: readonly BuiltinToolName[] = config.builtinTools ?? DEFAULT_BUILTIN_TOOLS;
  const instructions = systemInstructions(config, directories);
  const harnessConfig: HarnessConfig = {
    cascadeId: config.conversationId ?? "",
    ...(instructions === undefined ? {} : { systemInstructions: instructions }),
    tools: config.customTools.map(wireTool),
    // Configured subagents are only reachable through the start_subagent builtin, so they switch it on.
    harnessSideTools: harnessSideToolsFor(config.subagents.length > 0 ? [...builtins, "start_subagent"] : builtins, { allowSubagents: true, dialect }),
    workspaces: directories.map((directory) => ({ filesystemWorkspace: { directory } })),
    models: models(config, options.apiKey, dialect),
    enabledHooks: enabledHooksFor(config),
  };
  if (config.compactionThreshold !== undefined) harnessConfig.compactionThreshold = config.compactionThreshold;
  if (config.skillsPaths !== undefined) harnessConfig.skillsPaths = config.skillsPaths;
  if (config.responseSchema !== undefined) harnessConfig.finishToolSchemaJson = JSON.stringify(config.responseSchema);
  if (config.appDataDirectory !== undefined) harnessConfig.appDataDir = config.appDataDirectory;
  if (config.mcpServers.length > 0) {
    harnessConfig.mcpServers = config.mcpServers.map((server) => ({
      name: server.name,
      ...(server.command === undefined
        ? { http: { url: server.url ?? "", ...(server.headers === undefined ? {} : { headers: server.headers }) } }
        : { stdio: { command: server.command, args: server.args ?? [], ...(server.env === undefined ? {} : { env: server.env }) } }),
      ...(server.enabledTools === undefined ? {} : { enabledTools: server.enabledTools }),
      ...(server.disabledTools === undefined ? {} : { disabledTools: server.disabledTools }),
      ...(server.timeoutSeconds === undefined ? {} : { timeoutSeconds: server.timeoutSeconds }),
    }));
  }
  if (config.subagents.length > 0) harnessConfig.customSubagents = subagents(config, directories, dialect);
  if (config.truncation !== undefined) {
    harnessConfig.toolOutputTruncation =
      config.truncation.mode === "truncate"
        ? { truncate: { maxTokens: config.truncation.maxTokens } }
        : { error: { maxTokens: config.truncation.maxTokens, ...(config.truncation.message === undefined ? {} : { errorMessage: config.truncation.message }) } };
  }
  if (config.continuation !== undefined) {
    harnessConfig.sessionContinuationMode =
      config.continuation === "resume" ? "RESUME" : config.continuation === "create-only" ? "CREATE_ONLY" : "CREATE_OR_RESUME";
  }
  if (config.retry !== undefined) {
    const retry = config.retry;
    const apiRetry = {
      ...(retry.maxRetries === undefined ? {} : { maxRetries: retry.maxRetries }),
      ...(retry.initialDelayMs === undefined ? {} : { initialSleepDurationMs: retry.initialDelayMs }),
      ...(retry.multiplier === undefined ? {} : { exponentialMultiplier: retry.multiplier }),
      ...(retry.jitter === undefined ? {} : { jitterRange: retry.jitter }),
    };
    harnessConfig.retryConfig = {
      ...(Object.keys(apiRetry).length > 0 ? { apiRetry } : {}),
      ...(retry.modelOutputMaxRetries === undefined ? {} : { modelOutputRetry: { maxRetries: retry.modelOutputMaxRetries } }),
    };
  }
  if (config.sendPoliciesToHarness && config.policies.length > 0) harnessConfig.policyConfig = policyConfig(config);
  applyFeatureOptions(harnessConfig, config, dialect);
  return harnessConfig;
}
