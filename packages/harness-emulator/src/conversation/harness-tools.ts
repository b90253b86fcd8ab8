import { EmulatorError } from "../errors/emulator-error.js";
import { renderTemplate } from "../scenario/template.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { runShell } from "../tools/builtin-tools.js";
import type { StepUpdate } from "../wire/output-messages.js";
import type { ScriptedTurn, TrajectoryRun } from "./scripted-turn.js";
import { gateToolCall } from "./tool-gate.js";
import { postToolSucceeded, reportToolFailure, type HookedCall } from "./tool-hooks.js";
import { TurnTermination } from "./turn-termination.js";
import type { HarnessFeature } from "../version/version-profile.js";

/*
 * The tools the harness added after 0.1.10 and runs itself: skill lookups (0.1.19), schedule and
 * manage_task (0.1.14), run_workflow (0.1.21); and the quota running out. Each exists only in the
 * releases that have it: in an older one the scripted model's call is a mistake the harness reports.
 */

type Action<Kind extends ScenarioAction["type"]> = Extract<ScenarioAction, { type: Kind }>;

/** What a harness tool settles to: the fields of its DONE step, what POST_TOOL and the model read. */
interface Settled {
  fields: Partial<StepUpdate>;
  hookResult: string;
  modelResult: string;
}

/**
 * A harness-side tool call as the builtins make one: an ACTIVE step, the policy and PRE_TOOL gate,
 * the work, then DONE and POST_TOOL (or ERROR and the failure hooks).
 */
async function runHarnessTool(
  turn: ScriptedTurn,
  run: TrajectoryRun,
  tool: {
    name: string;
    feature: HarnessFeature;
    /** Whether a `harnessSideTools` toggle switches it (skills have none: `skillsConfig.enabled` does). */
    toggled?: boolean;
    args: Record<string, unknown>;
    active: Partial<StepUpdate>;
    /** Does the work; `progress` re-sends the ACTIVE step with results so far. */
    settle: (progress: (fields: Partial<StepUpdate>) => void) => Promise<Settled>;
  },
): Promise<void> {
  const context = turn.context;
  if (!context.profile.has(tool.feature) || (tool.toggled !== false && !turn.builtinEnabledFor(run, tool.name))) {
    turn.modelMistake(run, `Tool "${tool.name}" is not available`);
    return;
  }
  context.budget.beforeToolCall();
  const base = turn.toolStepBase(run);
  const call: HookedCall = { toolName: tool.name, callId: context.ids.requestId("call"), trajectoryId: base.trajectoryId, stepIndex: base.stepIndex };
  context.recorder.publish({ ...base, state: "STATE_ACTIVE", ...tool.active });
  const gate = await gateToolCall(context, { ...call, argumentsJson: JSON.stringify(tool.args), signal: turn.signal });
  if (gate.kind === "deny") {
    turn.publishDenied({ ...base, ...tool.active }, gate.reason);
    turn.setToolResult(`Error: ${gate.reason}`);
    return;
  }
  let settled: Settled;
  try {
    settled = await tool.settle((fields) => context.recorder.publish({ ...base, state: "STATE_ACTIVE", ...tool.active, ...fields }));
  } catch (error) {
    if (turn.signal.aborted) throw error;
    const message = EmulatorError.isInstance(error) ? error.message : (error as Error).message;
    context.recorder.publish({ ...base, ...tool.active, state: "STATE_ERROR", errorMessage: message });
    turn.setToolResult(`Error: ${await reportToolFailure(context, call, message, turn.signal)}`);
    return;
  }
  turn.publishTerminal({ ...base, state: "STATE_DONE", ...settled.fields });
  await postToolSucceeded(context, call, settled.hookResult, turn.signal);
  turn.setToolResult(settled.modelResult);
}

const skillOperations = { list: "OPERATION_LIST_SKILLS", lookup: "OPERATION_LOOKUP_SKILLS", resources: "OPERATION_GET_SKILL_RESOURCES" } as const;

/** A `skill-lookup` action: a `skillLookup` step (0.1.19) over the skills of the conversation's directories. */
export function lookUpSkills(turn: ScriptedTurn, run: TrajectoryRun, action: Action<"skill-lookup">): Promise<void> {
  const catalogue = turn.context.skills;
  const requested = action.operation === "list" ? [] : (action.skills ?? ["{{mentionedSkill}}"]).map((name) => renderTemplate(name, turn.variables)).filter((name) => name !== "");
  const skillLookup = { operation: skillOperations[action.operation], requestedSkillNames: requested };
  return runHarnessTool(turn, run, {
    name: "skills",
    feature: "skills",
    toggled: false,
    args: { operation: action.operation, skill_names: requested },
    active: { skillLookup },
    settle: async () => {
      if (action.operation === "list") {
        const names = catalogue.skills.map((skill) => skill.name);
        const listing = catalogue.skills.map((skill) => `${skill.name}: ${skill.description}`).join("\n") || "(no skills)";
        return { fields: { skillLookup: { ...skillLookup, resolvedSkillNames: names } }, hookResult: listing, modelResult: listing };
      }
      const found = requested.flatMap((name) => {
        const skill = catalogue.find(name);
        return skill === undefined ? [] : [skill];
      });
      const missing = requested.filter((name) => catalogue.find(name) === undefined);
      const resolved = { ...skillLookup, resolvedSkillNames: found.map((skill) => skill.name) };
      const fields: Partial<StepUpdate> = { skillLookup: missing.length === 0 ? resolved : { ...resolved, errorMessage: `skill not found: ${missing.join(", ")}` } };
      const text =
        action.operation === "lookup"
          ? found.map((skill) => `# ${skill.name}\n${skill.body}`).join("\n\n")
          : found.map((skill) => `${skill.name}: ${skill.resources.join(", ") || "(no resources)"}`).join("\n");
      return { fields, hookResult: text, modelResult: missing.length === 0 ? text : `Error: skill not found: ${missing.join(", ")}` };
    },
  });
}

/**
 * A `schedule-create` action: the schedule tool (0.1.14) asks the harness to start a turn of its
 * own later, with the prompt as its input; the tool's step has no action field of its own.
 */
export function scheduleTurn(turn: ScriptedTurn, run: TrajectoryRun, action: Action<"schedule-create">): Promise<void> {
  const prompt = renderTemplate(action.prompt, turn.variables);
  const text = `Scheduled "${prompt}" in ${action.afterMs} ms`;
  return runHarnessTool(turn, run, {
    name: "schedule",
    feature: "taskTools",
    args: { prompt, delay_ms: action.afterMs },
    active: { text: `Scheduling "${prompt}"` },
    settle: async () => {
      turn.context.scheduleTurn(action.afterMs, prompt);
      return { fields: { text }, hookResult: text, modelResult: text };
    },
  });
}

/** A `task-manage` action: the manage_task tool (0.1.14) updates the agent's task list. */
export function manageTask(turn: ScriptedTurn, run: TrajectoryRun, action: Action<"task-manage">): Promise<void> {
  const task = renderTemplate(action.task, turn.variables);
  const status = renderTemplate(action.status, turn.variables);
  const text = `Task "${task}": ${status}`;
  return runHarnessTool(turn, run, {
    name: "manage_task",
    feature: "taskTools",
    args: { task, status },
    active: { text: `Updating task "${task}"` },
    settle: async () => ({ fields: { text }, hookResult: text, modelResult: text }),
  });
}

/**
 * A `workflow-run` action: the run_workflow tool (0.1.21) runs a script for real with /bin/sh in
 * the first workspace (a `scriptPath` must lie inside the workspaces), and its step carries the output.
 */
export function runWorkflow(turn: ScriptedTurn, run: TrajectoryRun, action: Action<"workflow-run">): Promise<void> {
  const context = turn.context;
  const workspace = context.config.workspaces[0] ?? process.cwd();
  const scriptPath = action.scriptPath === undefined ? undefined : renderTemplate(action.scriptPath, turn.variables);
  const script = action.script === undefined ? undefined : renderTemplate(action.script, turn.variables);
  const runWorkflow = {
    ...(scriptPath === undefined ? {} : { scriptPath }),
    ...(action.description === undefined ? {} : { description: action.description }),
    ...(script === undefined ? {} : { script }),
  };
  return runHarnessTool(turn, run, {
    name: "run_workflow",
    feature: "runWorkflow",
    args: { script_path: scriptPath ?? "", script: script ?? "" },
    active: { runWorkflow },
    settle: async (progress) => {
      const commandLine = script ?? (scriptPath === undefined ? undefined : `/bin/sh ${JSON.stringify(context.guard.check(scriptPath))}`);
      if (commandLine === undefined) throw new EmulatorError("TOOL_FAILED", "run_workflow: no script or scriptPath");
      const { exitCode, output } = await runShell({
        commandLine,
        cwd: workspace,
        env: context.commandEnv,
        signal: turn.signal,
        // The workflow's output so far, on its ACTIVE step while it runs [inferred].
        onProgress: (soFar) => progress({ runWorkflow: { ...runWorkflow, output: soFar } }),
      });
      if (exitCode !== 0) throw new EmulatorError("TOOL_FAILED", `workflow exited with code ${exitCode}: ${output}`);
      return { fields: { runWorkflow: { ...runWorkflow, output } }, hookResult: output, modelResult: output };
    },
  });
}

/**
 * A `quota-exhaust` action: the model API says the quota ran out (HTTP 429). The harness reports the
 * error step and ends the turn with the error and, from 0.1.11, `STOP_REASON_QUOTA_EXHAUSTED`.
 */
export function exhaustQuota(turn: ScriptedTurn, run: TrajectoryRun, action: Action<"quota-exhaust">): never {
  const message = action.message ?? "Resource exhausted: quota exceeded for the model";
  turn.publishNewStep(run, { state: "STATE_ERROR", source: "SOURCE_SYSTEM", error: { errorMessage: message, httpCode: 429 } });
  throw new TurnTermination(`executor run failed: ${message}`, { stopReason: "STOP_REASON_QUOTA_EXHAUSTED", errorCode: "QUOTA_EXHAUSTED" });
}
