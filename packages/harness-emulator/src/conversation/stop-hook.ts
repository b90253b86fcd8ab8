import type { CallHookResponse } from "../wire/input-messages.js";
import { callHook } from "./hook-caller.js";
import type { ScriptedTurn, TrajectoryRun } from "./scripted-turn.js";

/** How many times in a row a STOP hook may make the agent go on before the emulator stops anyway (a guard, [inferred]). */
export const maxContinuations = 25;

/**
 * The STOP hook (0.1.16): the agent is about to stop; the client may let it (ALLOW_STOP) or make it
 * go on (CONTINUE, with `reason` as what to do next). Returns the reason to go on with, or
 * undefined to stop. A stop forced by a budget or the quota is reported with its reason, and a
 * CONTINUE cannot undo it.
 */
export async function askToStop(
  turn: ScriptedTurn,
  run: TrajectoryRun,
  options: { continuationCount: number; stopReason?: string | undefined; errorMessage?: string | undefined },
): Promise<string | undefined> {
  const context = turn.context;
  if (!context.profile.has("stopHook")) return undefined;
  const stopArgs: Record<string, unknown> = { responseText: run.lastText, trajectoryId: run.trajectoryId, continuationCount: options.continuationCount };
  if (options.stopReason !== undefined) stopArgs["stopReason"] = options.stopReason;
  if (options.errorMessage !== undefined && options.errorMessage !== "") stopArgs["errorMessage"] = options.errorMessage;
  const reply: CallHookResponse | undefined = await callHook(context, { type: "LIFECYCLE_HOOK_STOP", argsKey: "stopArgs", args: stopArgs, signal: turn.signal });
  const decision = reply?.stopResult?.decision;
  if (decision !== "CONTINUE" && decision !== 2) return undefined;
  if (options.stopReason !== undefined) {
    context.logger.info(`conversation ${context.cascadeId}: STOP hook said CONTINUE after ${options.stopReason}; the agent stops anyway`);
    return undefined;
  }
  if (options.continuationCount >= maxContinuations) {
    context.logger.warn(`conversation ${context.cascadeId}: STOP hook said CONTINUE ${maxContinuations} times in a row; stopping`);
    return undefined;
  }
  return reply?.stopResult?.reason ?? "";
}
