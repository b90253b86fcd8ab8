import type { HarnessDialect } from "../protocol/dialect.js";
import type { CallHookRequest, CallHookResponse } from "../protocol/messages.js";
import { toSafeInteger } from "../protocol/wire-types.js";
import type { ConversationHooks } from "./conversation-config.js";
import type { ToolGate } from "./tool-gate.js";

export interface HookResponderOptions {
  hooks: ConversationHooks;
  gate: ToolGate;
  /** How the harness's release spells an edited pre-tool call. */
  dialect: HarnessDialect;
  conversationId: () => string;
  /** Names of this conversation's custom tools: their PRE_TOOL decision is kept for the toolCall that follows. */
  customToolNames: ReadonlySet<string>;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where a tool hook's call was made (harness 0.1.13+), for the hook's arguments. */
function callSite(args: { trajectoryId?: string | undefined; stepIndex?: string | number | undefined }): { trajectoryId?: string; stepIndex?: number } {
  return {
    ...(args.trajectoryId ? { trajectoryId: args.trajectoryId } : {}),
    ...(args.stepIndex === undefined ? {} : { stepIndex: toSafeInteger(args.stepIndex) }),
  };
}

/**
 * Answers one callHookRequest. Every request gets exactly one response echoing its requestId; a
 * hook that throws is reported as `errorMessage` so the harness never waits forever. A STOP request
 * with no `stop` hook lets the agent stop; any other kind with no hook gets an empty result.
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
          ...callSite(args),
        };
        // A call id makes the call unique, so its decision can be shared by every path that asks about it.
        const remember = Boolean(args.callId) || (!args.serverName && options.customToolNames.has(toolName));
        const decision = await options.gate.decide(gateRequest, { remember });
        if (decision.decision === "deny") return { requestId, preToolResult: { decision: "DENY", reason: decision.reason } };
        return { requestId, preToolResult: options.dialect.preToolAllow(decision.modifiedArguments) };
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
          ...callSite(args),
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
          ...callSite(args),
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
      case "LIFECYCLE_HOOK_STOP": {
        const args = request.stopArgs ?? {};
        const stopReason = typeof args.stopReason === "string" && args.stopReason !== "STOP_REASON_UNSPECIFIED" ? args.stopReason : undefined;
        const verdict = await hooks.stop?.({
          conversationId,
          trajectoryId: args.trajectoryId ?? "",
          responseText: args.responseText ?? "",
          errorMessage: args.errorMessage ?? "",
          continuationCount: toSafeInteger(args.continuationCount),
          ...(stopReason === undefined ? {} : { stopReason }),
        });
        return verdict?.decision === "continue"
          ? { requestId, stopResult: { decision: "CONTINUE", reason: verdict.reason } }
          : { requestId, stopResult: { decision: "ALLOW_STOP", reason: "" } };
      }
      case "LIFECYCLE_HOOK_ON_COMPACTION": {
        const args = request.onCompactionArgs ?? {};
        await hooks.onCompaction?.({ conversationId, trajectoryId: args.trajectoryId ?? "", stepIndex: toSafeInteger(args.stepIndex), summary: args.summary ?? "" });
        return { requestId, emptyResult: {} };
      }
      default:
        // Unknown or unspecified kinds still get an answer, or the harness would wait forever.
        return { requestId, emptyResult: {} };
    }
  } catch (error) {
    return { requestId, errorMessage: `Hook failed: ${errorText(error)}` };
  }
}
