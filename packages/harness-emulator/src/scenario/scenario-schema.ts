import { z } from "zod/v4";

const streamOptions = {
  /** Characters per delta; defaults to the ANTIGRAVITY_EMULATOR_CHUNK_SIZE knob. */
  chunkSize: z.number().int().positive().optional(),
  /** Delay before each delta in ms; defaults to the ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS knob. */
  delayMs: z.number().nonnegative().optional(),
};

const questionSchema = z.object({
  question: z.string(),
  choices: z.array(z.string()).default([]),
  isMultiSelect: z.boolean().optional(),
});

/** One thing the scripted model does. Kinds follow the house `<noun>-<verb>` naming. */
export type ScenarioAction =
  | { type: "thinking-emit"; text: string; chunkSize?: number | undefined; delayMs?: number | undefined }
  | { type: "text-emit"; text: string; chunkSize?: number | undefined; delayMs?: number | undefined }
  | {
      type: "tool-call";
      tool: string;
      arguments?: Record<string, unknown> | "schema" | undefined;
      confirm?: boolean | undefined;
      backgroundAfterMs?: number | undefined;
    }
  | {
      type: "mcp-call";
      tool: string;
      server?: string | undefined;
      arguments?: Record<string, unknown> | "schema" | undefined;
      confirm?: boolean | undefined;
    }
  | {
      type: "question-ask";
      questions: { question: string; choices: string[]; isMultiSelect?: boolean | undefined }[];
      choicesFromText?: boolean | undefined;
    }
  | { type: "error-emit"; httpCode: number; message: string; endTurn?: boolean | undefined; trajectoryError?: string | undefined; errorCode?: string | undefined }
  | { type: "turn-fail"; error: string; errorCode?: string | undefined }
  | { type: "subagent-run"; name?: string | undefined; actions: ScenarioAction[]; error?: string | undefined; parallel?: boolean | undefined }
  | { type: "output-finish"; output?: unknown }
  | { type: "compaction-emit"; text?: string | undefined; summary?: string | undefined }
  | { type: "skill-lookup"; operation: "list" | "lookup" | "resources"; skills?: string[] | undefined }
  | { type: "schedule-create"; prompt: string; afterMs: number }
  | { type: "task-manage"; task: string; status: string }
  | { type: "workflow-run"; scriptPath?: string | undefined; script?: string | undefined; description?: string | undefined }
  | { type: "quota-exhaust"; message?: string | undefined }
  | { type: "time-wait"; ms: number }
  | { type: "process-exit"; code: number }
  | { type: "process-kill" }
  | { type: "turn-stall" }
  | { type: "socket-close"; code?: number | undefined; reason?: string | undefined }
  | { type: "json-malform"; text?: string | undefined }
  | { type: "field-unknown"; variant: "field" | "enum" | "event" };

/** Validates one action of a rule (`ScenarioAction`); lazy, because a `subagent-run` action holds actions of its own. */
export const scenarioActionSchema: z.ZodType<ScenarioAction> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("thinking-emit"), text: z.string(), ...streamOptions }),
    z.object({ type: z.literal("text-emit"), text: z.string(), ...streamOptions }),
    z.object({
      type: z.literal("tool-call"),
      /** Tool name (custom or builtin wire name); templates such as `{{mentionedTool}}` allowed. */
      tool: z.string(),
      /** Literal arguments (strings are templated), or "schema" to derive them from the tool's JSON Schema. */
      arguments: z.union([z.record(z.string(), z.unknown()), z.literal("schema")]).optional(),
      /** Ask the client for a tool confirmation before running it. */
      confirm: z.boolean().optional(),
      /** Custom tools only: move the call to the background when no result came within this many ms. */
      backgroundAfterMs: z.number().positive().optional(),
    }),
    z.object({
      type: z.literal("mcp-call"),
      /** MCP tool name as the server lists it; templates such as `{{mentionedMcpTool}}` allowed. */
      tool: z.string(),
      /** The server that offers it; default the first loaded server that has a tool of that name. */
      server: z.string().optional(),
      /** Literal arguments (strings are templated), or "schema" to derive them from the tool's input schema. */
      arguments: z.union([z.record(z.string(), z.unknown()), z.literal("schema")]).optional(),
      /** Ask the client for a tool confirmation before calling it. */
      confirm: z.boolean().optional(),
    }),
    z.object({ type: z.literal("question-ask"), questions: z.array(questionSchema).min(1), choicesFromText: z.boolean().optional() }),
    z.object({
      type: z.literal("error-emit"),
      httpCode: z.number().int().nonnegative(),
      message: z.string(),
      /** End the turn after the error step (FULLY_IDLE + error); default true. */
      endTurn: z.boolean().optional(),
      /** The trajectory error text; default `executor run failed: <message>`. */
      trajectoryError: z.string().optional(),
      /** The trajectory's `errorCode` (0.1.20); default `HTTP_<httpCode>`. */
      errorCode: z.string().optional(),
    }),
    z.object({ type: z.literal("turn-fail"), error: z.string(), errorCode: z.string().optional() }),
    z.object({
      type: z.literal("subagent-run"),
      name: z.string().optional(),
      actions: z.array(scenarioActionSchema),
      error: z.string().optional(),
      /** Run at once with the `parallel` subagent-run actions right after it. */
      parallel: z.boolean().optional(),
    }),
    z.object({ type: z.literal("output-finish"), output: z.unknown().optional() }),
    z.object({
      type: z.literal("compaction-emit"),
      text: z.string().optional(),
      /** What the ON_COMPACTION hook (0.1.14) reports; default a summary of the earlier user messages. */
      summary: z.string().optional(),
    }),
    z.object({
      type: z.literal("skill-lookup"),
      /** LIST_SKILLS, LOOKUP_SKILLS or GET_SKILL_RESOURCES (0.1.19). */
      operation: z.enum(["list", "lookup", "resources"]),
      /** The skills asked for (templated; `{{mentionedSkill}}` is the one the message names); not for `list`. */
      skills: z.array(z.string()).optional(),
    }),
    z.object({
      type: z.literal("schedule-create"),
      /** What the later, harness-initiated turn is about (templated). */
      prompt: z.string(),
      /** When that turn starts, from now. */
      afterMs: z.number().nonnegative(),
    }),
    z.object({ type: z.literal("task-manage"), task: z.string(), status: z.string() }),
    z.object({
      type: z.literal("workflow-run"),
      /** A script file in the first workspace, run with /bin/sh. */
      scriptPath: z.string().optional(),
      /** Or the script's text itself. */
      script: z.string().optional(),
      description: z.string().optional(),
    }),
    z.object({ type: z.literal("quota-exhaust"), message: z.string().optional() }),
    z.object({ type: z.literal("time-wait"), ms: z.number().nonnegative() }),
    z.object({ type: z.literal("process-exit"), code: z.number().int().min(0).max(255) }),
    z.object({ type: z.literal("process-kill") }),
    z.object({ type: z.literal("turn-stall") }),
    z.object({ type: z.literal("socket-close"), code: z.number().int().optional(), reason: z.string().optional() }),
    z.object({ type: z.literal("json-malform"), text: z.string().optional() }),
    z.object({ type: z.literal("field-unknown"), variant: z.enum(["field", "enum", "event"]) }),
  ]),
);

/** What a rule looks at; every condition given must hold. */
export const ruleConditionSchema = z.object({
  /** Regular expression tested against the user's text (all text parts joined). */
  text: z.string().optional(),
  /** Flags for `text` and `lastToolResult`; default "i". */
  flags: z.string().optional(),
  /** true: only automated triggers; false: only user input. */
  trigger: z.boolean().optional(),
  /** The text names an available custom tool by its exact name (sets `{{mentionedTool}}`). */
  mentionsTool: z.boolean().optional(),
  /** The text names a tool of a loaded MCP server by its exact name (sets `{{mentionedMcpTool}}` and `{{mentionedMcpServer}}`). */
  mentionsMcpTool: z.boolean().optional(),
  /** A custom tool with this name is declared. */
  toolAvailable: z.string().optional(),
  /** This builtin (wire name, e.g. `list_directory`, `ask_question`, `invoke_subagent`) is enabled. */
  builtinEnabled: z.string().optional(),
  /** Regular expression tested against the last tool result of the conversation. */
  lastToolResult: z.string().optional(),
  /** The agent behaves this way (0.1.11; earlier releases always ask, as INTERACTIVE). */
  agentBehavior: z.enum(["AUTONOMOUS", "INTERACTIVE", "MINIMAL"]).optional(),
  /** true: only turns the harness started itself for a `schedule-create`; false: never those. */
  scheduled: z.boolean().optional(),
  /** true: only the agent going on after a STOP hook answered CONTINUE (the text is the hook's reason). */
  continuation: z.boolean().optional(),
  /** The text names a skill of the conversation by its exact name (sets `{{mentionedSkill}}`). */
  mentionsSkill: z.boolean().optional(),
});
/** When a scenario rule applies: what the turn's text, trigger, tools, skills or last tool result must match. */
export type RuleCondition = z.infer<typeof ruleConditionSchema>;

/** Validates one rule (`ScenarioRule`): an optional `name`, `when` (default `{}`, which matches every turn) and its `actions`. */
export const scenarioRuleSchema = z.object({
  name: z.string().optional(),
  when: ruleConditionSchema.default({}),
  actions: z.array(scenarioActionSchema),
});
/** One rule of a scenario: when it applies, and the actions the emulated harness plays then. */
export type ScenarioRule = z.infer<typeof scenarioRuleSchema>;

/** Validates a whole scenario file (`Scenario`), as `parseScenario` and `loadScenario` do; unknown keys are dropped. */
export const scenarioSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  quirks: z.object({ triggerCrashOnEmpty: z.boolean().optional() }).optional(),
  /** First matching rule wins. */
  rules: z.array(scenarioRuleSchema),
  /**
   * Another scenario (a built-in name such as `demo`, or a path relative to this file) whose rules
   * are tried after these: a scenario scripts its own cases and reuses that one's for the rest.
   */
  fallback: z.string().min(1).optional(),
});
/** A scripted harness: the rules the emulator plays turns from (first match wins), and its fallback scenario. */
export type Scenario = z.infer<typeof scenarioSchema>;
