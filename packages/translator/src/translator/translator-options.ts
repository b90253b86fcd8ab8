import { TranslatorError } from "../errors/translator-error.js";
import { type IdGenerator, randomIds } from "../ids/id-generator.js";
import type { CumulativeUsage, UsageLabels } from "../usage/run-usage.js";

/** How a `StepTranslator` turns steps into events: its ids, how subagents and builtin calls show, structured output. */
export interface StepTranslatorOptions {
  /** Mints every id the translator needs; defaults to random UUIDs. Inject `sequentialIds()` in tests. */
  ids?: IdGenerator;
  /**
   * How a subagent shows: `"subagent"` (default) brackets it with SUBAGENT_STARTED / SUBAGENT_FINISHED
   * / SUBAGENT_ERROR and attributes its events with `subagentRunId`, as AG-UI 1.0 specifies;
   * `"step"` brackets it with STEP_STARTED / STEP_FINISHED for clients older than 1.0.
   */
  subagentEvents?: "subagent" | "step";
  /** Where a `finish` step's structured output goes: `"state"` (default, STATE_SNAPSHOT/DELTA) or `"custom"`. */
  structuredOutput?: "state" | "custom";
  /**
   * In `"state"` mode, merge structured output into the client's state under this key (a STATE_DELTA
   * `add`) instead of replacing the whole state with it. Default: replace.
   */
  structuredOutputKey?: string;
  /**
   * `"hide"` keeps built-in tool calls (`invoke_subagent` included) out of the stream; MCP calls and
   * subagent brackets still show. Default `"show"`.
   */
  builtinToolCalls?: "show" | "hide";
  /** The longest TOOL_CALL_ARGS delta; longer argument members are cut. Default 256. */
  maxArgumentDeltaLength?: number;
  /** Labels of the TokenUsage entries, and the totals already spent before this translator existed. */
  usage?: UsageLabels & { baseline?: CumulativeUsage };
  /**
   * Called when a subagent trajectory starts while several `invoke_subagent` calls wait for theirs:
   * the harness does not say which call started which, so none is linked (no guess) and the
   * trajectory is announced on its own. Meant for a warning in the host's log.
   */
  onUnmatchedSubagent?: (unmatched: UnmatchedSubagent) => void;
  /**
   * The conversation's custom subagents: SUBAGENT_STARTED of one of them carries its `description`
   * (its `name` is the one its invocation gives).
   */
  subagents?: ReadonlyArray<{ name: string; description?: string | undefined }>;
}

/** A subagent trajectory that could not be matched to the call that started it. */
export interface UnmatchedSubagent {
  /** The subagent's trajectory, announced without a link to the call that started it. */
  trajectoryId: string;
  /** The calls any of which may have started it. */
  candidateToolCallIds: string[];
}

/**
 * The CUSTOM event name of structured output in `structuredOutput: "custom"` mode.
 *
 * @example
 * if (event.type === EventType.CUSTOM && event.name === STRUCTURED_OUTPUT_EVENT_NAME) show(event.value);
 */
export const STRUCTURED_OUTPUT_EVENT_NAME = "antigravity.structured_output";

export interface ResolvedOptions {
  ids: IdGenerator;
  subagentEvents: "subagent" | "step";
  structuredOutput: "state" | "custom";
  structuredOutputKey: string | undefined;
  showBuiltinToolCalls: boolean;
  maxArgumentDeltaLength: number;
  onUnmatchedSubagent: ((unmatched: UnmatchedSubagent) => void) | undefined;
  /** Descriptions of the custom subagents, by name. */
  subagentDescriptions: ReadonlyMap<string, string>;
}

/** Options come from JavaScript callers and configuration files too, so every value is checked. */
export function resolveOptions(options: StepTranslatorOptions): ResolvedOptions {
  const subagentEvents = oneOf("subagentEvents", options.subagentEvents, ["subagent", "step"] as const);
  const structuredOutput = oneOf("structuredOutput", options.structuredOutput, ["state", "custom"] as const);
  const builtinToolCalls = oneOf("builtinToolCalls", options.builtinToolCalls, ["show", "hide"] as const);
  const maxArgumentDeltaLength = options.maxArgumentDeltaLength ?? 256;
  // Two code units is the least that can hold a surrogate pair, so a cut can always make progress.
  if (!Number.isSafeInteger(maxArgumentDeltaLength) || maxArgumentDeltaLength < 2) {
    throw new TranslatorError("CONFIG_INVALID", `maxArgumentDeltaLength must be an integer of at least 2, got ${String(maxArgumentDeltaLength)}.`);
  }
  if (options.onUnmatchedSubagent !== undefined && typeof options.onUnmatchedSubagent !== "function") {
    throw new TranslatorError("CONFIG_INVALID", "onUnmatchedSubagent must be a function.");
  }
  if (options.structuredOutputKey !== undefined && (typeof options.structuredOutputKey !== "string" || options.structuredOutputKey.length === 0)) {
    throw new TranslatorError("CONFIG_INVALID", `structuredOutputKey must be a non-empty string, got ${JSON.stringify(options.structuredOutputKey)}.`);
  }
  if (options.structuredOutputKey === "__proto__") {
    // AG-UI clients apply patches with fast-json-patch's prototype guard, which refuses this path.
    throw new TranslatorError("CONFIG_INVALID", 'structuredOutputKey cannot be "__proto__": no client would accept a patch at that path.');
  }
  return {
    ids: options.ids ?? randomIds(),
    subagentEvents,
    structuredOutput,
    structuredOutputKey: options.structuredOutputKey,
    showBuiltinToolCalls: builtinToolCalls === "show",
    maxArgumentDeltaLength,
    onUnmatchedSubagent: options.onUnmatchedSubagent,
    subagentDescriptions: subagentDescriptionsOf(options.subagents),
  };
}

function subagentDescriptionsOf(subagents: StepTranslatorOptions["subagents"]): ReadonlyMap<string, string> {
  if (subagents === undefined) return new Map();
  if (!Array.isArray(subagents)) throw new TranslatorError("CONFIG_INVALID", "subagents must be an array of { name, description }.");
  const descriptions = new Map<string, string>();
  for (const subagent of subagents) {
    if (typeof subagent?.name !== "string") throw new TranslatorError("CONFIG_INVALID", "every subagent needs a string name.");
    if (typeof subagent.description === "string" && subagent.description !== "") descriptions.set(subagent.name, subagent.description);
  }
  return descriptions;
}

function oneOf<Value extends string>(name: string, value: Value | undefined, allowed: readonly Value[]): Value {
  if (value === undefined) return allowed[0] as Value;
  if (!allowed.includes(value)) {
    throw new TranslatorError("CONFIG_INVALID", `${name} must be one of ${allowed.map((item) => `"${item}"`).join(", ")}, got ${JSON.stringify(value)}.`);
  }
  return value;
}
