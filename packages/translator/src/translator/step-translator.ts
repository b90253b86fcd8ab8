import type { AGUIEvent, TokenUsage } from "@ag-ui/core";
import type { NormalizedStep, SubagentEnd } from "@ag-ui-antigravity/harness";
import { HarnessActivity } from "../activity/harness-activity.js";
import type { CompactionNote, ContinuationNote, ToolHookNote } from "../activity/harness-notes.js";
import { StateChannel } from "../state/state-channel.js";
import { type CumulativeUsage, type RunUsage, RunUsageMeter } from "../usage/run-usage.js";
import { MessageBlocks } from "./message-blocks.js";
import { type ResolvedOptions, type StepTranslatorOptions, resolveOptions } from "./translator-options.js";
import { isInputEcho, isUnnamedCall, keyOf, type StepProgress, subagentNameOf, unseen } from "./step-helpers.js";
import { deliverStructuredOutput } from "./structured-output.js";
import { SubagentBrackets } from "./subagent-brackets.js";
import { SubagentLinks } from "./subagent-links.js";
import { type HostToolCall, type HostToolResult, ToolCalls } from "./tool-calls.js";
import { type Scope, type StepRecord, TurnMemory } from "./turn-memory.js";

// The host call types live with the calls; the package has always exported them from here.
export type { HostToolCall, HostToolResult } from "./tool-calls.js";

/**
 * Translates the harness's normalized steps into AG-UI 1.0 events, for one conversation.
 *
 * Pure: no I/O, no timers, no globals; every id comes from the injected generator. Memory is scoped
 * to the turn (which may span several runs) and keyed by (trajectoryId, stepIndex); `reset()`
 * retires the turn. The run loop owns RUN_STARTED / RUN_FINISHED / RUN_ERROR: it calls `startRun()`
 * when a run begins, and `closeRun()` before its terminal event, then `settleRunUsage()` for the
 * terminal event's `usage`.
 *
 * @example
 * const translator = new StepTranslator({ ids: sequentialIds() });
 * for (const step of steps) events.push(...translator.translate(step));
 * events.push(...translator.closeRun());
 */
export class StepTranslator {
  // This class keeps the steps of the turn (how much of each was said, whether it finished) and
  // which scope each belongs to, and routes every delivery and host call to the piece that owns the
  // rest: MessageBlocks (open text and reasoning), SubagentBrackets (subagents announced in the run),
  // ToolCalls (cards and their results), SubagentLinks (which call a subagent belongs to),
  // HarnessActivity (ACTIVITY events) and deliverStructuredOutput (where structured output goes).
  readonly #options: ResolvedOptions;
  readonly #usage: RunUsageMeter;
  readonly #state = new StateChannel();
  // Cleared rather than replaced when a turn ends: the pieces below keep a reference to it.
  readonly #turn = new TurnMemory();
  readonly #blocks: MessageBlocks;
  readonly #activity: HarnessActivity;
  readonly #links: SubagentLinks;
  readonly #subagents: SubagentBrackets;
  readonly #calls: ToolCalls;

  constructor(options: StepTranslatorOptions = {}) {
    this.#options = resolveOptions(options);
    const { baseline, ...labels } = options.usage ?? {};
    this.#usage = new RunUsageMeter(labels, baseline);
    this.#blocks = new MessageBlocks(this.#options.ids);
    this.#activity = new HarnessActivity(this.#options.ids);
    this.#links = new SubagentLinks(this.#turn, this.#options);
    this.#subagents = new SubagentBrackets(this.#turn, this.#blocks, this.#options);
    this.#calls = new ToolCalls(this.#turn, this.#options, { blocks: this.#blocks, subagents: this.#subagents, links: this.#links });
  }

  /**
   * The events one delivery of a step adds. Input echoes and error steps give none (the run loop
   * turns error steps into RUN_ERROR); a step that already finished in this turn gives none again.
   */
  translate(step: NormalizedStep): AGUIEvent[] {
    // A compaction is the system's, whoever it is addressed to: never taken for an input echo.
    if (isInputEcho(step) && step.kind !== "compaction") return [];
    const stepKey = keyOf(step.trajectoryId, step.stepIndex);
    const known = this.#turn.steps.get(stepKey);
    if (known?.finished) return [];
    if (step.kind === "compaction") return this.#translateCompaction(step, stepKey, known);
    const unnamedCall = isUnnamedCall(step);
    const stepTool = step.tool ?? (unnamedCall ? this.#calls.namedCallOf(step, stepKey) : undefined);
    const failed = step.status === "error" || step.kind === "error";
    // An error step says nothing here, except to settle a call it already started with a failure.
    if (failed && (known?.toolCallId === undefined || stepTool === undefined)) return [];
    const record = known ?? this.#remember(stepKey);
    if (unnamedCall) record.unnamedCall = true;
    const scope = this.#scopeOf(step);
    const events: AGUIEvent[] = [];
    if (!failed) {
      this.#translateThinking(step, stepKey, record, scope, events);
      // An MCP step's text is what the call returned: it becomes the call's result, not assistant
      // text; so is the text of a call whose action the client does not know (`manage_task`, ...).
      if (step.tool?.kind !== "mcp" && !unnamedCall) this.#translateText(step, stepKey, record, scope, events);
    }
    const progress: StepProgress = failed ? "failed" : step.status === "done" ? "done" : "open";
    // Host-side (custom) tools are emitted by the host through toolCall(); their mirror steps are not.
    const tool = stepTool !== undefined && stepTool.kind !== "custom" ? stepTool : undefined;
    const call = tool === undefined ? undefined : this.#calls.ofStep(tool, record, scope, events, stepKey);
    if (progress === "open") {
      if (call?.shown === true && tool !== undefined) events.push(...this.#activity.commandProgress(call.toolCallId, tool, this.#subagents.attribution(scope, events)));
      return events;
    }
    // The step's own words end before what it settles: its call's result, its structured output.
    this.#blocks.closeStep(stepKey, scope, events);
    if (call !== undefined && tool !== undefined && !call.settled) {
      if (call.shown) events.push(...this.#activity.commandEnded(call.toolCallId, tool, this.#subagents.attribution(scope, events)));
      this.#calls.settleFromStep(step, tool, progress, record, call, events);
    }
    if (step.finish !== undefined && progress === "done" && !record.outputHandled) {
      record.outputHandled = true;
      deliverStructuredOutput(step.finish, scope, this.#options, this.#state, events);
    }
    const invocation = scope.invocation;
    // A subagent's last words are its answer to the parent, unless it gave structured output.
    if (progress === "done" && invocation !== undefined && !invocation.answerIsOutput && step.tool === undefined && step.text !== "") {
      invocation.answer = step.text;
    }
    record.finished = true;
    return events;
  }

  /**
   * Emits a host-side tool call: TOOL_CALL_START (inside the scope's current assistant message),
   * its arguments as TOOL_CALL_ARGS deltas, and TOOL_CALL_END. A call id already started in this
   * turn gives nothing, so a call is never emitted twice.
   */
  toolCall(call: HostToolCall): AGUIEvent[] {
    if (this.#turn.calls.has(call.toolCallId)) return [];
    return this.#calls.startHost(call, this.#scopeOfTrajectory(call.trajectoryId));
  }

  /**
   * Emits the TOOL_CALL_RESULT of a host-side call started with `toolCall()` in this turn, possibly
   * in a later run. A failure is stated in words; a second result for the same call gives nothing.
   */
  toolCallResult(result: HostToolResult): AGUIEvent[] {
    return this.#calls.settleHost(result);
  }

  /**
   * Closes a call the host refused (the user denied it, so it never ran) with TOOL_CALL_RESULT
   * `Not run: <reason>`: the call with this id, else the one unsettled call of that tool in this
   * turn (a built-in's card carries the harness step's identity, not the hook's call id). Nothing
   * when no such call was started (no card was shown), when it is settled already, or when several
   * unsettled calls of that tool leave it unclear which one was refused: those are settled by the
   * harness's own report of each. A later report of a refused call adds nothing.
   */
  refuseCall(refusal: { toolCallId: string; toolName: string; reason: string }): AGUIEvent[] {
    return this.#calls.refuse(refusal);
  }

  /**
   * What a tool hook said about a harness call (the agent relays the pre-tool and post-tool hooks):
   * the pre-tool hook names a call whose step names no action the client knows (`manage_task`,
   * `schedule`), which then gets a tool card, and an `invoke_subagent` call's subagent; the
   * post-tool hook of a `manage_task` call changes the task list (ACTIVITY `antigravity.tasks`), of
   * a `schedule` call announces it (ACTIVITY `antigravity.schedule`).
   */
  toolHook(note: ToolHookNote): AGUIEvent[] {
    const events: AGUIEvent[] = [];
    const stepKey = note.trajectoryId !== undefined && note.stepIndex !== undefined ? keyOf(note.trajectoryId, note.stepIndex) : undefined;
    if (note.phase === "pre" && stepKey !== undefined) {
      if (note.callId !== undefined && note.callId !== "") this.#calls.bindCallId(stepKey, note.callId);
      if (note.toolName === "invoke_subagent") {
        const name = subagentNameOf(note.arguments ?? {});
        if (name !== undefined) this.#turn.subagentNames.set(stepKey, name);
      } else {
        this.#calls.nameCall(stepKey, note, events);
      }
    }
    const toolCallId = stepKey === undefined ? undefined : this.#turn.steps.get(stepKey)?.toolCallId;
    events.push(...this.#activity.toolHook(note, toolCallId));
    return events;
  }

  /**
   * The id the client's card of a harness call step has, or will have: the id its card was given,
   * else `toolCallId`, which its card then takes. An approval asked about a built-in or MCP call
   * (the pre-tool hook names the call's step, harness 0.1.13+) uses it as its `toolCallId`, so the
   * client finds the card it holds. Emits nothing.
   */
  callIdForStep(call: { trajectoryId: string; stepIndex: number; toolCallId: string }): string {
    return this.#calls.bindCallId(keyOf(call.trajectoryId, call.stepIndex), call.toolCallId);
  }

  /** The STOP hook made the agent go on: ACTIVITY_SNAPSHOT `antigravity.continuation`. */
  continuation(note: ContinuationNote): AGUIEvent[] {
    return this.#activity.continuation(note);
  }

  /** The ON_COMPACTION hook's summary: the compaction's activity (`antigravity.compaction`) gains it. */
  compactionSummary(note: CompactionNote): AGUIEvent[] {
    const events: AGUIEvent[] = [];
    const scope = this.#turn.scopes.get(note.trajectoryId);
    const subagentRunId = scope === undefined ? undefined : this.#subagents.attribution(scope, events);
    events.push(...this.#activity.compactionSummary(keyOf(note.trajectoryId, note.stepIndex), note.summary, subagentRunId));
    return events;
  }

  /**
   * Call when the harness turn has ended, before `reset()`: closes the harness's own calls
   * (built-in, MCP, subagent) it never reported an end for, so no card waits forever. A call the
   * harness refused and reported in a shape we do not read, or not at all, ends up here
   * (docs/protocol.md, "Assumptions and how we hedge them"). Host calls are the host's to settle.
   */
  settleUnreportedCalls(): AGUIEvent[] {
    return this.#calls.settleUnreported();
  }

  /**
   * A subagent's trajectory ended: SUBAGENT_FINISHED (or SUBAGENT_ERROR with its `error`), or
   * STEP_FINISHED in step mode. Nothing when the subagent already finished or was never seen.
   */
  finishSubagent(end: SubagentEnd): AGUIEvent[] {
    const invocation = this.#turn.scopes.get(end.trajectoryId)?.invocation;
    if (invocation === undefined || invocation.finished) return [];
    const events: AGUIEvent[] = [];
    this.#subagents.finish(invocation, end.error, events);
    return events;
  }

  /**
   * Emits a change of the shared state (a server tool writing state, say): STATE_SNAPSHOT the
   * first time in a run, STATE_DELTA (RFC 6902) against the last state sent after that.
   */
  updateState(state: unknown): AGUIEvent[] {
    return this.#state.change(state);
  }

  /** Records the harness's latest cumulative usage totals. */
  recordUsage(totals: CumulativeUsage): void {
    this.#usage.record(totals);
  }

  /**
   * This run's token usage, for the terminal event's `usage` (empty when nothing was spent), and
   * the start of the next run's accounting. Call it once per run.
   */
  settleRunUsage(): TokenUsage[] {
    return this.#usage.settle().usage;
  }

  /**
   * `settleRunUsage()` with the run's tokens split by modality where the harness reports that
   * (harness 0.1.12+): `{ usage, byModality? }`, `byModality` a record of modality name (`TEXT`,
   * `IMAGE`, ...) to tokens for each of `input`, `output` and `cachedInput`. Call one of the two once per run.
   */
  settleRun(): RunUsage {
    return this.#usage.settle();
  }

  /**
   * A run begins. Whatever a previous run left open is forgotten without events: that stream is
   * gone (a client disconnect skips `closeRun()`), and the new run may not continue it.
   */
  startRun(): void {
    this.#beginRun();
  }

  /**
   * The run boundary: closes every open reasoning span and text message, then every subagent
   * still running (SUBAGENT_FINISHED with a `suspended` outcome, or STEP_FINISHED), so that
   * RUN_FINISHED is valid. Text that arrives later for the same step starts a new message.
   */
  closeRun(): AGUIEvent[] {
    const events: AGUIEvent[] = [];
    this.#blocks.closeAll(events);
    this.#subagents.suspendAll(events);
    this.#beginRun();
    return events;
  }

  /**
   * Retires the turn: steps, calls and subagents are forgotten, so a new turn may reuse step
   * indices. What is open in the current run stays open until `closeRun()`. Usage accounting and
   * the shared state carry over, since both belong to the conversation.
   */
  reset(): void {
    this.#turn.clear();
    this.#activity.resetTurn();
    this.#blocks.retireTurn();
  }

  #beginRun(): void {
    this.#blocks.forget();
    this.#subagents.forget();
    this.#state.startRun();
    this.#activity.startRun();
  }

  #remember(stepKey: string): StepRecord {
    const record: StepRecord = { textSeen: 0, thinkingSeen: 0, outputHandled: false, finished: false };
    this.#turn.steps.set(stepKey, record);
    return record;
  }

  #scopeOf(step: NormalizedStep): Scope {
    const existing = this.#turn.scopes.get(step.trajectoryId);
    if (existing !== undefined) return existing;
    let scope: Scope;
    if (step.isMainTrajectory) {
      // The main scope may already exist, opened by a host call before the first main step.
      scope = this.#turn.mainScope ??= { trajectoryId: step.trajectoryId };
    } else {
      scope = { trajectoryId: step.trajectoryId, invocation: this.#links.ofTrajectory(step.trajectoryId, step.parentTrajectoryId) };
    }
    this.#turn.scopes.set(step.trajectoryId, scope);
    return scope;
  }

  /** A host call's scope: the subagent whose trajectory it names, else the main agent's. */
  #scopeOfTrajectory(trajectoryId: string | undefined): Scope {
    const known = trajectoryId === undefined ? undefined : this.#turn.scopes.get(trajectoryId);
    if (known !== undefined) return known;
    // Keyed apart from any real trajectory: a named one not seen yet may turn out to be a subagent's.
    return (this.#turn.mainScope ??= { trajectoryId: "" });
  }

  /** A compaction step: an activity (never assistant text), with the summary once the hook tells it. */
  #translateCompaction(step: NormalizedStep, stepKey: string, known: StepRecord | undefined): AGUIEvent[] {
    const record = known ?? this.#remember(stepKey);
    const scope = this.#scopeOf(step);
    const events: AGUIEvent[] = [];
    const subagentRunId = this.#subagents.attribution(scope, events);
    this.#blocks.closeScope(scope, events);
    events.push(...this.#activity.compactionStep(stepKey, step.text, subagentRunId));
    if (step.status === "done" || step.status === "error") record.finished = true;
    return events;
  }

  #translateThinking(step: NormalizedStep, stepKey: string, record: StepRecord, scope: Scope, events: AGUIEvent[]): void {
    const fresh = unseen(step.thinking, step.thinkingDelta, record.thinkingSeen);
    if (fresh === "") return;
    record.thinkingSeen += fresh.length;
    this.#blocks.appendReasoning(scope, stepKey, fresh, this.#subagents.attribution(scope, events), events);
  }

  #translateText(step: NormalizedStep, stepKey: string, record: StepRecord, scope: Scope, events: AGUIEvent[]): void {
    const fresh = unseen(step.text, step.textDelta, record.textSeen);
    if (fresh === "") return;
    record.textSeen += fresh.length;
    this.#blocks.appendText(scope, stepKey, fresh, this.#subagents.attribution(scope, events), events);
  }
}
