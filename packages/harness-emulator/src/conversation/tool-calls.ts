import { linkSignals, pause } from "@ag-ui-antigravity/foundation";
import { fromGenaiStruct, toGenaiStruct, type GenaiStruct } from "@ag-ui-antigravity/harness/protocol";
import { EmulatorError } from "../errors/emulator-error.js";
import { renderDeep, renderTemplate } from "../scenario/template.js";
import { sampleArguments } from "../scenario/schema-sample.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { builtinActionField, isBuiltinToolName, planBuiltin, type BuiltinPlan } from "../tools/builtin-tools.js";
import type { ToolResponse } from "../wire/input-messages.js";
import type { StepUpdate } from "../wire/output-messages.js";
import { runMcpCall } from "./mcp-call.js";
import { streamText } from "./model-steps.js";
import { ScriptedTurn, trajectoryRun, type StepBase, type TrajectoryRun, type UnsettledStep } from "./scripted-turn.js";
import { gateToolCall } from "./tool-gate.js";
import { postToolSucceeded, reportToolFailure, type HookedCall } from "./tool-hooks.js";

/** A custom tool call whose result has arrived and must be reported. */
interface CustomToolCompletion {
  base: StepBase;
  toolCall: Record<string, unknown>;
  name: string;
  callId: string;
  response: ToolResponse;
}

/**
 * The `toolCall` message as the played release sends it: arguments as JSON text up to 0.1.16; from
 * 0.1.17 as a genai.Struct only, without `argumentsJson` (the hardest form a client of that release
 * must read, docs/protocol.md "Custom tools"), with the trajectory that made the call.
 */
function toolCallMessage(turn: ScriptedTurn, run: TrajectoryRun, call: { id: string; name: string; argumentsJson: string }): Record<string, unknown> {
  const profile = turn.context.profile;
  if (!profile.has("structArguments")) return { ...call };
  const message: Record<string, unknown> = { id: call.id, name: call.name, arguments: toGenaiStruct(parseArguments(call.argumentsJson)) };
  if (profile.has("toolCallTrajectory")) message["trajectoryId"] = run.trajectoryId;
  return message;
}

function parseArguments(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A `tool-call` action: a built-in tool the harness runs itself, or a custom tool the client runs. */
export async function callTool(turn: ScriptedTurn, run: TrajectoryRun, action: Extract<ScenarioAction, { type: "tool-call" }>): Promise<void> {
  const name = renderTemplate(action.tool, turn.variables);
  if (isBuiltinToolName(name)) {
    if (!turn.builtinEnabledFor(run, name)) {
      turn.modelMistake(run, `Tool "${name}" is not available`);
      return;
    }
    const args =
      action.arguments === undefined || action.arguments === "schema"
        ? { directory_path: turn.variables["workspace"] ?? "" }
        : (renderDeep(action.arguments, turn.variables) as Record<string, unknown>);
    return callBuiltin(turn, run, name, args, action.confirm === true);
  }
  const tool = turn.context.config.customTool(name);
  if (tool === undefined) {
    turn.modelMistake(run, `Tool "${name}" is not available`);
    return;
  }
  const args =
    action.arguments === undefined || action.arguments === "schema"
      ? sampleArguments(tool.parametersJsonSchema, turn.request)
      : (renderDeep(action.arguments, turn.variables) as Record<string, unknown>);
  return callCustom(turn, run, name, args, { confirm: action.confirm === true, backgroundAfterMs: action.backgroundAfterMs });
}

/** An `mcp-call` action: a tool of one of the conversation's MCP servers, run for real. */
export async function callMcp(turn: ScriptedTurn, run: TrajectoryRun, action: Extract<ScenarioAction, { type: "mcp-call" }>): Promise<void> {
  const name = renderTemplate(action.tool, turn.variables);
  const server = action.server === undefined ? undefined : renderTemplate(action.server, turn.variables);
  const tool = turn.context.mcp.find(name, server);
  if (tool === undefined) {
    turn.modelMistake(run, `Tool "${name}" is not available`);
    return;
  }
  const args =
    action.arguments === undefined || action.arguments === "schema"
      ? sampleArguments(JSON.stringify(tool.inputSchema), turn.request)
      : (renderDeep(action.arguments, turn.variables) as Record<string, unknown>);
  const result = await runMcpCall(turn.context, {
    trajectoryId: run.trajectoryId,
    parentTrajectoryId: turn.baseStep(run, 0).parentTrajectoryId,
    tool,
    args,
    confirm: action.confirm === true,
    signal: turn.signal,
    askConfirmation: (step) => turn.confirm(step),
  });
  turn.setToolResult(result);
}

/** ERROR on the call's step, then the failure hooks; the model reads the (possibly rewritten) error. */
async function failCall(turn: ScriptedTurn, step: UnsettledStep, call: HookedCall, message: string): Promise<void> {
  turn.context.recorder.publish({ ...step, state: "STATE_ERROR", errorMessage: message });
  const visible = await reportToolFailure(turn.context, call, message, turn.signal);
  turn.setToolResult(`Error: ${visible}`);
}

async function callBuiltin(turn: ScriptedTurn, run: TrajectoryRun, name: Parameters<typeof planBuiltin>[0], args: Record<string, unknown>, confirm: boolean): Promise<void> {
  const context = turn.context;
  const field = builtinActionField[name];
  const base = turn.toolStepBase(run);
  const callId = context.ids.requestId("call");
  const call: HookedCall = { toolName: name, callId, trajectoryId: base.trajectoryId, stepIndex: base.stepIndex };
  const builtinContext = { guard: context.guard, commandEnv: context.commandEnv };
  let plan: BuiltinPlan;
  try {
    plan = planBuiltin(name, args, builtinContext);
  } catch (error) {
    return failCall(turn, base, call, EmulatorError.isInstance(error) ? error.message : String(error));
  }
  let needsConfirmation = confirm;
  if (!confirm) context.recorder.publish({ ...base, state: "STATE_ACTIVE", [field]: plan.inputs });
  const gate = await gateToolCall(context, { ...call, argumentsJson: JSON.stringify(args), signal: turn.signal });
  if (gate.kind === "deny") {
    turn.publishDenied({ ...base, [field]: plan.inputs }, gate.reason);
    turn.setToolResult(`Error: ${gate.reason}`);
    return;
  }
  needsConfirmation ||= gate.confirm;
  if (gate.argumentsJson !== JSON.stringify(args)) {
    try {
      plan = planBuiltin(name, JSON.parse(gate.argumentsJson) as Record<string, unknown>, builtinContext);
    } catch (error) {
      return failCall(turn, { ...base, [field]: plan.inputs }, call, EmulatorError.isInstance(error) ? error.message : `invalid modified arguments: ${String(error)}`);
    }
  }
  if (needsConfirmation) {
    const accepted = await turn.confirm({
      ...base,
      state: "STATE_WAITING_FOR_USER",
      text: `Requesting permission to call tool "${name}"`,
      [field]: plan.inputs,
      toolConfirmationRequest: {},
    });
    if (!accepted) {
      turn.publishDenied({ ...base, [field]: plan.inputs }, "Permission denied");
      turn.setToolResult("Error: the user rejected the tool call");
      return;
    }
  }
  let outcome;
  try {
    // A command's output so far is re-sent on its ACTIVE step while it runs [inferred].
    outcome = await plan.run({ signal: turn.signal, progress: (action) => context.recorder.publish({ ...base, state: "STATE_ACTIVE", [field]: action }) });
  } catch (error) {
    if (turn.signal.aborted) throw error;
    return failCall(turn, { ...base, [field]: plan.inputs }, call, EmulatorError.isInstance(error) ? error.message : (error as Error).message);
  }
  const done: StepUpdate = { ...base, state: "STATE_DONE", [field]: outcome.action };
  if (outcome.text !== undefined) done.text = outcome.text;
  turn.publishTerminal(done);
  await postToolSucceeded(context, call, outcome.hookResult, turn.signal);
  turn.setToolResult(outcome.modelResult);
}

async function callCustom(
  turn: ScriptedTurn,
  run: TrajectoryRun,
  name: string,
  args: Record<string, unknown>,
  options: { confirm: boolean; backgroundAfterMs: number | undefined },
): Promise<void> {
  const context = turn.context;
  const callId = context.ids.requestId("call");
  const argumentsJson = JSON.stringify(args);
  // The call's own step comes first, so the hooks can name it (0.1.13); a confirmation notice, when
  // one is asked for, is the step after it, though it is sent before.
  const base = turn.toolStepBase(run);
  const call: HookedCall = { toolName: name, callId, trajectoryId: base.trajectoryId, stepIndex: base.stepIndex };
  const gate = await gateToolCall(context, { ...call, argumentsJson, signal: turn.signal });
  if (gate.kind === "allow" && (options.confirm || gate.confirm)) {
    // The pre-request notice (docs/protocol.md, "Custom tools"): a waiting step with no action field.
    const noticeIndex = context.recorder.allocate(run.trajectoryId);
    const notice: StepUpdate = {
      ...turn.baseStep(run, noticeIndex),
      state: "STATE_WAITING_FOR_USER",
      source: "SOURCE_MODEL",
      target: "TARGET_ENVIRONMENT",
      toolConfirmationRequest: {},
    };
    const accepted = await turn.confirm(notice);
    const { toolConfirmationRequest: _request, ...settled } = notice;
    if (!accepted) {
      turn.publishDenied(settled, "Permission denied");
      turn.setToolResult("Error: the user rejected the tool call");
      return;
    }
    context.recorder.publish({ ...settled, state: "STATE_DONE" });
  }
  const toolCall = toolCallMessage(turn, run, { id: callId, name, argumentsJson: gate.kind === "allow" ? gate.argumentsJson : argumentsJson });
  if (gate.kind === "deny") {
    turn.publishDenied({ ...base, customTool: { toolCall } }, gate.reason);
    turn.setToolResult(`Error: ${gate.reason}`);
    return;
  }
  const reply = context.pending.wait<ToolResponse>(`tool:${callId}`, { signal: turn.signal });
  context.recorder.publish({ ...base, state: "STATE_ACTIVE", customTool: { toolCall } });
  context.channel.send({ toolCall });
  const escalateAfter = options.backgroundAfterMs ?? context.knobs.backgroundToolMs;
  let response: ToolResponse | undefined;
  if (escalateAfter > 0 && run.isMain) {
    const timer = new AbortController();
    const waiting = linkSignals([turn.signal, timer.signal]);
    const elapsed = pause(escalateAfter, waiting.signal).then(() => undefined);
    try {
      response = await Promise.race([reply, elapsed]);
    } finally {
      timer.abort();
      waiting.unlink();
    }
    turn.signal.throwIfAborted();
    if (response === undefined) {
      moveToBackground(turn, { base, toolCall, name, callId, reply });
      return;
    }
  } else {
    response = await reply;
  }
  await completeCustomTool(turn, { base, toolCall, name, callId, response });
}

/**
 * The harness may stop waiting for a slow custom tool, tell the model it runs in the background
 * and end the turn; the result then arrives outside any turn and starts one of its own.
 */
function moveToBackground(turn: ScriptedTurn, call: Omit<CustomToolCompletion, "response"> & { reply: Promise<ToolResponse> }): void {
  const context = turn.context;
  context.logger.info(`conversation ${context.cascadeId}: tool ${call.name} (${call.toolCall.id}) moved to the background`);
  turn.setToolResult(`Tool ${call.name} is still running in the background.`);
  call.reply.then(
    (response) =>
      context.enqueueBackground((signal) => completeInBackground(new ScriptedTurn(context, { text: "", parts: [], trigger: true }, signal), { ...call, response })),
    // Halted or closed before the result came: nothing left to complete.
    () => undefined,
  );
}

/** Runs the late completion of a background tool as a turn of its own. */
async function completeInBackground(turn: ScriptedTurn, call: CustomToolCompletion): Promise<void> {
  const context = turn.context;
  const main = trajectoryRun(context.cascadeId, { isMain: true });
  try {
    turn.sendRunState(main, "STATE_RUNNING");
    await completeCustomTool(turn, call);
    await streamText(turn, main, `Background tool ${call.name} finished: ${context.memory.lastToolResult}`, {});
    turn.sendRunState(main, "STATE_FULLY_IDLE");
  } catch (error) {
    if (!turn.signal.aborted) context.logger.error(`conversation ${context.cascadeId}: background completion failed: ${String(error)}`);
    turn.sendRunState(main, "STATE_FULLY_IDLE", turn.signal.aborted ? {} : { error: "Trajectory execution failed", errorCode: "INTERNAL" });
  }
}

/** The mirror step at DONE with the response, then the tool hooks; the model sees the result. */
async function completeCustomTool(turn: ScriptedTurn, call: CustomToolCompletion): Promise<void> {
  const { base, toolCall, name, callId, response } = call;
  const hooked: HookedCall = { toolName: name, callId, trajectoryId: base.trajectoryId, stepIndex: base.stepIndex };
  const interpreted = interpretToolResponse(response);
  const toolResponse: Record<string, unknown> = { id: callId };
  if (response.responseJson !== undefined) toolResponse["responseJson"] = response.responseJson;
  if (response.response !== undefined) toolResponse["response"] = response.response;
  if (response.errorMessage !== undefined) toolResponse["errorMessage"] = response.errorMessage;
  turn.publishTerminal({ ...base, state: "STATE_DONE", customTool: { toolCall, toolResponse } });
  if (interpreted.error !== undefined) {
    const visible = await reportToolFailure(turn.context, hooked, interpreted.error, turn.signal);
    turn.setToolResult(`Error: ${visible}`);
    return;
  }
  await postToolSucceeded(turn.context, hooked, responseText(response), turn.signal);
  turn.setToolResult(interpreted.text);
}

/** A reply's result as JSON text: `responseJson`, or the `response` Struct a client may send instead. */
function responseText(response: ToolResponse): string {
  if (response.responseJson !== undefined) return response.responseJson;
  return response.response === undefined ? "" : JSON.stringify(fromGenaiStruct(response.response as GenaiStruct));
}

/** Interprets a custom tool reply: either envelope of docs/protocol.md, "Custom tools" (errorMessage, or `{"error": …}` in responseJson). */
function interpretToolResponse(response: ToolResponse): { error: string | undefined; text: string } {
  if (response.errorMessage !== undefined && response.errorMessage !== "") return { error: response.errorMessage, text: response.errorMessage };
  const json = responseText(response);
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const keys = Object.keys(parsed);
      const record = parsed as Record<string, unknown>;
      if (keys.length === 1 && keys[0] === "error") return { error: String(record["error"]), text: String(record["error"]) };
      if (keys.length === 1 && keys[0] === "result") {
        const result = record["result"];
        return { error: undefined, text: typeof result === "string" ? result : JSON.stringify(result) };
      }
    }
  } catch {
    // A non-JSON result is passed to the model verbatim.
  }
  return { error: undefined, text: json };
}
