import type { AGUIEvent } from "@ag-ui/core";
import type { StepToolCall } from "@ag-ui-antigravity/harness";
import type { IdGenerator } from "../ids/id-generator.js";
import { ActivityChannel } from "./activity-channel.js";
import { ACTIVITY_TYPES, type CompactionContent, type ContinuationContent, type ScheduleContent } from "./activity-types.js";
import type { ContinuationNote, ToolHookNote } from "./harness-notes.js";
import { LiveOutput } from "./live-output.js";
import { scheduleRequestOf } from "./schedule-arguments.js";
import { TaskList } from "./task-list.js";

/** Arguments remembered between a call's pre-tool and post-tool hook, per turn; a bound on a turn that never ends its calls. */
const MAX_REMEMBERED_CALLS = 1_000;

/**
 * The harness's live work that is not the assistant's words, as ACTIVITY_* events: the task list,
 * compactions, continuations, command output and schedules. Each activity message is a snapshot the
 * first time a run sends it, deltas after. The task list belongs to the conversation; the rest to
 * the turn.
 */
export class HarnessActivity {
  readonly #ids: IdGenerator;
  readonly #channel = new ActivityChannel();
  readonly #tasks = new TaskList();
  /** This run's task-list message: one per run that changed the list. */
  #taskMessageId: string | undefined;
  readonly #compactions = new Map<string, { messageId: string; content: CompactionContent; subagentRunId: string | undefined }>();
  readonly #outputs = new Map<string, LiveOutput>();
  readonly #callArguments = new Map<string, Record<string, unknown>>();

  constructor(ids: IdGenerator) {
    this.#ids = ids;
  }

  /** A compaction step: its activity, with the summary once `compactionSummary` brings it. */
  compactionStep(stepKey: string, text: string, subagentRunId: string | undefined): AGUIEvent[] {
    const known = this.#compactions.get(stepKey);
    if (known !== undefined) return [];
    const entry = { messageId: this.#ids(), content: { text: text === "" ? "Context compaction" : text }, subagentRunId };
    this.#compactions.set(stepKey, entry);
    return this.#channel.change(entry.messageId, ACTIVITY_TYPES.compaction, { ...entry.content }, subagentRunId);
  }

  /** The ON_COMPACTION hook's summary of the compaction at `stepKey` (its activity, made now if its step was not seen). */
  compactionSummary(stepKey: string, summary: string, subagentRunId: string | undefined): AGUIEvent[] {
    let entry = this.#compactions.get(stepKey);
    if (entry === undefined) {
      entry = { messageId: this.#ids(), content: { text: "Context compaction" }, subagentRunId };
      this.#compactions.set(stepKey, entry);
    }
    entry.content.summary = summary;
    return this.#channel.change(entry.messageId, ACTIVITY_TYPES.compaction, { ...entry.content }, entry.subagentRunId);
  }

  /** The STOP hook made the agent go on: one activity per continuation. */
  continuation(note: ContinuationNote): AGUIEvent[] {
    const content: ContinuationContent = { continuation: note.continuation, reason: note.reason };
    if (note.maxContinuations !== undefined) content.maxContinuations = note.maxContinuations;
    return this.#channel.change(this.#ids(), ACTIVITY_TYPES.continuation, { ...content });
  }

  /** A live-output builtin's step while it runs: its output so far, when there is any. */
  commandProgress(toolCallId: string, tool: StepToolCall, subagentRunId: string | undefined): AGUIEvent[] {
    const output = LiveOutput.outputOf(tool);
    if (output === undefined || output === "") return [];
    let live = this.#outputs.get(toolCallId);
    if (live === undefined) {
      live = new LiveOutput(this.#ids(), toolCallId, tool);
      this.#outputs.set(toolCallId, live);
    }
    if (!live.update(output)) return [];
    return this.#channel.change(live.messageId, ACTIVITY_TYPES.commandOutput, { ...live.content }, subagentRunId);
  }

  /** The command ended: its activity, if its output was streamed, says so. A command that streamed nothing has only its result. */
  commandEnded(toolCallId: string, tool: StepToolCall, subagentRunId: string | undefined): AGUIEvent[] {
    const live = this.#outputs.get(toolCallId);
    if (live === undefined) return [];
    this.#outputs.delete(toolCallId);
    live.finish(tool);
    return this.#channel.change(live.messageId, ACTIVITY_TYPES.commandOutput, { ...live.content }, subagentRunId);
  }

  /**
   * A tool hook: the pre-tool hook's arguments are kept for the post-tool hook, which changes the task
   * list (`manage_task`) or announces a schedule (`schedule`) once the call ran without error.
   */
  toolHook(note: ToolHookNote, toolCallId: string | undefined): AGUIEvent[] {
    const key = callKey(note);
    if (note.phase === "pre") {
      if (key !== undefined && note.arguments !== undefined) {
        if (this.#callArguments.size >= MAX_REMEMBERED_CALLS) this.#callArguments.delete(this.#callArguments.keys().next().value as string);
        this.#callArguments.set(key, note.arguments);
      }
      return [];
    }
    const argumentsOf = (key === undefined ? undefined : this.#callArguments.get(key)) ?? note.arguments ?? {};
    if (key !== undefined) this.#callArguments.delete(key);
    if (note.error !== undefined && note.error !== "") return [];
    if (note.toolName === "manage_task") {
      if (!this.#tasks.apply(argumentsOf)) return [];
      this.#taskMessageId ??= this.#ids();
      return this.#channel.change(this.#taskMessageId, ACTIVITY_TYPES.tasks, { ...this.#tasks.content });
    }
    if (note.toolName === "schedule") {
      const content: ScheduleContent = { ...scheduleRequestOf(argumentsOf) };
      if (toolCallId !== undefined) content.toolCallId = toolCallId;
      if (note.result !== undefined && note.result !== "") content.result = note.result;
      return this.#channel.change(this.#ids(), ACTIVITY_TYPES.schedule, { ...content });
    }
    return [];
  }

  /** A run begins: every activity it changes is a snapshot first, and the task list is a new message. */
  startRun(): void {
    this.#channel.startRun();
    this.#taskMessageId = undefined;
  }

  /** The turn is over: its compactions, outputs and calls are forgotten; the task list stays. */
  resetTurn(): void {
    if (this.#compactions.size > 0) this.#compactions.clear();
    if (this.#outputs.size > 0) this.#outputs.clear();
    if (this.#callArguments.size > 0) this.#callArguments.clear();
  }
}

/** Pairs a call's two hooks: by the harness's call id, else by its step. */
function callKey(note: ToolHookNote): string | undefined {
  if (note.callId !== undefined && note.callId !== "") return `id\u0000${note.callId}`;
  if (note.trajectoryId !== undefined && note.stepIndex !== undefined) return `step\u0000${note.trajectoryId}\u0000${note.stepIndex}`;
  return undefined;
}
