import type { CompactionHookArgs, ConversationHooks, PreToolHookResult, StopHookArgs, StopHookResult } from "@ag-ui-antigravity/harness";
import { scheduleRequestOf } from "@ag-ui-antigravity/translator";
import type { AgentCompactionArgs, AgentStopArgs } from "../agent-options.js";
import type { HookNote } from "./hook-notes.js";

/** Defaults of the `maxContinuations` and `scheduleLimits` options. */
export const DEFAULT_MAX_CONTINUATIONS = 3;
export const DEFAULT_MAX_PENDING_SCHEDULES = 5;
export const DEFAULT_MAX_SCHEDULE_DELAY_MS = 24 * 60 * 60 * 1_000;

/** The harness tools whose hooks the agent reads: the task list, schedules, subagents' names. */
const OBSERVED_TOOLS = new Set(["manage_task", "schedule", "invoke_subagent", "start_subagent"]);

/** What the agent adds to a thread's conversation hooks, decided once per agent (and harness release). */
export interface ObserverSettings {
  /** The host's STOP hook (`onStop`, or `hooks.stop`, which reads the harness's own arguments), when it has one. */
  onStop: ((args: AgentStopArgs, harnessArgs: StopHookArgs) => StopHookResult | void | Promise<StopHookResult | void>) | undefined;
  maxContinuations: number;
  /** The host's compaction observers (`onCompaction` and `hooks.onCompaction`), when it has any. */
  onCompaction: ((args: AgentCompactionArgs, harnessArgs: CompactionHookArgs) => void | Promise<void>) | undefined;
  /** Whether the harness's release has the ON_COMPACTION hook (0.1.14+): the summary reaches the client then. */
  compactionHook: boolean;
  /** Whether the agent reads tool hooks (it enabled `manage_task`, `schedule` or subagents). */
  observeTools: boolean;
  maxPendingSchedules: number;
  maxScheduleDelayMs: number;
  now(): number;
}

/** The thread a conversation's hooks serve, and where what they learn goes. */
export interface ObservedThread {
  readonly threadId: string;
  /** Delivers a note to whoever relays the turn it came from, in order with its steps. */
  relay(note: HookNote): void;
  /** Scheduled turns this thread has waiting (the `schedule` calls that ran, less the turns the harness started since). */
  readonly pendingSchedules: number;
  /** Counts a `schedule` call that ran: one more turn waits to come due. */
  noteScheduled(): void;
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * The conversation's hooks with the agent's observers around them: the STOP hook (bounded
 * continuations, each said to the client), the ON_COMPACTION hook (the summary), and the tool hooks
 * of the harness tools whose structured channel they are (`manage_task` and `schedule` steps carry
 * no action field; an `invoke_subagent` step carries no name). A `schedule` call beyond the
 * `scheduleLimits` is refused by the pre-tool hook; everything else is only watched.
 *
 * The pre-tool hook added here allows everything it does not refuse, so it is no safety gate: the
 * agent applies the harness's safety gate to its own configuration, without it, when it is built.
 */
export function withObservers(hooks: ConversationHooks, settings: ObserverSettings, thread: ObservedThread): ConversationHooks {
  const observed: ConversationHooks = { ...hooks };
  delete observed.stop;
  delete observed.onCompaction;
  const onStop = settings.onStop;
  if (onStop !== undefined) observed.stop = (args) => stopHook(onStop, settings.maxContinuations, thread, args);
  if (settings.compactionHook) {
    const onCompaction = settings.onCompaction;
    observed.onCompaction = async (args) => {
      thread.relay({ kind: "compaction", note: { trajectoryId: args.trajectoryId, stepIndex: args.stepIndex, summary: args.summary } });
      await onCompaction?.({ threadId: thread.threadId, summary: args.summary }, args);
    };
  }
  if (!settings.observeTools) return observed;
  const userGate = hooks.preTool;
  // Without a host gate the harness client denies a call a `confirm` policy asks about; this hook,
  // there only to watch, must not turn that into an allow.
  const gate: NonNullable<ConversationHooks["preTool"]> =
    userGate ??
    ((args) =>
      args.reason === "policy-confirm" ? { decision: "deny", reason: `${args.toolName} requires confirmation and no pre-tool hook is configured` } : { decision: "allow" });
  observed.preTool = async (args) => {
    if (!OBSERVED_TOOLS.has(args.toolName)) return (await gate(args)) ?? { decision: "allow" };
    const refusal = args.toolName === "schedule" ? scheduleRefusal(args.arguments, settings, thread) : undefined;
    if (refusal !== undefined) {
      thread.warn({ threadId: thread.threadId, reason: refusal }, "a schedule call was refused by scheduleLimits");
      return { decision: "deny", reason: refusal };
    }
    thread.relay({ kind: "tool", note: { phase: "pre", ...callOf(args), arguments: args.arguments } });
    const decision: PreToolHookResult = (await gate(args)) ?? { decision: "allow" };
    return decision;
  };
  const postTool = hooks.postTool;
  observed.postTool = async (args) => {
    if (OBSERVED_TOOLS.has(args.toolName)) {
      if (args.toolName === "schedule" && args.error === "") thread.noteScheduled();
      thread.relay({ kind: "tool", note: { phase: "post", ...callOf(args), result: args.result, error: args.error } });
    }
    await postTool?.(args);
  };
  return observed;
}

/** Asks the host, within the bound, and tells the client each time the agent is made to go on. */
async function stopHook(
  onStop: NonNullable<ObserverSettings["onStop"]>,
  maxContinuations: number,
  thread: ObservedThread,
  args: StopHookArgs,
): Promise<StopHookResult> {
  // A budget or the quota stops the agent whatever the answer: the host is still told.
  const forced = args.stopReason !== undefined;
  if (!forced && args.continuationCount >= maxContinuations) {
    thread.warn({ threadId: thread.threadId, maxContinuations }, "the agent stops: onStop made it go on as many times as maxContinuations allows");
    return { decision: "stop" };
  }
  const verdict = await onStop(
    {
      threadId: thread.threadId,
      responseText: args.responseText,
      continuationCount: args.continuationCount,
      ...(args.stopReason === undefined ? {} : { stopReason: args.stopReason }),
    },
    args,
  );
  if (verdict?.decision !== "continue" || forced) return { decision: "stop" };
  const reason = typeof verdict.reason === "string" ? verdict.reason : "";
  thread.relay({ kind: "continuation", note: { continuation: args.continuationCount + 1, reason, maxContinuations } });
  return { decision: "continue", reason };
}

/** Why a `schedule` call is refused, or undefined when it is within the thread's limits. */
function scheduleRefusal(argumentsOf: Record<string, unknown>, settings: ObserverSettings, thread: ObservedThread): string | undefined {
  if (thread.pendingSchedules >= settings.maxPendingSchedules) {
    return `This thread already has ${thread.pendingSchedules} scheduled turns waiting, as many as this server allows; do the work now or ask the user.`;
  }
  const request = scheduleRequestOf(argumentsOf);
  const dueAt = request.at === undefined ? Number.NaN : Date.parse(request.at);
  const delayMs = request.delayMs ?? (Number.isNaN(dueAt) ? undefined : dueAt - settings.now());
  if (delayMs !== undefined && delayMs > settings.maxScheduleDelayMs) {
    return `A turn can be scheduled at most ${durationText(settings.maxScheduleDelayMs)} ahead on this server.`;
  }
  return undefined;
}

function durationText(milliseconds: number): string {
  if (milliseconds < 1_000) return `${milliseconds} ms`;
  if (milliseconds < 120_000) return `${Math.round(milliseconds / 1_000)} seconds`;
  if (milliseconds < 7_200_000) return `${Math.round(milliseconds / 60_000)} minutes`;
  return `${Math.round(milliseconds / 3_600_000)} hours`;
}

function callOf(args: { toolName: string; callId?: string; trajectoryId?: string; stepIndex?: number }): { toolName: string; callId?: string; trajectoryId?: string; stepIndex?: number } {
  return {
    toolName: args.toolName,
    ...(args.callId === undefined ? {} : { callId: args.callId }),
    ...(args.trajectoryId === undefined ? {} : { trajectoryId: args.trajectoryId }),
    ...(args.stepIndex === undefined ? {} : { stepIndex: args.stepIndex }),
  };
}
