import { z } from "zod/v4";

/*
 * Conversation options for what the harness learned after 0.1.10. Each needs a harness release that
 * has it; `openConversation` refuses one the harness lacks with CONFIG_INVALID naming the option and
 * the first release that has it, and never sends it (a harness refuses an init it cannot parse).
 */

const positiveInteger = z.number().int().positive();

/** An inline skill (harness 0.1.21): instructions the model can look up by name, without a directory. */
export interface InlineSkill {
  /** The name the model looks the skill up by. */
  name: string;
  /** When the skill applies, for the model to decide whether to look it up. */
  description: string;
  /** The skill's instructions (what a SKILL.md holds). */
  content: string;
  /** Tools the skill may use. */
  allowedTools?: string[] | undefined;
  /** Free-form key/value pairs sent to the harness with the skill, unread by this client. */
  metadata?: Record<string, string> | undefined;
}

const inlineSkillSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().min(1),
    content: z.string(),
    allowedTools: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const harnessFeatureOptionsSchema = z.object({
  agentBehavior: z.enum(["autonomous", "interactive", "minimal"]).optional(),
  budget: z
    .object({
      maxModelCalls: positiveInteger.optional(),
      maxToolCalls: positiveInteger.optional(),
      maxInputTokens: positiveInteger.optional(),
      maxOutputTokens: positiveInteger.optional(),
      maxTotalTokens: positiveInteger.optional(),
      scope: z.enum(["lifetime", "forward-looking"]).optional(),
    })
    .strict()
    .optional(),
  compaction: z
    .object({
      tokenThreshold: positiveInteger.optional(),
      checkpointIntervalTokens: positiveInteger.optional(),
      maxContextTokens: positiveInteger.optional(),
      summaryPrompt: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
  skills: z
    .object({
      enabled: z.boolean().optional(),
      directories: z.array(z.string().min(1)).optional(),
      inline: z.array(inlineSkillSchema).optional(),
    })
    .strict()
    .optional(),
  rules: z.array(z.string().min(1)).optional(),
  runCommand: z
    .object({
      maxTimeoutMs: positiveInteger.optional(),
      daemons: z.boolean().optional(),
      sandbox: z.boolean().optional(),
      executionMode: z.enum(["sync", "async"]).optional(),
    })
    .strict()
    .optional(),
  runWorkflowExecutionMode: z.enum(["sync", "async"]).optional(),
  workspaceContainment: z.boolean().optional(),
  autoPolicy: z.object({ model: z.string().min(1).optional() }).strict().optional(),
  maxSubagentDepth: positiveInteger.optional(),
  allowedSubagents: z.array(z.string().min(1)).optional(),
});

/** `ConversationConfig` options for features of harness releases after 0.1.10 (docs/protocol.md, "Versions"). */
export interface HarnessFeatureOptions {
  /**
   * How the agent treats its user (0.1.11+): `interactive` may ask questions and wait for approvals,
   * `autonomous` works alone ("nobody will answer"), `minimal` (0.1.16+) does the least. Default:
   * `interactive` when `hooks.onQuestions` or `hooks.onConfirmation` is set (someone answers),
   * otherwise the harness's own default (autonomous).
   */
  agentBehavior?: "autonomous" | "interactive" | "minimal" | undefined;
  /** Limits the harness enforces (0.1.11+; `scope` 0.1.16+); a turn that hits one fails with BUDGET_EXCEEDED. */
  budget?:
    | {
        maxModelCalls?: number | undefined;
        maxToolCalls?: number | undefined;
        maxInputTokens?: number | undefined;
        maxOutputTokens?: number | undefined;
        maxTotalTokens?: number | undefined;
        /** `lifetime`: the whole conversation; `forward-looking`: from this (resumed) session on. */
        scope?: "lifetime" | "forward-looking" | undefined;
      }
    | undefined;
  /** When and how the harness compacts the context (0.1.17+; `summaryPrompt` 0.1.21+). */
  compaction?:
    | {
        tokenThreshold?: number | undefined;
        checkpointIntervalTokens?: number | undefined;
        maxContextTokens?: number | undefined;
        summaryPrompt?: string | undefined;
      }
    | undefined;
  /** Skills the model can look up (0.1.19+; `inline` 0.1.21+): directories holding a SKILL.md each. */
  skills?: { enabled?: boolean | undefined; directories?: string[] | undefined; inline?: InlineSkill[] | undefined } | undefined;
  /** Rule file names the harness reads from the workspaces, e.g. `AGENTS.md` (0.1.17+). */
  rules?: string[] | undefined;
  /** The `run_command` builtin's limits (timeout 0.1.12+, daemons 0.1.13+, sandbox 0.1.16+, execution mode 0.1.17+). */
  runCommand?:
    | {
        maxTimeoutMs?: number | undefined;
        daemons?: boolean | undefined;
        sandbox?: boolean | undefined;
        executionMode?: "sync" | "async" | undefined;
      }
    | undefined;
  /** Whether `run_workflow` (0.1.21+) waits for a workflow or runs it in the background. */
  runWorkflowExecutionMode?: "sync" | "async" | undefined;
  /** Keep file tools inside the workspaces (true) or not (false), whatever the harness's default (0.1.13+). */
  workspaceContainment?: boolean | undefined;
  /** A harness-side model judges the tool calls no policy decides (0.1.18+). */
  autoPolicy?: { model?: string | undefined } | undefined;
  /** How deep subagents may start subagents (0.1.11+; the harness's default is 1: they may not). */
  maxSubagentDepth?: number | undefined;
  /** Which subagents the model may start, by name (0.1.11+). */
  allowedSubagents?: string[] | undefined;
}
