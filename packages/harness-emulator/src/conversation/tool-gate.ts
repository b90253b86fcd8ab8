import { fromGenaiStruct, type GenaiStruct } from "@ag-ui-antigravity/harness/protocol";
import type { PolicyDecisionResponse } from "../wire/input-messages.js";
import { callHook } from "./hook-caller.js";
import { hookArgs as toolHookArgs, type HookedCall } from "./tool-hooks.js";
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
  options: HookedCall & { argumentsJson: string; signal: AbortSignal },
): Promise<GateDecision> {
  const toolArgs = toolHookArgs(context, { ...options, serverName: options.serverName ?? "" }, { argumentsJson: options.argumentsJson });
  let confirm = false;
  if (context.profile.has("policyEngine")) {
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
  const hookArgs = toolHookArgs(context, options, { argumentsJson: options.argumentsJson });
  const reply = await callHook(context, { type: "LIFECYCLE_HOOK_PRE_TOOL", argsKey: "preToolArgs", args: hookArgs, signal: options.signal });
  if (reply !== undefined) {
    if (reply.errorMessage !== undefined) return { kind: "deny", reason: reply.errorMessage };
    const result = reply.preToolResult;
    if (result?.decision === "DENY" || result?.decision === 2) return { kind: "deny", reason: result.reason || "Denied by pre-tool hook" };
    // Edited arguments: JSON text up to 0.1.16, a genai.Struct from 0.1.17 (which one the played release takes was checked on arrival).
    if (result?.modifiedArgs !== undefined) return { kind: "allow", argumentsJson: JSON.stringify(fromGenaiStruct(result.modifiedArgs as GenaiStruct)), confirm };
    if (result?.modifiedArgumentsJson !== undefined && result.modifiedArgumentsJson !== "") {
      return { kind: "allow", argumentsJson: result.modifiedArgumentsJson, confirm };
    }
  }
  return { kind: "allow", argumentsJson: options.argumentsJson, confirm };
}
