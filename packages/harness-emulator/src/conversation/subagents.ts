import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { closeOpenStep } from "./model-steps.js";
import { trajectoryRun, type ScriptedTurn, type StepBase, type TrajectoryRun } from "./scripted-turn.js";
import { gateToolCall } from "./tool-gate.js";
import { postTool } from "./tool-hooks.js";
import { TurnAbandoned, TurnTermination } from "./turn-termination.js";

export type SubagentAction = Extract<ScenarioAction, { type: "subagent-run" }>;

/** Plays a trajectory's actions (the turn runner's own loop, so a subagent runs any action). */
export type ActionPlayer = (run: TrajectoryRun, actions: readonly ScenarioAction[]) => Promise<void>;

/** A subagent whose call step and trajectory have started. */
interface StartedSubagent {
  action: SubagentAction;
  callId: string;
  /** The identity of its `invokeSubagent` step on the parent trajectory. */
  base: StepBase;
  run: TrajectoryRun;
}

/**
 * Runs subagents: each call's step and trajectory first, then the trajectories (at once when
 * there are several, the later ones started first: their steps interleave, and nothing on the
 * wire says which call started which), then each call settles in order.
 */
export async function runSubagents(turn: ScriptedTurn, run: TrajectoryRun, actions: readonly SubagentAction[], play: ActionPlayer): Promise<void> {
  const started: StartedSubagent[] = [];
  for (const action of actions) {
    const subagent = await beginSubagent(turn, run, action);
    if (subagent !== undefined) started.push(subagent);
  }
  if (started.length === 0) return;
  turn.sendTrajectoryState(run.trajectoryId, "STATE_WAITING_FOR_TASKS");
  const errors = new Map<StartedSubagent, string | undefined>();
  await Promise.all(
    [...started].reverse().map(async (subagent) => {
      errors.set(subagent, await playSubagent(turn, subagent, play));
    }),
  );
  turn.sendTrajectoryState(run.trajectoryId, "STATE_RUNNING");
  for (const subagent of started) await endSubagent(turn, subagent, errors.get(subagent));
}

/** The subagent-run actions in a row from `index` (none when the action there is another kind). */
export function subagentRunAt(actions: readonly ScenarioAction[], index: number): SubagentAction[] {
  const run: SubagentAction[] = [];
  for (let next = index; next < actions.length; next += 1) {
    const action = actions[next] as ScenarioAction;
    if (action.type !== "subagent-run") break;
    run.push(action);
  }
  return run;
}

async function beginSubagent(turn: ScriptedTurn, run: TrajectoryRun, action: SubagentAction): Promise<StartedSubagent | undefined> {
  const context = turn.context;
  if (!run.isMain || !turn.builtinEnabledFor(run, "invoke_subagent")) {
    turn.modelMistake(run, 'Tool "invoke_subagent" is not available');
    return undefined;
  }
  const callId = context.ids.requestId("call");
  const argumentsJson = JSON.stringify(action.name === undefined ? {} : { name: action.name });
  const gate = await gateToolCall(context, { toolName: "invoke_subagent", argumentsJson, callId, signal: turn.signal });
  const base = turn.toolStepBase(run);
  if (gate.kind === "deny") {
    turn.publishDenied({ ...base, text: "Invoking subagent", invokeSubagent: {} }, gate.reason);
    turn.setToolResult(`Error: ${gate.reason}`);
    return undefined;
  }
  context.recorder.publish({ ...base, state: "STATE_ACTIVE", text: "Invoking subagent", invokeSubagent: {} });
  const subagent = trajectoryRun(context.ids.hexId(), { isMain: false, subagentName: action.name });
  turn.sendTrajectoryState(subagent.trajectoryId, "STATE_RUNNING");
  return { action, callId, base, run: subagent };
}

/** Plays a subagent's trajectory to its end; returns its error, if it failed. */
async function playSubagent(turn: ScriptedTurn, subagent: StartedSubagent, play: ActionPlayer): Promise<string | undefined> {
  let subagentError = subagent.action.error;
  try {
    await play(subagent.run, subagent.action.actions);
    await closeOpenStep(turn, subagent.run);
  } catch (error) {
    if (turn.signal.aborted || error instanceof TurnAbandoned) throw error;
    subagentError = error instanceof TurnTermination ? error.trajectoryError : "Subagent failure";
  }
  turn.sendTrajectoryState(subagent.run.trajectoryId, "STATE_FULLY_IDLE", subagentError);
  return subagentError;
}

async function endSubagent(turn: ScriptedTurn, subagent: StartedSubagent, subagentError: string | undefined): Promise<void> {
  turn.context.recorder.publish({ ...subagent.base, state: "STATE_DONE", text: "Invoking subagent", invokeSubagent: {} });
  // A subagent reports both fields, its last answer and its error, whichever way it ended.
  await postTool(turn.context, { toolName: "invoke_subagent", callId: subagent.callId }, { result: subagent.run.lastText, error: subagentError ?? "" }, turn.signal);
  turn.sendUsageUpdate();
  turn.setToolResult(subagentError === undefined ? subagent.run.lastText : `Error: ${subagentError}`);
}
