import type { Logger } from "@ag-ui-antigravity/foundation";
import type { AgentCapabilities } from "@ag-ui/client";
import type { ConversationConfig, ConversationHooks, CustomTool, StopHookResult, ToolCallContext } from "@ag-ui-antigravity/harness";
import type { HarnessPool, HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import { z } from "zod/v4";
import type { ThreadStore } from "./threads/store/thread-store.js";

/**
 * Where the harness comes from. Never chosen silently: `"discover"` (the default) looks for the real
 * `localharness` (ANTIGRAVITY_HARNESS_PATH, python3's site-packages, PATH); `"emulator"` runs
 * `@ag-ui-antigravity/harness-emulator`; `{ path }` runs that binary.
 */
export type HarnessSource = "discover" | "emulator" | { path: string };

/** What a server tool's handler learns about the call: the harness's call context, and whose thread it serves. */
export interface ServerToolContext extends ToolCallContext {
  /** The AG-UI thread the call belongs to. */
  threadId: string;
  /** The thread's own directory, when the agent has a `workspaceRoot`. */
  workspace?: string;
}

/** A tool that runs in this server. Its handler may call `interrupt()`, `getState()`, `setState()` and `getContext()` from `@ag-ui-antigravity/hitl`. */
export interface ServerTool extends Omit<CustomTool, "handler"> {
  /**
   * Runs one call (it may be async): what it returns is the tool's result (an object as it is,
   * anything else as `{ result }`); what it throws is the call's error, which the model sees.
   */
  handler: (args: Record<string, unknown>, context: ServerToolContext) => unknown;
}

/**
 * Where the agent (and the harness client and pool it creates) report what they do: every
 * package's one logger shape, pino's argument order (`fields`, then `message`), any levels.
 */
export type AntigravityAgentLogger = Partial<Logger>;

/** How runs outlive their client's connection, and how long they stay replayable. */
export interface ReconnectOptions {
  /**
   * What a client that goes away mid-run does to the run: `"cancel"` halts the turn (default), `"continue"`
   * lets it finish on the server so the client can `connect` again and see it whole.
   */
  onDisconnect?: "cancel" | "continue";
  /** How long an ended run stays replayable for a late `connect` (default 60 s). */
  replayGraceMs?: number;
  /** Events one run keeps for replay (default 10 000); a longer run can no longer be replayed from its start. */
  maxReplayEvents?: number;
  /**
   * Characters of events one run in flight keeps for replay (default 8 MiB; RUN_STARTED's input is
   * not counted, the run holds it anyway); a larger run can no longer be replayed from its start.
   */
  maxReplayBytes?: number;
  /**
   * Characters all ended runs kept for their grace period hold together (default 16 MiB; the oldest
   * go first). A run that ends holding more than a sixteenth of it is dropped at once.
   */
  maxGraceBytes?: number;
  /** Threads whose transcript is kept for `connect` snapshots (default 1 000; least recently used dropped first). */
  maxThreads?: number;
  /** Characters one thread's transcript keeps (default 512 KiB); its oldest messages go first. */
  maxTranscriptBytes?: number;
  /** Characters all transcripts keep together (default 32 MiB); the least recently used are emptied first. */
  maxTotalTranscriptBytes?: number;
}

/** What `onStop` is told: the agent of a thread is about to stop. */
export interface AgentStopArgs {
  /** The AG-UI thread whose agent is about to stop. */
  threadId: string;
  /** The text the agent ends with. */
  responseText: string;
  /** Why it stops when it is not its own choice (a StopReason name: a budget or the quota); it stops then whatever `onStop` says. */
  stopReason?: string;
  /** How many times `onStop` already made it go on in this turn. */
  continuationCount: number;
}

/** What `onCompaction` is told: the harness summarised a thread's context. */
export interface AgentCompactionArgs {
  /** The AG-UI thread whose context was compacted. */
  threadId: string;
  /** The summary that replaced the compacted context. */
  summary: string;
}

/** Bounds on the turns an agent schedules with the harness's `schedule` tool (see the README, "Schedules"). */
export interface ScheduleLimits {
  /** Scheduled turns one thread may have waiting (default 5); a `schedule` call past it is refused. */
  maxPending?: number;
  /** How far ahead a turn may be scheduled, in milliseconds (default 24 h); a `schedule` call further ahead is refused. */
  maxDelayMs?: number;
}

/**
 * Everything `new AntigravityAgent(options)` takes: the harness, the model and its tools, sessions,
 * threads and logging.
 */
export interface AntigravityAgentOptions {
  /**
   * The agent's id, as AG-UI clients see it, and the id its threads are stored under (two live
   * agents may not share one on a store). Without it, threads are stored under the route name the
   * HTTP binding serves the agent under, else `agent`.
   */
  agentId?: string;
  /** What the agent does, in words: AG-UI's `description` and the `/capabilities` identity's. Default `A Google Antigravity agent`. */
  description?: string;
  /** Where the harness binary comes from (see `HarnessSource`). Default `"discover"`. */
  harness?: HarnessSource;
  /** Text model. With the emulator, `emulator:<scenario>` picks a scenario (default `demo`). */
  model?: string;
  /** Gemini API key; defaults to GEMINI_API_KEY. */
  apiKey?: string;
  /** A Gemini API or Vertex endpoint; exclusive with `baseUrl`. */
  endpoint?: ConversationConfig["endpoint"];
  /** Root URL of a local OpenAI-compatible server; exclusive with `endpoint`. */
  baseUrl?: string;
  /** How much the model thinks before it answers: `minimal`, `low`, `medium`, `high` or `extra_high`. Default: the harness's. */
  thinkingLevel?: ConversationConfig["thinkingLevel"];
  /** Text appended to the harness's own instructions, or `{ text, mode: "replace" }` to replace them. */
  systemInstructions?: ConversationConfig["systemInstructions"];
  /** Fixed workspaces every thread shares. */
  workspaces?: string[];
  /** Gives every thread its own directory under this root (added to `workspaces`). */
  workspaceRoot?: string;
  /** Tools that run in this server. */
  serverTools?: ServerTool[];
  /** Harness builtins to enable. Default none (but `finish`): a chat-safe agent. */
  builtinTools?: NonNullable<ConversationConfig["builtinTools"]>;
  /** Ask the user (an approval interrupt) before every tool call; `{ exempt }` names tools that never ask. */
  toolApproval?: boolean | { exempt?: string[] };
  /**
   * MCP servers the harness connects every thread to: stdio `{ name, command, args?, env? }` or HTTP
   * `{ name, url, headers? }`. A server that cannot be loaded ends the turn with `MCP_LOAD_FAILED`.
   */
  mcpServers?: ConversationConfig["mcpServers"];
  /**
   * Custom subagents the model may start (`{ name, description, systemInstructions?, builtinTools?,
   * tools? }`, the harness client's option); each shows as SUBAGENT_STARTED … SUBAGENT_FINISHED and
   * is advertised in `/capabilities`.
   */
  subagents?: ConversationConfig["subagents"];
  /** JSON Schema of structured output; it is delivered as state (default) or as a CUSTOM event. */
  responseSchema?: Record<string, unknown>;
  /**
   * How structured output reaches the client: `"state"` (default) merges it into the shared state
   * under `structuredOutputKey`; `"custom"` sends a CUSTOM event named `antigravity.structured_output`.
   */
  structuredOutputAs?: "state" | "custom";
  /** The state key structured output is merged under (a STATE_DELTA); default the agent id, else `"antigravity"`. */
  structuredOutputKey?: string;
  /** Automated messages the harness sends into an idle thread every `intervalMs` (after its first turn); their turns reach AG-UI as server-initiated runs. */
  triggers?: Array<{ message: string; intervalMs: number }>;
  /**
   * Bounds on the turns `triggers` start, each a model turn nobody asked for: a thread runs at most
   * `maxTurnsPerThread` (default 12) without a client run in between, then its session is retired
   * and its triggers stop until a client runs it again; the agent relays at most `maxTurnsInFlight`
   * (default 4) at once and cancels the others. Trigger turns never count as a thread's use, so a
   * thread nobody runs also retires after `sessions.idleTimeoutMs`.
   */
  triggerLimits?: { maxTurnsPerThread?: number; maxTurnsInFlight?: number };
  /** Reconnecting clients (`connect`) and server-initiated turns. */
  reconnect?: ReconnectOptions;
  /** Policies and hooks of the harness client, for advanced uses. */
  policies?: ConversationConfig["policies"];
  /**
   * The harness client's conversation hooks (`preTool`, `postTool`, `preTurn`, …), shared by every
   * thread; the agent observes the calls around them. `onQuestions` is the agent's own (questions
   * become interrupts), and `stop` cannot be given with `onStop`.
   */
  hooks?: Omit<ConversationHooks, "onQuestions">;
  /**
   * The harness's release (e.g. `0.1.18`): which protocol is spoken, and which options it has. Default:
   * ANTIGRAVITY_HARNESS_VERSION, the installed wheel, the emulator's profile, else the newest release
   * the client knows. An option the release lacks is refused with CONFIG_INVALID.
   */
  harnessVersion?: string;
  /** How the agent treats its user (harness 0.1.11+; `minimal` 0.1.16+); default `interactive` (the agent answers questions and approvals). */
  agentBehavior?: ConversationConfig["agentBehavior"];
  /** Limits the harness enforces on each thread (harness 0.1.11+; `scope` 0.1.16+); a turn that hits one ends with RUN_ERROR `BUDGET_EXCEEDED`. */
  budget?: ConversationConfig["budget"];
  /** When and how the harness compacts a thread's context (harness 0.1.17+; `summaryPrompt` 0.1.21+). */
  compaction?: ConversationConfig["compaction"];
  /** Skills the model can look up (harness 0.1.19+; `inline` 0.1.21+): directories holding a SKILL.md each, or inline ones. */
  skills?: ConversationConfig["skills"];
  /** Rule files the harness reads from the workspaces, e.g. `AGENTS.md` (harness 0.1.17+). */
  rules?: ConversationConfig["rules"];
  /** The `run_command` builtin's limits (timeout 0.1.12+, daemons 0.1.13+, sandbox 0.1.16+, execution mode 0.1.17+). */
  runCommand?: ConversationConfig["runCommand"];
  /** Whether `run_workflow` (harness 0.1.21+) waits for a workflow or runs it in the background. */
  runWorkflowExecutionMode?: ConversationConfig["runWorkflowExecutionMode"];
  /** Keep file tools inside the workspaces (harness 0.1.13+). */
  workspaceContainment?: ConversationConfig["workspaceContainment"];
  /** How deep subagents may start subagents (harness 0.1.11+; the harness's default, 1, allows none). */
  maxSubagentDepth?: ConversationConfig["maxSubagentDepth"];
  /** Which subagents the model may start, by name (harness 0.1.11+). */
  allowedSubagents?: ConversationConfig["allowedSubagents"];
  /**
   * Asked when a thread's agent is about to stop (harness 0.1.16+): answer `{ decision: "continue",
   * reason }` to make it go on within the same run (the client sees an `antigravity.continuation`
   * activity), `{ decision: "stop" }` or nothing to let it stop. At most `maxContinuations` per turn.
   */
  onStop?: (args: AgentStopArgs) => StopHookResult | void | Promise<StopHookResult | void>;
  /** The most continuations `onStop` may ask for in one turn (default 3); past it the agent stops without asking. */
  maxContinuations?: number;
  /** Told when the harness compacts a thread's context, with its summary (harness 0.1.14+). */
  onCompaction?: (args: AgentCompactionArgs) => void | Promise<void>;
  /** Bounds on turns scheduled with the `schedule` builtin (harness 0.1.13+). */
  scheduleLimits?: ScheduleLimits;
  /** Where conversations (and, by default, the thread map) persist; needed for cold resume across restarts. */
  saveDir?: string;
  /**
   * Where the thread → conversation map lives. Default: a `FileThreadStore` in `saveDir` when there
   * is one, else a `MemoryThreadStore`. A `RedisThreadStore` shares it between replicas (and adds
   * per-thread leases). A store passed here is the caller's to close.
   */
  threadStore?: ThreadStore;
  /** A pool shared with other agents, or options for the agent's own pool. */
  pool?: HarnessPool | Partial<HarnessPoolSettings>;
  /** Extra environment for the harness process (part of the pool partition key). */
  env?: Record<string, string>;
  /**
   * The threads' live sessions: `idleTimeoutMs` (default 30 min; turns the server starts are no use)
   * before an idle one closes, `parkedTimeoutMs` (2 h, never less than the idle timeout) before one
   * waiting on a human closes, `maxSessions` (100; at the cap the least recently used idle one is
   * evicted, and with none to evict a run is refused with `SESSION_LIMIT`), and
   * `maxRememberedThreads` (10 000), the `maxThreads` of the thread store the agent makes itself.
   */
  sessions?: { idleTimeoutMs?: number; parkedTimeoutMs?: number; maxSessions?: number; maxRememberedThreads?: number };
  /**
   * Keep spare sessions with their harness conversation already open, so the first run of a new
   * thread does not wait for one to start: `spares` per tool contract (default 1, at most 16),
   * opened after the first new thread of that contract and refilled in the background as threads
   * take them; a contract no new thread asks for within `idleTimeoutMs` (default 5 min) closes its
   * spares. Off by default.
   */
  prewarm?: { spares?: number; idleTimeoutMs?: number };
  /** Dispatch a frontend tool at most once per turn per (name, arguments) (default true). */
  deduplicateToolCalls?: boolean;
  /** Per-turn harness timeout (default 300 s; false: none). Time parked on a human does not count. */
  turnTimeoutMs?: number | false;
  /**
   * The harness client's waits (end of turn, halt, ping/pong, init), tuned against the emulator:
   * `ConversationConfig.timings` of `@ag-ui-antigravity/harness`, validated by the constructor
   * (CONFIG_INVALID naming the field).
   */
  harnessTimings?: ConversationConfig["timings"];
  /** Experimental human-in-the-loop options. */
  hitl?: {
    /** Offer the silent `get_app_context` / `get_shared_state` tools to the model. */
    contextTools?: boolean;
    /** Prepend a bounded summary of the run's context and state to each turn. */
    turnSummary?: boolean;
    /** New input while interrupts wait: abandon them (default) or refuse the run. */
    newInputWhileParked?: "abandon" | "refuse";
    /** How long a turn must be quiet, with something parked, before the run ends (150 ms; 0–60 000). */
    settleMs?: number;
  };
  /** Replace the advertised capabilities entirely. */
  capabilities?: AgentCapabilities;
  /**
   * Where the agent, and the harness client, pool and thread store it makes, log (pino-style, any of
   * the four levels). Default: silent, but for one `console.warn` when the harness cannot be started.
   */
  logger?: AntigravityAgentLogger;
}

const functionValue = z.custom<(...args: never[]) => unknown>((value) => typeof value === "function", { message: "must be a function" });
const objectValue = z.record(z.string(), z.unknown());
// A logger is any object with some of debug/info/warn/error: pino and class instances are not plain
// records, so `objectValue` would refuse them.
const loggerValue = z.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
  message: "must be an object with debug/info/warn/error methods",
});

/**
 * Shape checks of the options the agent owns. What is passed through to the harness client
 * (endpoint, MCP servers, subagents, policies) is validated by the client itself when the first
 * conversation opens, and surfaces as CONFIG_INVALID naming the field.
 */
export const agentOptionsSchema = z
  .object({
    agentId: z.string().min(1).optional(),
    description: z.string().optional(),
    harness: z.union([z.literal("discover"), z.literal("emulator"), z.object({ path: z.string().min(1) }).strict()]).optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    endpoint: objectValue.optional(),
    baseUrl: z.url().optional(),
    thinkingLevel: z.string().optional(),
    systemInstructions: z.unknown().optional(),
    workspaces: z.array(z.string().refine((path) => path.startsWith("/"), "workspaces are absolute paths")).optional(),
    workspaceRoot: z.string().refine((path) => path.startsWith("/"), "workspaceRoot is an absolute path").optional(),
    serverTools: z.array(z.object({ name: z.string().min(1), description: z.string(), parameters: objectValue, handler: functionValue }).loose()).optional(),
    builtinTools: z.array(z.string()).optional(),
    toolApproval: z.union([z.boolean(), z.object({ exempt: z.array(z.string()).optional() }).strict()]).optional(),
    mcpServers: z.array(objectValue).optional(),
    subagents: z.array(objectValue).optional(),
    responseSchema: objectValue.optional(),
    structuredOutputAs: z.enum(["state", "custom"]).optional(),
    structuredOutputKey: z.string().min(1).optional(),
    triggers: z.array(z.object({ message: z.string().min(1), intervalMs: z.number().int().min(10) }).strict()).optional(),
    triggerLimits: z
      .object({ maxTurnsPerThread: z.number().int().positive().optional(), maxTurnsInFlight: z.number().int().positive().optional() })
      .strict()
      .optional(),
    reconnect: z
      .object({
        onDisconnect: z.enum(["cancel", "continue"]).optional(),
        replayGraceMs: z.number().int().nonnegative().optional(),
        maxReplayEvents: z.number().int().positive().optional(),
        maxReplayBytes: z.number().int().positive().optional(),
        maxGraceBytes: z.number().int().nonnegative().optional(),
        maxThreads: z.number().int().positive().optional(),
        maxTranscriptBytes: z.number().int().positive().optional(),
        maxTotalTranscriptBytes: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    policies: z.array(objectValue).optional(),
    hooks: z.record(z.string(), functionValue).optional(),
    // The harness features' own shapes are the harness client's to check (validateConversationConfig, at construction).
    harnessVersion: z.string().regex(/^\d+\.\d+\.\d+$/, "a harness release is major.minor.patch, e.g. 0.1.18").optional(),
    agentBehavior: z.unknown().optional(),
    budget: z.unknown().optional(),
    compaction: z.unknown().optional(),
    skills: z.unknown().optional(),
    rules: z.unknown().optional(),
    runCommand: z.unknown().optional(),
    runWorkflowExecutionMode: z.unknown().optional(),
    workspaceContainment: z.unknown().optional(),
    maxSubagentDepth: z.unknown().optional(),
    allowedSubagents: z.unknown().optional(),
    onStop: functionValue.optional(),
    maxContinuations: z.number().int().min(0).max(100).optional(),
    onCompaction: functionValue.optional(),
    scheduleLimits: z
      .object({ maxPending: z.number().int().min(0).max(1_000).optional(), maxDelayMs: z.number().int().min(0).optional() })
      .strict()
      .optional(),
    saveDir: z.string().refine((path) => path.startsWith("/"), "saveDir is an absolute path").optional(),
    threadStore: z
      .custom<ThreadStore>(
        (value) => typeof value === "object" && value !== null && ["get", "set", "delete", "stats", "close"].every((method) => typeof (value as Record<string, unknown>)[method] === "function"),
        { message: "must be a thread store (get, set, delete, stats, close)" },
      )
      .optional(),
    pool: z.unknown().optional(),
    env: z.record(z.string(), z.string()).optional(),
    sessions: z
      .object({
        idleTimeoutMs: z.number().int().positive().optional(),
        parkedTimeoutMs: z.number().int().positive().optional(),
        maxSessions: z.number().int().positive().optional(),
        maxRememberedThreads: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    prewarm: z
      .object({
        spares: z.number().int().min(1).max(16).optional(),
        idleTimeoutMs: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    deduplicateToolCalls: z.boolean().optional(),
    turnTimeoutMs: z.union([z.number().int().positive(), z.literal(false)]).optional(),
    harnessTimings: objectValue.optional(),
    hitl: z
      .object({
        contextTools: z.boolean().optional(),
        turnSummary: z.boolean().optional(),
        newInputWhileParked: z.enum(["abandon", "refuse"]).optional(),
        settleMs: z.number().int().min(0).max(60_000).optional(),
      })
      .strict()
      .optional(),
    capabilities: objectValue.optional(),
    logger: loggerValue.optional(),
  })
  .strict()
  .superRefine((options, context) => {
    if (options.endpoint !== undefined && options.baseUrl !== undefined) {
      context.addIssue({ code: "custom", path: ["baseUrl"], message: "endpoint and baseUrl are mutually exclusive" });
    }
    if (options.onStop !== undefined && options.hooks?.["stop"] !== undefined) {
      context.addIssue({ code: "custom", path: ["onStop"], message: "onStop and hooks.stop both answer the STOP hook; give one" });
    }
    const names = new Set<string>();
    for (const [index, tool] of (options.serverTools ?? []).entries()) {
      if (names.has(tool.name)) context.addIssue({ code: "custom", path: ["serverTools", index, "name"], message: `duplicate server tool ${tool.name}` });
      names.add(tool.name);
    }
  });
