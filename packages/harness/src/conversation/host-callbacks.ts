import { linkSignals } from "@ag-ui-antigravity/foundation";
import { toolCallArgumentsJson } from "../protocol/genai-struct.js";
import type { PolicyDecisionRequest, PolicyDecisionResponse, ToolCall, ToolResponse } from "../protocol/messages.js";
import type { CustomTool, ToolPolicy } from "./conversation-config.js";
import { parseArgumentsObject, type ToolGate } from "./tool-gate.js";
import { toolErrorResponseFor, toolResponseFor } from "./tool-result.js";

/*
 * The two callbacks the harness makes for host code besides hooks (docs/protocol.md, "Custom tools"
 * and "Callbacks"): a custom tool call, and a dynamic policy decision. Each always ends in an answer,
 * because the harness waits for one with no timeout.
 */

export interface ToolCallDependencies {
  tools: ReadonlyMap<string, CustomTool>;
  gate: ToolGate;
  conversationId: string;
  /** Signals the handler should stop on: the conversation's and the running turn's. */
  signals: readonly (AbortSignal | undefined)[];
}

/** Runs a custom tool handler; every path ends in a response. */
export async function runCustomTool(call: ToolCall, dependencies: ToolCallDependencies): Promise<ToolResponse> {
  const callId = call.id ?? "";
  const toolName = call.name ?? "";
  const tool = dependencies.tools.get(toolName);
  if (tool === undefined) return toolErrorResponseFor(callId, `Unknown tool: '${toolName}'`);
  const argumentsJson = toolCallArgumentsJson(call);
  if (argumentsJson.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(argumentsJson);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("the arguments are not a JSON object");
    } catch (error) {
      return toolErrorResponseFor(callId, `Invalid arguments for ${toolName}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let args = parseArgumentsObject(argumentsJson);
  try {
    const request = { toolName, argumentsJson, ...(callId ? { callId } : {}) };
    const gate = dependencies.gate;
    const decision = await (gate.take(request) ?? gate.decide(request, { remember: false }));
    if (decision.decision === "deny") return toolErrorResponseFor(callId, `Tool execution denied by policy: ${decision.reason}`);
    if (decision.modifiedArguments !== undefined) args = decision.modifiedArguments;
    const link = linkSignals(dependencies.signals);
    try {
      const context = {
        callId,
        toolName,
        conversationId: dependencies.conversationId,
        signal: link.signal,
        ...(call.trajectoryId ? { trajectoryId: call.trajectoryId } : {}),
      };
      return toolResponseFor(callId, await tool.handler(args, context));
    } finally {
      link.unlink();
    }
  } catch (error) {
    return toolErrorResponseFor(callId, error instanceof Error ? error.message : String(error));
  }
}

export interface PolicyDecisionDependencies {
  gate: ToolGate;
  policies: readonly ToolPolicy[];
  customToolNames: ReadonlySet<string>;
  /** Runs host code that may wait on a human (the turn's clock stops meanwhile). */
  parked: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Decides a dynamic policy rule the harness asks about (0.1.10+); an unknown rule is denied. */
export async function decidePolicy(request: PolicyDecisionRequest, dependencies: PolicyDecisionDependencies): Promise<PolicyDecisionResponse> {
  const requestId = request.requestId ?? "";
  const ruleIndex = /^rule_(\d+)$/.exec(request.ruleId ?? "")?.[1];
  const rule = ruleIndex === undefined ? undefined : dependencies.policies[Number(ruleIndex)];
  if (rule === undefined) return { requestId, outcome: "POLICY_EVALUATION_OUTCOME_DENY", denyReason: `Unknown rule_id: ${request.ruleId ?? ""}` };
  const args = request.toolArgs ?? {};
  const toolName = args.toolName ?? "";
  try {
    const decision = await dependencies.parked(() =>
      dependencies.gate.decide(
        {
          toolName,
          argumentsJson: args.argumentsJson ?? "",
          ...(args.serverName ? { serverName: args.serverName } : {}),
          ...(args.callId ? { callId: args.callId } : {}),
        },
        { remember: Boolean(args.callId) || (!args.serverName && dependencies.customToolNames.has(toolName)) },
      ),
    );
    return decision.decision === "allow"
      ? { requestId, outcome: "POLICY_EVALUATION_OUTCOME_ALLOW", denyReason: "" }
      : { requestId, outcome: "POLICY_EVALUATION_OUTCOME_DENY", denyReason: decision.reason };
  } catch (error) {
    return { requestId, outcome: "POLICY_EVALUATION_OUTCOME_DENY", denyReason: `Policy evaluation error: ${error instanceof Error ? error.message : String(error)}` };
  }
}
