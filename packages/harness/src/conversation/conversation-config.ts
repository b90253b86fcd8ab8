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
  /** The tool called: this handler's `CustomTool.name`. */
  toolName: string;
  /** The conversation whose agent made the call (`Conversation.id`). */
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
  /** What the model calls it: 1-64 letters, digits, `_`, `.` or `-`, starting with a letter or `_`; unique in the conversation. */
  name: string;
  /** What the tool does, for the model to decide when to call it; not empty. */
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Optional JSON Schema of the result. */
  responseSchema?: Record<string, unknown> | undefined;
  /**
   * Serves one call: `args` is the model's arguments object (after any pre-tool hook edits; a call
   * whose arguments are not an object is refused before this runs). Its value (or `withMedia`) is
   * the result; a throw is a tool error the model sees.
   */
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
  /** The tool name the rule matches (a builtin's, custom tool's or MCP tool's), `*` matching any run of characters. */
  tool: string;
  /**
   * `allow` lets the call run (a pre-tool hook, if set, is still asked); `deny` refuses it with
   * `reason`; `confirm` asks the pre-tool hook (`reason: "policy-confirm"`) and refuses without one.
   */
  decision: "allow" | "deny" | "confirm";
  /** Restrict the rule to one MCP server. */
  server?: string | undefined;
  /** Told to the model when the rule denies. */
  reason?: string | undefined;
}

/** An MCP server the harness starts (stdio: `command`) or connects to (HTTP: `url`). */
export interface McpServer {
  /** Unique in the conversation; what a policy's `server`, a hook's `serverName` and MCP_LOAD_FAILED's `subject` name it by. */
  name: string;
  /** The stdio server's executable, which the harness starts; give exactly one of `command` and `url`. */
  command?: string | undefined;
  /** The stdio server's arguments (default none). */
  args?: string[] | undefined;
  /** Environment variables for the stdio server (redacted in recordings). */
  env?: Record<string, string> | undefined;
  /** The HTTP server's URL, which the harness connects to; give exactly one of `command` and `url`. */
  url?: string | undefined;
  /** HTTP headers the harness sends to the HTTP server, e.g. its credentials (redacted in recordings). */
  headers?: Record<string, string> | undefined;
  /** When given, the only tools of the server offered to the model (by name). */
  enabledTools?: string[] | undefined;
  /** Tools of the server never offered to the model (by name). */
  disabledTools?: string[] | undefined;
  /** Bounds each tool call, not start-up. */
  timeoutSeconds?: number | undefined;
}

/** A custom subagent; its `tools` name custom tools of the conversation (calls route through it). */
export interface Subagent {
  /** What the model starts it by: 1-64 letters, digits, `_`, `.` or `-`, starting with a letter or `_`. */
  name: string;
  /** What it is for, for the model to decide when to start it; not empty. */
  description: string;
  /** Its instructions, added to the harness's own (the workspace note follows when `announceWorkspaces`). */
  systemInstructions?: string | undefined;
  /** Its builtins (default `DEFAULT_BUILTIN_TOOLS`); `start_subagent` stays off unless `maxSubagentDepth` is above 1. */
  builtinTools?: BuiltinToolName[] | undefined;
  /** Names of this conversation's custom tools it may call; their calls run the conversation's handlers. */
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
  /**
   * Where the models are called: `gemini` (the Gemini API; `baseUrl` and `headers` change its address
   * and add HTTP headers, `apiKey` is its key) or `vertex` (Vertex AI in `project` and `location`,
   * with the harness's own Google credentials unless `apiKey`). Default: the Gemini API. Excludes `baseUrl`.
   */
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
  /** How much the model thinks before it answers; absent: not sent (the harness's default). Sent with a `gemini` or `vertex` endpoint only. */
  thinkingLevel?: "minimal" | "low" | "medium" | "high" | "extra_high" | undefined;
  /** The service tier the model calls ask for (harness 0.1.10+); absent: not sent (the API's default). Sent with a `gemini` or `vertex` endpoint only. */
  serviceTier?: "standard" | "priority" | "flex" | undefined;
  /** A string is appended to the harness's instructions; `mode: "replace"` swaps them out. */
  systemInstructions?: string | { text: string; mode?: "append" | "replace" | undefined; identity?: string | undefined } | undefined;
  /** Absolute paths (or file:// URLs); default the current directory. */
  workspaces?: string[] | undefined;
  /** Tell the model its workspace roots in a delimited note (default true). */
  announceWorkspaces?: boolean | undefined;
  /** Default: list_directory, search_directory, find_file, view_file, finish. */
  builtinTools?: BuiltinToolName[] | undefined;
  /** Host-side tools the model may call (default none); their names must be unique. */
  customTools?: CustomTool[] | undefined;
  /** MCP servers the harness runs or connects to for the conversation (default none); each needs policies or a pre-tool hook (the safety gate). */
  mcpServers?: McpServer[] | undefined;
  /** Subagents the model may start (default none); any switches on the `start_subagent` builtin. */
  subagents?: Subagent[] | undefined;
  /** JSON Schema of the structured output (the `finish` tool's argument). */
  responseSchema?: Record<string, unknown> | undefined;
  /** Resume (or create) this conversation id. */
  conversationId?: string | undefined;
  /**
   * How the harness treats `conversationId`: `resume` continues a conversation it has (and needs
   * `conversationId`), `create-or-resume` continues it or else starts it, `create-only` starts a new
   * one. Default: the harness's own choice (docs/protocol.md, "Assumptions and how we hedge them").
   */
  continuation?: "resume" | "create-or-resume" | "create-only" | undefined;
  /** Context size in tokens past which the harness may compact the history; 0 or absent: the harness's default. */
  compactionThreshold?: number | undefined;
  /** Directories the harness searches for skills (`skills` is the 0.1.19+ way, with inline skills). */
  skillsPaths?: string[] | undefined;
  /** Where the harness keeps its app data and what it generates (images, other media); default the harness's. */
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
  /**
   * What the harness does with a tool output over `maxTokens` tokens: `truncate` cuts it, `error`
   * gives the model an error instead (`message`, if given). Default the harness's.
   */
  truncation?: { mode: "truncate"; maxTokens: number } | { mode: "error"; maxTokens: number; message?: string | undefined } | undefined;
  /** Host callbacks for the conversation's events (default none; see `ConversationHooks`). */
  hooks?: ConversationHooks | undefined;
  /**
   * Allow, deny or confirm rules for every tool call, checked by the client. The most specific match
   * decides: an exact name beats a wildcard, a longer wildcard a shorter one, a rule with `server`
   * one without. Default none: calls run unless the pre-tool hook refuses them.
   */
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
