import type { PolicyDecisionResponse } from "../wire/input-messages.js";
import { callHook } from "./hook-caller.js";
import type { TurnContext } from "./turn-context.js";

export type GateDecision =
  | { kind: "allow"; argumentsJson: string; confirm: boolean }
  | { kind: "deny"; reason: string };

/**
 * Decides whether a tool call may run: the 0.1.10 policy engine first (static rules in-process,
 * dynamic ones round-trip through policyDecisionRequest), then the PRE_TOOL hook, which may deny or
 * rewrite the arguments. A static ASK_USER rule turns into a tool confirmation request.
 */
export async function gateToolCall(
  context: TurnContext,
  options: { toolName: string; argumentsJson: string; callId: string; serverName?: string; signal: AbortSignal },
): Promise<GateDecision> {
  const toolArgs: Record<string, unknown> = { toolName: options.toolName, argumentsJson: options.argumentsJson, serverName: options.serverName ?? "" };
  if (context.profile.hookCallIds) toolArgs["callId"] = options.callId;
  let confirm = false;
  if (context.profile.policyEngine) {
    for (const { rule, index } of context.config.policyRulesFor(options.toolName, options.serverName ?? "")) {
      const label = rule.name ?? rule.tool ?? "policy";
      if (rule.isDynamic === true) {
        const requestId = context.ids.requestId("policy");
        const reply = context.pending.wait<PolicyDecisionResponse>(`policy:${requestId}`, { signal: options.signal });
        context.channel.send({ policyDecisionRequest: { requestId, ruleId: rule.ruleId || `rule_${index}`, toolArgs } });
        const response = await reply;
        if (response.outcome === "POLICY_EVALUATION_OUTCOME_NO_MATCH" || response.outcome === 3) continue;
        if (response.outcome === "POLICY_EVALUATION_OUTCOME_ALLOW" || response.outcome === 1) break;
        // DENY, UNSPECIFIED and unknown outcomes fail closed.
        return { kind: "deny", reason: response.denyReason || rule.denyReason || `Denied by policy '${label}'.` };
      }
      if (rule.decision === "POLICY_DECISION_ALLOW" || rule.decision === 1) break;
      if (rule.decision === "POLICY_DECISION_DENY" || rule.decision === 2) {
        return { kind: "deny", reason: rule.denyReason || `Denied by policy '${label}'.` };
      }
      if (rule.decision === "POLICY_DECISION_ASK_USER" || rule.decision === 3) {
        confirm = true;
        break;
      }
    }
  }
  const hookArgs: Record<string, unknown> = { toolName: options.toolName, argumentsJson: options.argumentsJson };
  if (options.serverName !== undefined) hookArgs["serverName"] = options.serverName;
  if (context.profile.hookCallIds) hookArgs["callId"] = options.callId;
  const reply = await callHook(context, { type: "LIFECYCLE_HOOK_PRE_TOOL", argsKey: "preToolArgs", args: hookArgs, signal: options.signal });
  if (reply !== undefined) {
    if (reply.errorMessage !== undefined) return { kind: "deny", reason: reply.errorMessage };
    const result = reply.preToolResult;
    if (result?.decision === "DENY" || result?.decision === 2) return { kind: "deny", reason: result.reason || "Denied by pre-tool hook" };
    if (result?.modifiedArgumentsJson !== undefined && result.modifiedArgumentsJson !== "") {
      return { kind: "allow", argumentsJson: result.modifiedArgumentsJson, confirm };
    }
  }
  return { kind: "allow", argumentsJson: options.argumentsJson, confirm };
}
