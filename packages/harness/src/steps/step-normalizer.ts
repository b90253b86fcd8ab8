import { STEP_SOURCE_VALUES, STEP_STATE_VALUES, STEP_TARGET_VALUES } from "../protocol/enums.js";
import { toolCallArgumentsJson } from "../protocol/genai-struct.js";
import type { ActionCustomTool, ActionMcpTool, OutputEvent, StepUpdate } from "../protocol/messages.js";
import { BUILTIN_ACTIONS, BUILTIN_ACTION_FIELDS, type BuiltinActionField } from "./builtin-actions.js";
import type {
  NormalizedStep,
  StepKind,
  StepQuestion,
  StepSource,
  StepStatus,
  StepTarget,
  StepToolCall,
} from "./normalized-step.js";
import { textProgress, type TextProgress } from "./text-delta.js";
import { textExtensionsOf, type TextExtension } from "./text-extension.js";

/**
 * How `StepNormalizer.normalize` reads one step: which trajectory is the turn's own, which event
 * carried it.
 */
export interface NormalizeOptions {
  /** The turn's main trajectory; steps of any other trajectory belong to subagents. Absent: every step is main. */
  mainTrajectoryId?: string;
  /** The OutputEvent that carried the step (absent for history steps). */
  event?: OutputEvent;
}

/** What the normalizer remembers of one step between deliveries. */
interface StepMemory {
  text: string;
  thinking: string;
  /** Action field name → the keys that are the call's arguments, fixed at the action's first sight. */
  argumentKeys: Map<string, ReadonlySet<string>>;
}

const statusByState: Record<string, StepStatus> = {
  STATE_UNSPECIFIED: "unspecified",
  STATE_ACTIVE: "active",
  STATE_DONE: "done",
  STATE_WAITING_FOR_USER: "waiting",
  STATE_ERROR: "error",
};
const sourceByName: Record<string, StepSource> = {
  SOURCE_UNSPECIFIED: "unspecified",
  SOURCE_SYSTEM: "system",
  SOURCE_USER: "user",
  SOURCE_MODEL: "model",
};
const targetByName: Record<string, StepTarget> = {
  TARGET_UNSPECIFIED: "unspecified",
  TARGET_USER: "user",
  TARGET_MODEL: "model",
  TARGET_ENVIRONMENT: "environment",
};

/**
 * Turns wire StepUpdates into NormalizedSteps for one consumer over one turn. It remembers what it
 * delivered per step so deltas never repeat text and tool arguments stay separate from results;
 * use one instance per turn (or call `reset()` between turns).
 *
 * @example
 * const steps = new StepNormalizer();
 * const step = steps.normalize(event.stepUpdate, { mainTrajectoryId, event });
 * if (step.kind === "text" && step.isMainTrajectory) write(step.textDelta);
 */
export class StepNormalizer {
  readonly #memory = new Map<string, StepMemory>();

  /**
   * One delivery of a step, normalized: its deltas are what is new since this normalizer's previous
   * delivery of the same step (same `id`), which it then remembers. Unknown enum values and actions
   * become "unknown"; it never throws on what the harness sends.
   */
  normalize(step: StepUpdate, options: NormalizeOptions = {}): NormalizedStep {
    const trajectoryId = step.trajectoryId ?? "";
    const stepIndex = Number(step.stepIndex ?? 0);
    const id = `${trajectoryId}:${stepIndex}`;
    const memory = this.#memoryOf(id);
    const status = enumMapping(step.state, statusByState, STEP_STATE_VALUES);

    const extensions = textExtensionsOf(step);
    const text = extended(memory.text, step.text, extensions?.text) ?? textProgress(memory.text, step.text, step.textDelta);
    const thinking = extended(memory.thinking, step.thinking, extensions?.thinking) ?? textProgress(memory.thinking, step.thinking, step.thinkingDelta);
    memory.text = text.cumulative;
    memory.thinking = thinking.cumulative;

    const tool = this.#toolOf(step, status, memory);
    const kind = kindOf(step, text.cumulative, thinking.cumulative);

    const normalized: NormalizedStep = {
      id,
      cascadeId: step.cascadeId ?? "",
      trajectoryId,
      stepIndex,
      kind,
      status,
      source: enumMapping(step.source, sourceByName, STEP_SOURCE_VALUES),
      target: enumMapping(step.target, targetByName, STEP_TARGET_VALUES),
      isMainTrajectory: options.mainTrajectoryId === undefined || options.mainTrajectoryId === trajectoryId,
      text: text.cumulative,
      textDelta: text.delta,
      thinking: thinking.cumulative,
      thinkingDelta: thinking.delta,
      raw: step,
    };
    if (tool !== undefined) normalized.tool = tool;
    if (step.parentTrajectoryId) normalized.parentTrajectoryId = step.parentTrajectoryId;
    if (step.questionsRequest !== undefined) normalized.questions = questionsOf(step);
    if (step.toolConfirmationRequest !== undefined) {
      normalized.confirmation = step.requestText ? { requestText: step.requestText } : {};
    }
    if (kind === "error") normalized.error = errorOf(step, text.cumulative);
    if (step.finish !== undefined) normalized.finish = finishOf(step.finish.outputString ?? "");
    if (options.event !== undefined) normalized.event = options.event;
    return normalized;
  }

  /** Forgets every step (the next delivery of any step is a first sight). */
  reset(): void {
    this.#memory.clear();
  }

  #memoryOf(id: string): StepMemory {
    let memory = this.#memory.get(id);
    if (memory === undefined) {
      memory = { text: "", thinking: "", argumentKeys: new Map() };
      this.#memory.set(id, memory);
    }
    return memory;
  }

  #toolOf(step: StepUpdate, status: StepStatus, memory: StepMemory): StepToolCall | undefined {
    if (step.customTool !== undefined) return customToolCall(step.customTool);
    if (step.mcpTool !== undefined) return mcpToolCall(step.mcpTool);
    const field = BUILTIN_ACTION_FIELDS.find((candidate) => step[candidate] !== undefined);
    if (field === undefined) return undefined;
    return builtinToolCall(field, step[field] as Record<string, unknown>, status, memory);
  }
}

function builtinToolCall(
  field: BuiltinActionField,
  action: Record<string, unknown>,
  status: StepStatus,
  memory: StepMemory,
): StepToolCall {
  const spec = BUILTIN_ACTIONS[field];
  let argumentKeys = memory.argumentKeys.get(field);
  if (argumentKeys === undefined) {
    const finished = status === "done" || status === "error";
    // Seen for the first time already finished, the step carries inputs and results together:
    // only the documented input fields are arguments.
    const inputFields: ReadonlySet<string> = new Set(spec.inputFields);
    argumentKeys = new Set(Object.keys(action).filter((key) => !finished || inputFields.has(key)));
    memory.argumentKeys.set(field, argumentKeys);
  }
  const argumentsOf: Record<string, unknown> = {};
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(action)) {
    if (argumentKeys.has(key)) argumentsOf[key] = value;
    else result[key] = value;
  }
  const call: StepToolCall = { kind: spec.kind, name: spec.name, actionField: field, arguments: argumentsOf };
  if (Object.keys(result).length > 0) call.result = result;
  return call;
}

function mcpToolCall(action: ActionMcpTool): StepToolCall {
  const call: StepToolCall = {
    kind: "mcp",
    name: action.toolName ?? "",
    actionField: "mcpTool",
    arguments: parseArguments(action.argumentsJson),
  };
  if (action.serverName !== undefined) call.serverName = action.serverName;
  return call;
}

function customToolCall(action: ActionCustomTool): StepToolCall {
  const toolCall = action.toolCall ?? {};
  const call: StepToolCall = {
    kind: "custom",
    name: toolCall.name ?? "",
    actionField: "customTool",
    arguments: parseArguments(toolCallArgumentsJson(toolCall)),
  };
  if (toolCall.id !== undefined) call.callId = toolCall.id;
  const response = action.toolResponse;
  if (response !== undefined) {
    const result: Record<string, unknown> = response.responseJson ? resultObject(response.responseJson) : {};
    if (response.errorMessage) result["error"] = response.errorMessage;
    call.result = result;
  }
  return call;
}

/** `argumentsJson` as an object; empty means `{}`, and a non-object or unparsable value is kept under `value`. */
function parseArguments(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  const parsed = parseJson(json);
  if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  return { value: parsed.ok ? parsed.value : json };
}

/** A tool response body: an object as-is, anything else wrapped as `{result}` (the SDKs' envelope). */
function resultObject(json: string): Record<string, unknown> {
  const parsed = parseJson(json);
  if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  return { result: parsed.ok ? parsed.value : json };
}

/**
 * The progress of a field the frame decoder found to be what this normalizer saw plus a delta
 * (steps/text-extension.ts): what `textProgress` would work out, without comparing the whole text.
 */
function extended(seen: string, cumulative: string | undefined, extension: TextExtension | undefined): TextProgress | undefined {
  if (extension === undefined || cumulative === undefined || extension.base !== seen) return undefined;
  return { cumulative, delta: extension.delta };
}

function kindOf(step: StepUpdate, text: string, thinking: string): StepKind {
  if (step.state === "STATE_ERROR" || step.error !== undefined || step.errorMessage) return "error";
  if (step.questionsRequest !== undefined) return "question";
  const actionKind = actionKindOf(step);
  if (step.toolConfirmationRequest !== undefined && actionKind === undefined) return "confirmation";
  if (actionKind !== undefined) return actionKind;
  if (text !== "") return "text";
  if (thinking !== "") return "thinking";
  return step.text !== undefined || step.textDelta !== undefined ? "text" : "unknown";
}

function actionKindOf(step: StepUpdate): StepKind | undefined {
  if (step.customTool !== undefined) return "custom_tool";
  if (step.mcpTool !== undefined) return "mcp_tool";
  if (step.invokeSubagent !== undefined) return "subagent";
  if (BUILTIN_ACTION_FIELDS.some((field) => step[field] !== undefined)) return "builtin_tool";
  if (step.finish !== undefined) return "finish";
  if (step.compaction !== undefined) return "compaction";
  return undefined;
}

function errorOf(step: StepUpdate, text: string): { message: string; httpCode?: number } {
  const message = step.error?.errorMessage || step.errorMessage || text;
  const httpCode = step.error?.httpCode;
  return httpCode === undefined ? { message } : { message, httpCode: Number(httpCode) };
}

function finishOf(outputString: string): { outputString: string; output?: unknown } {
  const parsed = parseJson(outputString);
  return parsed.ok ? { outputString, output: parsed.value } : { outputString };
}

/**
 * The step's questions, one entry per wire question so answer indices line up with the request;
 * a question of a kind this client does not know becomes an empty placeholder.
 */
function questionsOf(step: StepUpdate): StepQuestion[] {
  return (step.questionsRequest?.questions ?? []).map((question) => {
    const choice = question.multipleChoice;
    return {
      question: choice?.question ?? "",
      choices: choice?.choices ?? [],
      isMultiSelect: choice?.isMultiSelect ?? false,
    };
  });
}

/** Maps an enum wire value (name or number) to its short form; anything else is "unknown". */
function enumMapping<Short extends string>(
  value: string | number | undefined,
  byName: Record<string, Short>,
  names: readonly string[],
): Short | "unspecified" | "unknown" {
  if (value === undefined) return "unspecified";
  const name = typeof value === "number" ? names[value] : value;
  return (name !== undefined && Object.hasOwn(byName, name) ? byName[name] : undefined) ?? "unknown";
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
