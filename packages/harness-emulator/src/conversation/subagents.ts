import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { closeOpenStep } from "./model-steps.js";
import { trajectoryRun, type ScriptedTurn, type StepBase, type TrajectoryRun } from "./scripted-turn.js";
import { gateToolCall } from "./tool-gate.js";
import { postTool, type HookedCall } from "./tool-hooks.js";
import { TurnAbandoned, TurnTermination } from "./turn-termination.js";

export type SubagentAction = Extract<ScenarioAction, { type: "subagent-run" }>;

/** Plays a trajectory's actions (the turn runner's own loop, so a subagent runs any action). */
export type ActionPlayer = (run: TrajectoryRun, actions: readonly ScenarioAction[]) => Promise<void>;

/** A subagent whose call step and trajectory have started. */
interface StartedSubagent {
  action: SubagentAction;
  call: HookedCall;
  /** The identity of its `invokeSubagent` step on the parent trajectory. */
  base: StepBase;
  run: TrajectoryRun;
}

/**
 * Runs subagents: each call's step and trajectory first, then the trajectories (at once when
 * there are several, the later ones started first: their steps interleave), then each call settles
 * in order. Meanwhile the parent waits: STATE_WAITING_FOR_SUBAGENTS from 0.1.21,
 * STATE_WAITING_FOR_TASKS before. From 0.1.11 every subagent update names its parent and depth.
 */
export async function runSubagents(turn: ScriptedTurn, run: TrajectoryRun, actions: readonly SubagentAction[], play: ActionPlayer): Promise<void> {
  const started: StartedSubagent[] = [];
  for (const action of actions) {
    const subagent = await beginSubagent(turn, run, action);
    if (subagent !== undefined) started.push(subagent);
  }
  if (started.length === 0) return;
  turn.sendRunState(run, turn.context.profile.has("waitingForSubagents") ? "STATE_WAITING_FOR_SUBAGENTS" : "STATE_WAITING_FOR_TASKS");
  const errors = new Map<StartedSubagent, string | undefined>();
  await Promise.all(
    [...started].reverse().map(async (subagent) => {
      errors.set(subagent, await playSubagent(turn, subagent, play));
    }),
  );
  turn.sendRunState(run, "STATE_RUNNING");
  for (const subagent of started) await endSubagent(turn, subagent, errors.get(subagent));
}

/**
 * The subagent-run actions to run together from `index`: consecutive ones when the knob runs all
 * subagents at once, or those marked `parallel`; none when the action there is another kind.
 */
export function subagentRunAt(actions: readonly ScenarioAction[], index: number, allParallel: boolean): SubagentAction[] {
  const first = actions[index];
  if (first?.type !== "subagent-run" || !(allParallel || first.parallel === true)) return [];
  const together: SubagentAction[] = [];
  for (let next = index; next < actions.length; next += 1) {
    const action = actions[next] as ScenarioAction;
    if (action.type !== "subagent-run" || !(allParallel || action.parallel === true)) break;
    together.push(action);
  }
  return together;
}

/**
 * Why this run may not start that subagent, or undefined when it may. Up to 0.1.10 only the main
 * agent starts subagents; from 0.1.11 a subagent may too while its depth is under
 * `maxNestingDepth` (default 1: no nesting), and `allowedSubagents` limits the names.
 */
function refusal(turn: ScriptedTurn, run: TrajectoryRun, action: SubagentAction): string | undefined {
  if (!turn.builtinEnabledFor(run, "invoke_subagent")) return 'Tool "invoke_subagent" is not available';
  const config = turn.context.config.config.harnessSideTools?.subagents;
  if (!turn.context.profile.has("subagentLinks")) return run.isMain ? undefined : 'Tool "invoke_subagent" is not available';
  const maxDepth = Number(config?.maxNestingDepth ?? 1) || 1;
  if (run.depth >= maxDepth) return `Subagents may nest at most ${maxDepth} deep`;
  const allowed = config?.allowedSubagents ?? [];
  if (allowed.length > 0 && !allowed.includes(action.name ?? "")) return `Subagent "${action.name ?? ""}" is not allowed`;
  return undefined;
}

async function beginSubagent(turn: ScriptedTurn, run: TrajectoryRun, action: SubagentAction): Promise<StartedSubagent | undefined> {
  const context = turn.context;
  const refused = refusal(turn, run, action);
  if (refused !== undefined) {
    turn.modelMistake(run, refused);
    return undefined;
  }
  const callId = context.ids.requestId("call");
  const argumentsJson = JSON.stringify(action.name === undefined ? {} : { name: action.name });
  const base = turn.toolStepBase(run);
  const call: HookedCall = { toolName: "invoke_subagent", callId, trajectoryId: base.trajectoryId, stepIndex: base.stepIndex };
  const gate = await gateToolCall(context, { ...call, argumentsJson, signal: turn.signal });
  if (gate.kind === "deny") {
    turn.publishDenied({ ...base, text: "Invoking subagent", invokeSubagent: {} }, gate.reason);
    turn.setToolResult(`Error: ${gate.reason}`);
    return undefined;
  }
  context.recorder.publish({ ...base, state: "STATE_ACTIVE", text: "Invoking subagent", invokeSubagent: {} });
  const subagent = trajectoryRun(context.ids.hexId(), { isMain: false, subagentName: action.name, parent: run });
  turn.sendRunState(subagent, "STATE_RUNNING");
  return { action, call, base, run: subagent };
}

/** Plays a subagent's trajectory to its end; returns its error, if it failed. */
async function playSubagent(turn: ScriptedTurn, subagent: StartedSubagent, play: ActionPlayer): Promise<string | undefined> {
  let subagentError = subagent.action.error;
  try {
    await play(subagent.run, subagent.action.actions);
    await closeOpenStep(turn, subagent.run);
  } catch (error) {
    if (turn.signal.aborted || error instanceof TurnAbandoned) throw error;
    if (error instanceof TurnTermination && error.ending.stopReason !== undefined) {
      // A budget or the quota stops every trajectory of the conversation, this one first.
      turn.sendRunState(subagent.run, "STATE_FULLY_IDLE", error.ending);
      throw error;
    }
    subagentError = error instanceof TurnTermination ? error.trajectoryError : "Subagent failure";
  }
  turn.sendRunState(subagent.run, "STATE_FULLY_IDLE", subagentError === undefined ? {} : { error: subagentError, errorCode: "SUBAGENT_FAILED" });
  return subagentError;
}

async function endSubagent(turn: ScriptedTurn, subagent: StartedSubagent, subagentError: string | undefined): Promise<void> {
  turn.context.recorder.publish({ ...subagent.base, state: "STATE_DONE", text: "Invoking subagent", invokeSubagent: {} });
  // A subagent reports both fields, its last answer and its error, whichever way it ended.
  await postTool(turn.context, subagent.call, { result: subagent.run.lastText, error: subagentError ?? "" }, turn.signal);
  turn.sendUsageUpdate();
  turn.setToolResult(subagentError === undefined ? subagent.run.lastText : `Error: ${subagentError}`);
}
