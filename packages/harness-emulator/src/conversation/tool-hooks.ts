import { callHook } from "./hook-caller.js";
import type { TurnContext } from "./turn-context.js";

/**
 * The call a tool hook reports: MCP tools carry the bare tool name with `serverName` set, as the
 * harness sends them; the step that shows the call is named from 0.1.13.
 */
export interface HookedCall {
  toolName: string;
  callId: string;
  serverName?: string;
  trajectoryId: string;
  stepIndex: number;
}

type HookContext = Parameters<typeof callHook>[0] & Pick<TurnContext, "profile">;

/** POST_TOOL after a call that ran: its result as the hook's `result`, an empty `error`. */
export async function postToolSucceeded(context: HookContext, call: HookedCall, result: string, signal: AbortSignal): Promise<void> {
  await postTool(context, call, { result, error: "" }, signal);
}

/**
 * ON_TOOL_ERROR (whose custom message replaces what the model sees) then POST_TOOL with the error.
 * Returns the message the model sees.
 */
export async function reportToolFailure(context: HookContext, call: HookedCall, message: string, signal: AbortSignal): Promise<string> {
  const reply = await callHook(context, { type: "LIFECYCLE_HOOK_ON_TOOL_ERROR", argsKey: "onToolErrorArgs", args: hookArgs(context, call, { errorMessage: message }), signal });
  const custom = reply?.onToolErrorResult?.customErrorMessage;
  await postTool(context, call, { error: message }, signal);
  return custom !== undefined && custom !== "" ? custom : message;
}

/** POST_TOOL with whatever outcome fields the caller reports (a subagent's result and error both). */
export async function postTool(context: HookContext, call: HookedCall, outcome: Record<string, unknown>, signal: AbortSignal): Promise<void> {
  await callHook(context, { type: "LIFECYCLE_HOOK_POST_TOOL", argsKey: "postToolArgs", args: hookArgs(context, call, outcome), signal });
}

/** The fields every tool hook's arguments share, as far as the played release has them (`callId` 0.1.10, the step 0.1.13). */
export function hookArgs(context: HookContext, call: HookedCall, outcome: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = { toolName: call.toolName };
  if (call.serverName !== undefined) args["serverName"] = call.serverName;
  Object.assign(args, outcome);
  if (context.profile.has("hookCallIds")) args["callId"] = call.callId;
  if (context.profile.has("toolHookSteps")) {
    args["trajectoryId"] = call.trajectoryId;
    args["stepIndex"] = call.stepIndex;
  }
  return args;
}
