import { z } from "zod/v4";
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "./builtin-tools.js";
import { DEFAULT_INIT_TIMEOUT_MS, DEFAULT_PING_INTERVAL_MS, DEFAULT_TURN_TIMINGS } from "./conversation-timings.js";
import { callable, hooksSchema, type ConversationHooks } from "./conversation-hooks.js";
import { harnessFeatureOptionsSchema, type HarnessFeatureOptions } from "./harness-feature-options.js";

export type {
  CompactionHookArgs,
  ConfirmationHookArgs,
  ConversationHooks,
  PostToolHookArgs,
  PreToolHookArgs,
  PreToolHookResult,
  PreTurnDecision,
  PreTurnHookArgs,
  QuestionAnswer,
  QuestionsHookArgs,
  QuestionsHookResult,
  StopHookArgs,
  StopHookResult,
  ToolErrorHookArgs,
  ToolHookArgs,
} from "./conversation-hooks.js";


// ------------------------------------------------------------------ custom tools

/** What a custom tool handler learns about the call it serves. */
export interface ToolCallContext {
  /** The harness's id of this call. */
  callId: string;
  toolName: string;
  conversationId: string;
  /** Aborted when the conversation closes or the turn is cancelled; the handler may stop then. */
  signal: AbortSignal;
  /** The trajectory (main agent or a subagent) that made the call, from harness 0.1.17. */
  trajectoryId?: string;
}

/**
 * A host-side tool the model may call. The handler is awaited with no timeout: a handler that waits
 * for a human is how a turn parks. Objects are sent as the result; anything else is wrapped as
 * `{"result": value}`. A thrown error becomes a tool error the model sees.
 */
export interface CustomTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Optional JSON Schema of the result. */
  responseSchema?: Record<string, unknown> | undefined;
  handler: (args: Record<string, unknown>, context: ToolCallContext) => unknown;
}

const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

const customToolSchema = z.object({
  name: z.string().regex(toolNamePattern, "tool names are 1-64 letters, digits, _ . - and start with a letter or _"),
  description: z.string().min(1, "describe the tool so the model knows when to call it"),
  parameters: z.record(z.string(), z.unknown()).refine((schema) => schema.type === undefined || String(schema.type).toLowerCase() === "object", {
    message: "parameters must be a JSON Schema for an object",
  }),
  responseSchema: z.record(z.string(), z.unknown()).optional(),
  handler: callable<CustomTool["handler"]>("handler"),
});

// ------------------------------------------------------------------ the config

const policySchema = z
  .object({
    /** Tool name (builtin, custom or MCP), with `*` as a wildcard. */
    tool: z.string().min(1),
    decision: z.enum(["allow", "deny", "confirm"]),
    /** Restrict the rule to one MCP server. */
    server: z.string().min(1).optional(),
    reason: z.string().optional(),
  })
  .strict();

const mcpServerSchema = z
  .object({
    name: z.string().min(1),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    url: z.url().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    enabledTools: z.array(z.string()).optional(),
    disabledTools: z.array(z.string()).optional(),
    /** Bounds each tool call, not start-up. */
    timeoutSeconds: z.number().int().positive().optional(),
  })
  .strict()
  .refine((server) => (server.command === undefined) !== (server.url === undefined), {
    message: "an MCP server has exactly one of command (stdio) or url (HTTP)",
  });

const endpointSchema = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("gemini"),
      baseUrl: z.url().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      apiKey: z.string().min(1).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("vertex"),
      project: z.string().min(1),
      location: z.string().min(1),
      baseUrl: z.url().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      /** Vertex AI Express mode (harness 0.1.11+). */
      apiKey: z.string().min(1).optional(),
    })
    .strict(),
]);

const subagentSchema = z
  .object({
    name: z.string().regex(toolNamePattern),
    description: z.string().min(1),
    systemInstructions: z.string().optional(),
    builtinTools: z.array(z.enum(BUILTIN_TOOL_NAMES)).optional(),
    /** Names of this conversation's custom tools the subagent may call (calls route through the parent). */
    tools: z.array(z.string()).optional(),
    /** Its own text model (harness 0.1.18+); default the conversation's. */
    model: z.string().min(1).optional(),
  })
  .strict();

const systemInstructionsSchema = z.union([
  z.string(),
  z
    .object({
      text: z.string(),
      /** `append` (default) adds to the harness's built-in instructions; `replace` swaps them out. */
      mode: z.enum(["append", "replace"]).default("append"),
      /** Overrides the identity line (append mode only). */
      identity: z.string().optional(),
    })
    .strict(),
]);

/**
 * The schema `validateConversationConfig` checks a `ConversationConfig` with and fills its defaults
 * from.
 */
export const conversationConfigSchema = z
  .object({
    /** Text model name (default: the official SDK's default for the harness's release). */
    model: z.string().min(1).optional(),
    /** Image model name, or false for none. */
    imageModel: z.union([z.string().min(1), z.literal(false)]).optional(),
    endpoint: endpointSchema.optional(),
    /** Root URL of a local OpenAI-compatible server (the harness appends /v1/chat/completions). */
    baseUrl: z.url().optional(),
    /** Gemini API key; defaults to GEMINI_API_KEY from the process's env option, then process.env. */
    apiKey: z.string().min(1).optional(),
    thinkingLevel: z.enum(["minimal", "low", "medium", "high", "extra_high"]).optional(),
    serviceTier: z.enum(["standard", "priority", "flex"]).optional(),
    systemInstructions: systemInstructionsSchema.optional(),
    workspaces: z.array(z.string().refine((path) => path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("file://"), "workspaces are absolute paths")).optional(),
    /** Tell the model its workspace roots in a delimited system-instruction note (default true). */
    announceWorkspaces: z.boolean().default(true),
    builtinTools: z.array(z.enum(BUILTIN_TOOL_NAMES)).optional(),
    customTools: z.array(customToolSchema).default([]),
    mcpServers: z.array(mcpServerSchema).default([]),
    subagents: z.array(subagentSchema).default([]),
    /** JSON Schema of the structured output (the `finish` tool's argument). */
    responseSchema: z.record(z.string(), z.unknown()).optional(),
    /** Resume (or create) this conversation id. */
    conversationId: z.string().regex(/^[A-Za-z0-9_-]+$/, "conversation ids are letters, digits, - and _").optional(),
    continuation: z.enum(["resume", "create-or-resume", "create-only"]).optional(),
    compactionThreshold: z.number().int().nonnegative().optional(),
    skillsPaths: z.array(z.string()).optional(),
    appDataDirectory: z.string().optional(),
    retry: z
      .object({
        maxRetries: z.number().int().nonnegative().optional(),
        initialDelayMs: z.number().int().nonnegative().optional(),
        multiplier: z.number().positive().optional(),
        jitter: z.number().nonnegative().optional(),
        modelOutputMaxRetries: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    truncation: z
      .discriminatedUnion("mode", [
        z.object({ mode: z.literal("truncate"), maxTokens: z.number().int().positive() }).strict(),
        z.object({ mode: z.literal("error"), maxTokens: z.number().int().positive(), message: z.string().optional() }).strict(),
      ])
      .optional(),
    hooks: hooksSchema.default({}),
    policies: z.array(policySchema).default([]),
    /** Also send the policies to the harness as `policyConfig` (0.1.10+ harnesses only). */
    sendPoliciesToHarness: z.boolean().default(false),
    ...harnessFeatureOptionsSchema.shape,
    /** Messages sent as automated triggers every `intervalMs` while the conversation is idle. */
    triggers: z.array(z.object({ message: z.string().min(1), intervalMs: z.number().int().min(10) }).strict()).default([]),
    /** Per-turn timeout (default 300 000 ms); `false` turns it off. */
    turnTimeoutMs: z.union([z.number().int().positive(), z.literal(false)]).default(300_000),
    /** The client's waits on the harness; every default was tuned against the emulator (docs/protocol.md, "Assumptions and how we hedge them"). */
    timings: z
      .object({
        idleSettleMs: z.number().int().min(0).max(60_000).default(DEFAULT_TURN_TIMINGS.idleSettleMs),
        earlyIdleGraceMs: z.number().int().min(0).max(60_000).default(DEFAULT_TURN_TIMINGS.earlyIdleGraceMs),
        haltDrainMs: z.number().int().min(0).max(600_000).default(DEFAULT_TURN_TIMINGS.haltDrainMs),
        fatalDrainMs: z.number().int().min(0).max(600_000).default(DEFAULT_TURN_TIMINGS.fatalDrainMs),
        pingIntervalMs: z.union([z.number().int().min(100).max(3_600_000), z.literal(false)]).default(DEFAULT_PING_INTERVAL_MS),
        initTimeoutMs: z.number().int().min(1).max(3_600_000).default(DEFAULT_INIT_TIMEOUT_MS),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.endpoint !== undefined && config.baseUrl !== undefined) {
      context.addIssue({ code: "custom", path: ["baseUrl"], message: "endpoint and baseUrl are mutually exclusive" });
    }
    if (config.continuation === "resume" && config.conversationId === undefined) {
      context.addIssue({ code: "custom", path: ["continuation"], message: "continuation 'resume' needs a conversationId" });
    }
    const toolNames = new Set<string>();
    config.customTools.forEach((tool, index) => {
      if (toolNames.has(tool.name)) context.addIssue({ code: "custom", path: ["customTools", index, "name"], message: `duplicate tool name ${tool.name}` });
      toolNames.add(tool.name);
    });
    config.subagents.forEach((subagent, index) => {
      (subagent.tools ?? []).forEach((name, toolIndex) => {
        if (!toolNames.has(name)) {
          context.addIssue({
            code: "custom",
            path: ["subagents", index, "tools", toolIndex],
            message: `subagent tool ${name} is not one of this conversation's customTools`,
          });
        }
      });
    });
    const serverNames = new Set<string>();
    config.mcpServers.forEach((server, index) => {
      if (serverNames.has(server.name)) context.addIssue({ code: "custom", path: ["mcpServers", index, "name"], message: `duplicate MCP server ${server.name}` });
      serverNames.add(server.name);
    });
  });

/** A policy: allow, deny or confirm calls of a tool (builtin, custom or MCP); `*` is a wildcard. */
export interface ToolPolicy {
  tool: string;
  decision: "allow" | "deny" | "confirm";
  /** Restrict the rule to one MCP server. */
  server?: string | undefined;
  /** Told to the model when the rule denies. */
  reason?: string | undefined;
}

/** An MCP server the harness starts (stdio: `command`) or connects to (HTTP: `url`). */
export interface McpServer {
  name: string;
  command?: string | undefined;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  url?: string | undefined;
  headers?: Record<string, string> | undefined;
  enabledTools?: string[] | undefined;
  disabledTools?: string[] | undefined;
  /** Bounds each tool call, not start-up. */
  timeoutSeconds?: number | undefined;
}

/** A custom subagent; its `tools` name custom tools of the conversation (calls route through it). */
export interface Subagent {
  name: string;
  description: string;
  systemInstructions?: string | undefined;
  builtinTools?: BuiltinToolName[] | undefined;
  tools?: string[] | undefined;
  /** Its own text model (harness 0.1.18+); default the conversation's. */
  model?: string | undefined;
}

/**
 * What a conversation is configured with. `openConversation` validates it (CONFIG_INVALID names
 * the field at fault) and applies the safety gate.
 */
export interface ConversationConfig extends HarnessFeatureOptions {
  /**
   * Text model name (default: the official SDK's default for the harness's release: gemini-3.6-flash
   * up to 0.1.10, gemini-3.7-flash from 0.1.11, gemini-3.8-flash from 0.1.16; `emulator:<scenario>`
   * selects an emulator scenario).
   */
  model?: string | undefined;
  /** Image model name, or false for none. */
  imageModel?: string | false | undefined;
  endpoint?:
    | { type: "gemini"; baseUrl?: string | undefined; headers?: Record<string, string> | undefined; apiKey?: string | undefined }
    | {
        type: "vertex";
        project: string;
        location: string;
        baseUrl?: string | undefined;
        headers?: Record<string, string> | undefined;
        /** Vertex AI Express mode (harness 0.1.11+). */
        apiKey?: string | undefined;
      }
    | undefined;
  /** Root URL of a local OpenAI-compatible server (the harness appends /v1/chat/completions); excludes `endpoint`. */
  baseUrl?: string | undefined;
  /** Gemini API key; default GEMINI_API_KEY from the process's `env` option, then from process.env. */
  apiKey?: string | undefined;
  thinkingLevel?: "minimal" | "low" | "medium" | "high" | "extra_high" | undefined;
  serviceTier?: "standard" | "priority" | "flex" | undefined;
  /** A string is appended to the harness's instructions; `mode: "replace"` swaps them out. */
  systemInstructions?: string | { text: string; mode?: "append" | "replace" | undefined; identity?: string | undefined } | undefined;
  /** Absolute paths (or file:// URLs); default the current directory. */
  workspaces?: string[] | undefined;
  /** Tell the model its workspace roots in a delimited note (default true). */
  announceWorkspaces?: boolean | undefined;
  /** Default: list_directory, search_directory, find_file, view_file, finish. */
  builtinTools?: BuiltinToolName[] | undefined;
  customTools?: CustomTool[] | undefined;
  mcpServers?: McpServer[] | undefined;
  subagents?: Subagent[] | undefined;
  /** JSON Schema of the structured output (the `finish` tool's argument). */
  responseSchema?: Record<string, unknown> | undefined;
  /** Resume (or create) this conversation id. */
  conversationId?: string | undefined;
  continuation?: "resume" | "create-or-resume" | "create-only" | undefined;
  compactionThreshold?: number | undefined;
  skillsPaths?: string[] | undefined;
  appDataDirectory?: string | undefined;
  /** Harness-side retries of model API errors (429/503) and malformed model output. */
  retry?:
    | {
        maxRetries?: number | undefined;
        initialDelayMs?: number | undefined;
        multiplier?: number | undefined;
        jitter?: number | undefined;
        modelOutputMaxRetries?: number | undefined;
      }
    | undefined;
  truncation?: { mode: "truncate"; maxTokens: number } | { mode: "error"; maxTokens: number; message?: string | undefined } | undefined;
  hooks?: ConversationHooks | undefined;
  policies?: ToolPolicy[] | undefined;
  /** Also send the policies to the harness as `policyConfig` (0.1.10+ harnesses only). */
  sendPoliciesToHarness?: boolean | undefined;
  /** Sent as automated triggers every `intervalMs` while the conversation is idle, after its first turn. */
  triggers?: { message: string; intervalMs: number }[] | undefined;
  /** Per-turn timeout (default 300 000 ms); false turns it off. Paused while a handler or hook waits. */
  turnTimeoutMs?: number | false | undefined;
  /**
   * How long the client waits on the harness. Each default was tuned against the emulator; set them
   * for a harness that is slower or faster. All in milliseconds.
   */
  timings?: ConversationTimings | undefined;
}

/** `ConversationConfig.timings`: each optional, each validated (CONFIG_INVALID names the field). */
export interface ConversationTimings {
  /** After an idle that may be interim (a step still open, the post-turn hook owed), the longest wait for the next one (100; 0–60 000). */
  idleSettleMs?: number | undefined;
  /** An idle before the turn's first step may be the last turn's duplicate: it ends the turn only after this quiet time (1 000; 0–60 000). */
  earlyIdleGraceMs?: number | undefined;
  /** After a halt (cancel, abort, timeout), how long the harness gets to confirm idle (5 000; 0–600 000). */
  haltDrainMs?: number | undefined;
  /** After a fatal model error (HTTP 400/401/403), how long the harness gets to end the trajectory (2 000; 0–600 000). */
  fatalDrainMs?: number | undefined;
  /** WebSocket ping interval; a ping not answered by the next one closes the socket. `false`: no pings (30 000; 100–3 600 000). */
  pingIntervalMs?: number | false | undefined;
  /** How long the init response may take (60 000; 1–3 600 000). */
  initTimeoutMs?: number | undefined;
}

/** A validated config with defaults applied. */
export type ResolvedConversationConfig = z.output<typeof conversationConfigSchema>;

// The hand-written interface is what users see; this keeps it in step with what the schema accepts.
const _configMatchesSchema = (config: ConversationConfig): z.input<typeof conversationConfigSchema> => config;
void _configMatchesSchema;
