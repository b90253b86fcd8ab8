import { AntigravityAgent, type AgentStopArgs } from "@ag-ui-antigravity/agent";
import { skillsDirectory } from "../package-paths.js";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/** The STOP hook's policy: a report is not done until it ends with a summary; the agent is sent back once to add one. */
export function reportNeedsSummary(args: AgentStopArgs): { decision: "continue"; reason: string } | { decision: "stop" } {
  const isReport = /\breport\b/i.test(args.responseText);
  const hasSummary = /\bsummary\b/i.test(args.responseText);
  return isReport && !hasSummary && args.continuationCount === 0 ? { decision: "continue", reason: "add a one-line summary to the report" } : { decision: "stop" };
}

/**
 * autonomous_work: what the harness does on its own, shown through AG-UI. The agent keeps a task
 * list (`manage_task`), schedules a later turn of its own (`schedule`, reaching the page through its
 * `stayOpen` connect stream), looks skills up, hands work to nested subagents, is sent back by a
 * STOP hook when a report lacks its summary, and stops at its budget.
 *
 * On the emulator it may also run its scenario's fixed commands and workflow (allowed by policy); a
 * model could ask for any command, so with Gemini it gets neither.
 */
export function createAutonomousWorkAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  const scripted = environment.harness.kind === "emulator";
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "autonomous_work", "An agent that plans, schedules, delegates and keeps going within its budget."),
    systemInstructions:
      "You work through the user's requests on your own. Keep a task list with manage_task as you plan and finish work. " +
      "When asked to remind the user, schedule a turn with the schedule tool. Look up a skill before following it. " +
      "Delegate research to the researcher subagent. End every report with a one-line summary.",
    builtinTools: ["manage_task", "schedule", "start_subagent", "list_directory", ...(scripted ? (["run_command", "run_workflow"] as const) : [])],
    ...(scripted ? { policies: [{ tool: "run_command", decision: "allow" as const }, { tool: "run_workflow", decision: "allow" as const }] } : {}),
    skills: { directories: [skillsDirectory()] },
    subagents: [
      { name: "researcher", description: "Looks things up for the main agent", builtinTools: ["start_subagent"] },
      { name: "checker", description: "Checks what the researcher found" },
    ],
    maxSubagentDepth: 2,
    // A scripted "big job" spends more; with Gemini, room for real work.
    budget: { maxToolCalls: scripted ? 12 : 60 },
    onStop: reportNeedsSummary,
    maxContinuations: 2,
    onCompaction: ({ threadId, summary }) => environment.logger.info?.({ threadId, summaryCharacters: summary.length }, "a thread's context was compacted"),
    scheduleLimits: { maxPending: 3, maxDelayMs: 10 * 60_000 },
    // The page follows its thread (stayOpen), so a scheduled turn reaches it; a reload finishes the reply.
    reconnect: { onDisconnect: "continue" },
  });
}
