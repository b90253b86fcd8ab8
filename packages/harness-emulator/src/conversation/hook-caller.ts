import type { CallHookResponse } from "../wire/input-messages.js";
import type { TurnContext } from "./turn-context.js";

/** LifecycleHook enum name → the `name` the harness puts on the request (informational for clients). */
const hookNames: Record<string, string> = {
  LIFECYCLE_HOOK_ON_SESSION_START: "OnSessionStart",
  LIFECYCLE_HOOK_ON_SESSION_END: "OnSessionEnd",
  LIFECYCLE_HOOK_PRE_TURN: "PreTurn",
  LIFECYCLE_HOOK_POST_TURN: "PostTurn",
  LIFECYCLE_HOOK_PRE_TOOL: "PreTool",
  LIFECYCLE_HOOK_POST_TOOL: "PostTool",
  LIFECYCLE_HOOK_ON_TOOL_ERROR: "OnToolError",
  LIFECYCLE_HOOK_ON_COMPACTION: "OnCompaction",
  LIFECYCLE_HOOK_STOP: "Stop",
};

export type HookType = keyof typeof hookNames;

type HookContext = Pick<TurnContext, "config" | "channel" | "pending" | "ids">;

/**
 * Sends a callHookRequest when the client enabled that hook kind, and waits for the reply (no
 * timeout, as the harness waits). Returns undefined when the hook is not enabled.
 */
export async function callHook(
  context: HookContext,
  options: { type: HookType; argsKey?: string; args?: Record<string, unknown>; signal: AbortSignal },
): Promise<CallHookResponse | undefined> {
  if (!context.config.hookEnabled(options.type)) return undefined;
  const requestId = context.ids.requestId("hook");
  const request: Record<string, unknown> = { requestId, name: hookNames[options.type] };
  if (options.argsKey !== undefined && options.args !== undefined) request[options.argsKey] = options.args;
  request["type"] = options.type;
  const reply = context.pending.wait<CallHookResponse>(`hook:${requestId}`, { signal: options.signal });
  context.channel.send({ callHookRequest: request });
  return reply;
}
