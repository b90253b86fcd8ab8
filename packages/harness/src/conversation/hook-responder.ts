import type { CallHookRequest, CallHookResponse } from "../protocol/messages.js";
import type { ConversationHooks } from "./conversation-config.js";
import type { ToolGate } from "./tool-gate.js";

export interface HookResponderOptions {
  hooks: ConversationHooks;
  gate: ToolGate;
  conversationId: () => string;
  /** Names of this conversation's custom tools: their PRE_TOOL decision is kept for the toolCall that follows. */
  customToolNames: ReadonlySet<string>;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Answers one callHookRequest. Every request gets exactly one response echoing its requestId; a
 * hook that throws is reported as `errorMessage` so the harness never waits forever.
 */
export async function respondToHook(request: CallHookRequest, options: HookResponderOptions): Promise<CallHookResponse> {
  const requestId = request.requestId ?? "";
  const conversationId = options.conversationId();
  const { hooks } = options;
  try {
    switch (request.type) {
      case "LIFECYCLE_HOOK_PRE_TURN": {
        const parts = request.preTurnArgs?.userInput?.parts ?? [];
        const text = parts.map((part) => part.text ?? "").join("");
        const decision = hooks.preTurn === undefined ? undefined : await hooks.preTurn({ parts, text, conversationId });
        if (decision?.decision === "deny") {
          return { requestId, preTurnResult: { decision: "DENY", reason: decision.reason ?? "Denied by the pre-turn hook" } };
        }
        return { requestId, preTurnResult: { decision: "ALLOW", reason: "" } };
      }
      case "LIFECYCLE_HOOK_PRE_TOOL": {
        const args = request.preToolArgs ?? {};
        const toolName = args.toolName ?? "";
        const gateRequest = {
          toolName,
          argumentsJson: args.argumentsJson ?? "",
          ...(args.serverName ? { serverName: args.serverName } : {}),
          ...(args.callId ? { callId: args.callId } : {}),
        };
        // A call id makes the call unique, so its decision can be shared by every path that asks about it.
        const remember = Boolean(args.callId) || (!args.serverName && options.customToolNames.has(toolName));
        const decision = await options.gate.decide(gateRequest, { remember });
        if (decision.decision === "deny") return { requestId, preToolResult: { decision: "DENY", reason: decision.reason } };
        return {
          requestId,
          preToolResult: {
            decision: "ALLOW",
            reason: "",
            ...(decision.modifiedArguments === undefined ? {} : { modifiedArgumentsJson: JSON.stringify(decision.modifiedArguments) }),
          },
        };
      }
      case "LIFECYCLE_HOOK_POST_TURN":
        await hooks.postTurn?.({ responseText: request.postTurnArgs?.responseText ?? "", conversationId });
        return { requestId, emptyResult: {} };
      case "LIFECYCLE_HOOK_POST_TOOL": {
        const args = request.postToolArgs ?? {};
        await hooks.postTool?.({
          toolName: args.toolName ?? "",
          result: args.result ?? "",
          error: args.error ?? "",
          conversationId,
          ...(args.serverName ? { serverName: args.serverName } : {}),
          ...(args.callId ? { callId: args.callId } : {}),
        });
        return { requestId, emptyResult: {} };
      }
      case "LIFECYCLE_HOOK_ON_TOOL_ERROR": {
        const args = request.onToolErrorArgs ?? {};
        const replacement = await hooks.onToolError?.({
          toolName: args.toolName ?? "",
          errorMessage: args.errorMessage ?? "",
          conversationId,
          ...(args.serverName ? { serverName: args.serverName } : {}),
          ...(args.callId ? { callId: args.callId } : {}),
        });
        return replacement === undefined
          ? { requestId, emptyResult: {} }
          : { requestId, onToolErrorResult: { customErrorMessage: replacement.message } };
      }
      case "LIFECYCLE_HOOK_ON_SESSION_START":
        await hooks.sessionStart?.({ conversationId });
        return { requestId, emptyResult: {} };
      case "LIFECYCLE_HOOK_ON_SESSION_END":
        await hooks.sessionEnd?.({ conversationId });
        return { requestId, emptyResult: {} };
      default:
        // Unknown or unspecified kinds still get an answer, or the harness would wait forever.
        return { requestId, emptyResult: {} };
    }
  } catch (error) {
    return { requestId, errorMessage: `Hook failed: ${errorText(error)}` };
  }
}
