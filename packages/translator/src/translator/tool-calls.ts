import type { AGUIEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import type { NormalizedStep, StepToolCall } from "@ag-ui-antigravity/harness";
import type { ToolHookNote } from "../activity/harness-notes.js";
import { TranslatorError } from "../errors/translator-error.js";
import { argumentDeltas } from "../tools/tool-arguments.js";
import { type ToolOutcome, toolResultContent } from "../tools/tool-result.js";
import type { MessageBlocks } from "./message-blocks.js";
import { addedFields, namedToolCall, type StepProgress, withAttribution } from "./step-helpers.js";
import type { SubagentBrackets } from "./subagent-brackets.js";
import type { SubagentLinks } from "./subagent-links.js";
import type { ResolvedOptions } from "./translator-options.js";
import type { CallRecord, NamedCall, Scope, StepRecord, TurnMemory } from "./turn-memory.js";

/** A tool call the host executes (a server tool or a frontend tool), which the harness reports no result for. */
export interface HostToolCall {
  /** The harness `toolCall.id`, so a later mirror step of the same call is recognised. */
  toolCallId: string;
  /** The tool's name as the host declared it (a server tool or one of the client's tools); TOOL_CALL_START's `toolCallName`. */
  toolCallName: string;
  /** The call's arguments as the harness sent them, streamed to the client as TOOL_CALL_ARGS. */
  arguments: Record<string, unknown>;
  /** The trajectory that made the call, when known: a subagent's call is attributed to it. Default: main. */
  trajectoryId?: string;
}

/** The outcome of a host tool call: what it returned, or why it failed. */
export type HostToolResult =
  | { toolCallId: string; output: unknown }
  | { toolCallId: string; errorMessage: string };

/**
 * The tool calls of a turn, from the card's first event to its result: the harness's own calls
 * (built-in, MCP, subagent), started from their steps, and the host's (server and frontend tools).
 * It owns the rules every call follows whoever started it: a call id is emitted once, a call is
 * started whole (START, ARGS, END at once) and settled once, a hidden built-in emits nothing but
 * still brackets its subagent, and which id a call step's card has when a hook or an approval
 * named it before its step showed. It is apart from the step translator because hosts, hooks and
 * the end of a turn settle calls too, not only steps. The calls themselves live in the turn's
 * memory (TurnMemory.calls), which only this adds to.
 */
export class ToolCalls {
  readonly #turn: TurnMemory;
  readonly #options: Pick<ResolvedOptions, "ids" | "showBuiltinToolCalls" | "maxArgumentDeltaLength" | "subagentEvents">;
  readonly #blocks: MessageBlocks;
  readonly #subagents: SubagentBrackets;
  readonly #links: SubagentLinks;

  constructor(
    turn: TurnMemory,
    options: Pick<ResolvedOptions, "ids" | "showBuiltinToolCalls" | "maxArgumentDeltaLength" | "subagentEvents">,
    pieces: { blocks: MessageBlocks; subagents: SubagentBrackets; links: SubagentLinks },
  ) {
    this.#turn = turn;
    this.#options = options;
    this.#blocks = pieces.blocks;
    this.#subagents = pieces.subagents;
    this.#links = pieces.links;
  }

  /**
   * Starts a host-side call (always shown): TOOL_CALL_START inside the scope's current assistant
   * message, its arguments as TOOL_CALL_ARGS deltas, and TOOL_CALL_END.
   */
  startHost(call: HostToolCall, scope: Scope): AGUIEvent[] {
    const events: AGUIEvent[] = [];
    this.#startCall({ toolCallId: call.toolCallId, toolCallName: call.toolCallName, argumentsOf: call.arguments, scope, shown: true }, events);
    return events;
  }

  /**
   * The TOOL_CALL_RESULT of a host-side call started in this turn (`startHost()`), possibly in a
   * later run. A failure is stated in words; a second result for the same call gives nothing.
   */
  settleHost(result: HostToolResult): AGUIEvent[] {
    const call = this.#turn.calls.get(result.toolCallId);
    if (call === undefined) {
      throw new TranslatorError("UNKNOWN_TOOL_CALL", `No tool call with id "${result.toolCallId}" was started in this turn.`);
    }
    if (call.settled) return [];
    const events: AGUIEvent[] = [];
    const outcome: ToolOutcome =
      "errorMessage" in result
        ? { toolName: call.toolCallName, errorMessage: result.errorMessage }
        : { toolName: call.toolCallName, output: result.output };
    this.#settleCall(call, outcome, events);
    return events;
  }

  /**
   * Closes a call the host refused (the user denied it, so it never ran) with TOOL_CALL_RESULT
   * `Not run: <reason>`: the call with this id, else the one unsettled call of that tool in this
   * turn (a built-in's card carries the harness step's identity, not the hook's call id). Nothing
   * when no such call was started (no card was shown), when it is settled already, or when several
   * unsettled calls of that tool leave it unclear which one was refused: those are settled by the
   * harness's own report of each. A later report of a refused call adds nothing.
   */
  refuse(refusal: { toolCallId: string; toolName: string; reason: string }): AGUIEvent[] {
    const byId = this.#turn.calls.get(refusal.toolCallId);
    const candidates = byId === undefined ? [...this.#turn.calls.values()].filter((call) => !call.settled && call.toolCallName === refusal.toolName) : [byId];
    const call = candidates.length === 1 ? candidates[0] : undefined;
    if (call === undefined || call.settled) return [];
    const events: AGUIEvent[] = [];
    const reason = refusal.reason.trim();
    this.#settleCall(call, { toolName: call.toolCallName, output: reason === "" ? "Not run: the call was refused." : `Not run: ${reason}` }, events);
    return events;
  }

  /**
   * The harness turn has ended (before the turn is retired): closes the harness's own calls
   * (built-in, MCP, subagent) it never reported an end for, so no card waits forever. A call the
   * harness refused and reported in a shape we do not read, or not at all, ends up here
   * (docs/protocol.md, "Assumptions and how we hedge them"). Host calls are the host's to settle.
   */
  settleUnreported(): AGUIEvent[] {
    const events: AGUIEvent[] = [];
    for (const call of this.#turn.calls.values()) {
      if (call.settled || call.fromHarness !== true) continue;
      this.#settleCall(call, { toolName: call.toolCallName, output: `No result: the harness ended the turn without reporting how \`${call.toolCallName}\` ended.` }, events);
    }
    return events;
  }

  /** The call a step made, started on its first sight (undefined when the host owns it). */
  ofStep(tool: StepToolCall, record: StepRecord, scope: Scope, events: AGUIEvent[], stepKey: string): CallRecord | undefined {
    const known = record.toolCallId === undefined ? undefined : this.#turn.calls.get(record.toolCallId);
    if (known !== undefined) return known;
    // A call the host already emitted under the harness's own id is not emitted twice.
    if (tool.callId !== undefined && this.#turn.calls.has(tool.callId)) return undefined;
    return this.#startHarnessCall(tool, record, scope, events, stepKey);
  }

  /** Settles the call a finished or failed step made, with what the step says it returned. */
  settleFromStep(step: NormalizedStep, tool: StepToolCall, progress: StepProgress, record: StepRecord, call: CallRecord, events: AGUIEvent[]): void {
    const outcome: ToolOutcome = { toolName: call.toolCallName };
    if (progress === "failed") outcome.errorMessage = step.error?.message ?? "";
    const result = tool.result ?? addedFields(tool.arguments, record.argumentKeys);
    if (result !== undefined) outcome.result = result;
    // The `mcpTool` action has no result field; the harness's step text is what the call returned.
    else if (tool.kind === "mcp" && progress !== "failed" && step.text !== "") outcome.output = step.text;
    if (call.invocation?.answer !== undefined) outcome.output = call.invocation.answer;
    else if (call.invocation?.unmatched === true && result === undefined && progress !== "failed") {
      outcome.output = "The subagent ran alongside others and the harness did not say which trajectory was this call's, so its answer is shown with its own subagent run.";
    }
    this.#settleCall(call, outcome, events);
  }

  /** The call a pre-tool hook named for this unnamed call step, as a tool call the card shows. */
  namedCallOf(step: NormalizedStep, stepKey: string): StepToolCall | undefined {
    const named = this.#turn.namedCalls.get(stepKey);
    if (named === undefined) return undefined;
    return namedToolCall(named, step.status === "done" ? step.text : "");
  }

  /**
   * A pre-tool hook named a call: an unnamed call step seen already gets its card now; one not
   * seen yet gets it when it shows. Calls whose step names its action have their card already.
   */
  nameCall(stepKey: string, note: ToolHookNote, events: AGUIEvent[]): void {
    const named: NamedCall = { toolName: note.toolName, arguments: note.arguments ?? {}, ...(note.callId === undefined || note.callId === "" ? {} : { callId: note.callId }) };
    const record = this.#turn.steps.get(stepKey);
    if (record === undefined) {
      this.#turn.namedCalls.set(stepKey, named);
      return;
    }
    if (record.unnamedCall !== true || record.finished || record.toolCallId !== undefined || note.trajectoryId === undefined) return;
    this.#turn.namedCalls.set(stepKey, named);
    const scope = this.#turn.scopes.get(note.trajectoryId);
    if (scope === undefined) return;
    this.#startHarnessCall(namedToolCall(named, ""), record, scope, events, stepKey);
  }

  /** The card id of a call step: the one it has, else the one promised, else `toolCallId` (now promised). */
  bindCallId(stepKey: string, toolCallId: string): string {
    const existing = this.#turn.steps.get(stepKey)?.toolCallId ?? this.#turn.boundCallIds.get(stepKey);
    if (existing !== undefined) return existing;
    this.#turn.boundCallIds.set(stepKey, toolCallId);
    return toolCallId;
  }

  #startHarnessCall(tool: StepToolCall, record: StepRecord, scope: Scope, events: AGUIEvent[], stepKey: string): CallRecord {
    // The id an approval of this call already gave the client, when one did (`callIdForStep`).
    const bound = this.#turn.boundCallIds.get(stepKey);
    const toolCallId = tool.callId ?? (bound !== undefined && !this.#turn.calls.has(bound) ? bound : this.#options.ids());
    record.toolCallId = toolCallId;
    record.argumentKeys = Object.keys(tool.arguments);
    // `invoke_subagent` is a built-in too: hiding built-ins hides its card, not its subagent's bracket.
    const shown = tool.kind === "mcp" || this.#options.showBuiltinToolCalls;
    if (tool.kind !== "subagent") {
      const mcpServer = tool.kind === "mcp" ? tool.serverName : undefined;
      const call = this.#startCall({ toolCallId, toolCallName: tool.name, argumentsOf: tool.arguments, scope, shown, ...(mcpServer === undefined ? {} : { mcpServer }) }, events);
      call.fromHarness = true;
      return call;
    }
    // The reference's step bracket opens before the call it wraps; a 1.0 subagent is announced by
    // the call, so it comes after the call's arguments are complete.
    const invocation = this.#links.ofCall(tool, scope, shown ? toolCallId : undefined, stepKey);
    if (this.#options.subagentEvents === "step") this.#subagents.announce(invocation, events);
    const call = this.#startCall({ toolCallId, toolCallName: tool.name, argumentsOf: tool.arguments, scope, shown }, events);
    call.fromHarness = true;
    call.invocation = invocation;
    if (shown && scope.assistantMessageId !== undefined) invocation.parentMessageId = scope.assistantMessageId;
    this.#subagents.announce(invocation, events);
    return call;
  }

  #startCall(
    start: { toolCallId: string; toolCallName: string; argumentsOf: Record<string, unknown>; scope: Scope; shown: boolean; mcpServer?: string },
    events: AGUIEvent[],
  ): CallRecord {
    const { toolCallId, toolCallName, scope, shown } = start;
    const call: CallRecord = { toolCallId, toolCallName, scope, shown, settled: false };
    this.#turn.calls.set(toolCallId, call);
    if (!shown) return call;
    const subagentRunId = this.#subagents.attribution(scope, events);
    // Reasoning that led to the call ends before it; the text that announced it stays open.
    this.#blocks.closeReasoning(scope, events);
    scope.assistantMessageId ??= this.#options.ids();
    const started: AGUIEvent = { type: EventType.TOOL_CALL_START, toolCallId, toolCallName, parentMessageId: scope.assistantMessageId };
    // AG-UI has no field for a tool's origin; the harness's own action, which names the MCP server, rides as rawEvent.
    if (start.mcpServer !== undefined) started.rawEvent = { mcpTool: { serverName: start.mcpServer, toolName: toolCallName } };
    events.push(withAttribution(started, subagentRunId));
    for (const delta of argumentDeltas(start.argumentsOf, this.#options.maxArgumentDeltaLength)) {
      events.push(withAttribution({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }, subagentRunId));
    }
    // The harness hands a call over whole, so its arguments are complete now: the call is never
    // left open across a run boundary, and an interrupt about it can follow right away.
    events.push(withAttribution({ type: EventType.TOOL_CALL_END, toolCallId }, subagentRunId));
    return call;
  }

  #settleCall(call: CallRecord, outcome: ToolOutcome, events: AGUIEvent[]): void {
    call.settled = true;
    const invocation = call.invocation;
    const subagentMode = this.#options.subagentEvents === "subagent";
    if (invocation !== undefined && subagentMode) this.#subagents.finish(invocation, outcome.errorMessage, events);
    if (call.shown) {
      const subagentRunId = this.#subagents.attribution(call.scope, events);
      events.push(withAttribution({ type: EventType.TOOL_CALL_RESULT, messageId: this.#options.ids(), toolCallId: call.toolCallId, content: toolResultContent(outcome), role: "tool" }, subagentRunId));
    }
    // The reference's step bracket closes after the result of the call it wraps.
    if (invocation !== undefined && !subagentMode) this.#subagents.finish(invocation, outcome.errorMessage, events);
  }
}
