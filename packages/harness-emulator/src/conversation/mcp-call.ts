import type { McpToolInfo } from "../mcp/mcp-connection.js";
import type { StepUpdate } from "../wire/output-messages.js";
import { gateToolCall } from "./tool-gate.js";
import type { TurnContext } from "./turn-context.js";
import { postToolSucceeded, reportToolFailure, type HookedCall } from "./tool-hooks.js";

export interface McpCallRequest {
  trajectoryId: string;
  /** The trajectory that started this one, when a subagent makes the call (0.1.11). */
  parentTrajectoryId?: string | undefined;
  tool: McpToolInfo;
  args: Record<string, unknown>;
  confirm: boolean;
  signal: AbortSignal;
  /** Publishes a waiting confirmation step and resolves with the client's decision. */
  askConfirmation: (step: StepUpdate) => Promise<boolean>;
}

/**
 * Runs one MCP tool call as the harness reports it (the `mcpTool` step action): an ACTIVE
 * step with `{serverName, toolName, argumentsJson}`, the policy and PRE_TOOL gate (both told the
 * server), an optional confirmation, the call over the MCP client, then DONE or ERROR. The action
 * has no result field, so the emulator puts the result text on the DONE step's `text` (our
 * choice; the client also receives it as the POST_TOOL hook's `result`). Returns what the model reads.
 */
export async function runMcpCall(context: TurnContext, request: McpCallRequest): Promise<string> {
  const { tool, signal } = request;
  const callId = context.ids.requestId("call");
  const stepIndex = context.recorder.allocate(request.trajectoryId);
  const base = {
    cascadeId: context.cascadeId,
    trajectoryId: request.trajectoryId,
    ...(request.parentTrajectoryId === undefined ? {} : { parentTrajectoryId: request.parentTrajectoryId }),
    stepIndex,
    source: "SOURCE_MODEL" as const,
    target: "TARGET_ENVIRONMENT" as const,
  };
  const mcpTool = { serverName: tool.serverName, toolName: tool.name, argumentsJson: JSON.stringify(request.args) };
  if (!request.confirm) context.recorder.publish({ ...base, state: "STATE_ACTIVE", mcpTool });
  const call = hookedCall(tool, callId, base);
  const gate = await gateToolCall(context, { ...call, argumentsJson: mcpTool.argumentsJson, signal });
  if (gate.kind === "deny") {
    context.recorder.publish({ ...base, state: "STATE_ERROR", mcpTool, errorMessage: gate.reason });
    return `Error: ${gate.reason}`;
  }
  let args = request.args;
  if (gate.argumentsJson !== mcpTool.argumentsJson) {
    const modified = parseObject(gate.argumentsJson);
    if (modified === undefined) {
      const message = "invalid modified arguments: not a JSON object";
      context.recorder.publish({ ...base, state: "STATE_ERROR", mcpTool, errorMessage: message });
      return reportFailure(context, { call, message, signal });
    }
    args = modified;
    mcpTool.argumentsJson = gate.argumentsJson;
  }
  if (request.confirm || gate.confirm) {
    const accepted = await request.askConfirmation({
      ...base,
      state: "STATE_WAITING_FOR_USER",
      text: `Requesting permission to call tool "${tool.name}"`,
      mcpTool,
      toolConfirmationRequest: {},
    });
    if (!accepted) {
      context.recorder.publish({ ...base, state: "STATE_ERROR", mcpTool, errorMessage: "Permission denied" });
      return "Error: the user rejected the tool call";
    }
  }
  let outcome;
  try {
    outcome = await context.mcp.call(tool, args, { signal });
  } catch (error) {
    signal.throwIfAborted();
    const message = `MCP tool ${tool.name} on server ${tool.serverName} failed: ${error instanceof Error ? error.message : String(error)}`;
    context.logger.warn(`conversation ${context.cascadeId}: ${message}`);
    context.recorder.publish({ ...base, state: "STATE_ERROR", mcpTool, errorMessage: message });
    return reportFailure(context, { call, message, signal });
  }
  if (outcome.isError) {
    const message = outcome.text === "" ? `MCP tool ${tool.name} reported an error` : outcome.text;
    context.recorder.publish({ ...base, state: "STATE_ERROR", mcpTool, errorMessage: message });
    return reportFailure(context, { call, message, signal });
  }
  const done: StepUpdate = { ...base, state: "STATE_DONE", mcpTool, text: outcome.text };
  context.recorder.publish(done);
  // Terminal steps are re-delivered by the real harness; clients must de-duplicate them.
  if (context.knobs.rebroadcastMs > 0) context.recorder.rebroadcast(done);
  await postToolSucceeded(context, call, outcome.text, signal);
  return outcome.text;
}

/** ON_TOOL_ERROR (whose message replaces what the model sees) then POST_TOOL, both naming the server. */
async function reportFailure(context: TurnContext, options: { call: HookedCall; message: string; signal: AbortSignal }): Promise<string> {
  return `Error: ${await reportToolFailure(context, options.call, options.message, options.signal)}`;
}

/** For MCP tools the hooks carry the bare tool name with `serverName` set, as the harness sends them. */
function hookedCall(tool: McpToolInfo, callId: string, step: { trajectoryId: string; stepIndex: number }): HookedCall {
  return { toolName: tool.name, serverName: tool.serverName, callId, trajectoryId: step.trajectoryId, stepIndex: step.stepIndex };
}

function parseObject(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
