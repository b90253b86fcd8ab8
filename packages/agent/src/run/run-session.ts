import { EventType, type AGUIEvent, type RunAgentInput } from "@ag-ui/client";
import { HarnessError, type NormalizedStep, type UserInputPart } from "@ag-ui-antigravity/harness";
import type { RunItem } from "@ag-ui-antigravity/hitl";
import type { AntigravitySession } from "../sessions/antigravity-session.js";
import { cumulativeUsageOf, runFinished, runStarted } from "./run-events.js";
import { carriesAnswers, planRun, transcriptPlan } from "./run-input.js";
import { toRunError } from "./run-error.js";
import { StepFailure } from "./step-failure.js";
import { AgentError } from "../errors/agent-error.js";
import { eventsOfHookNote, isHookNote } from "../hooks/hook-notes.js";
import { contentText } from "../input/prompt-parts.js";
import { boundedSummary } from "../threads/store/record-policy.js";
import type { ThreadSummary } from "../threads/store/thread-store.js";

export interface RunSessionOptions {
  session: AntigravitySession;
  input: RunAgentInput;
  /** Aborted when the client goes away; a turn parked on a human stays parked. */
  signal: AbortSignal;
  /** Marks the session as used, so a long run is not swept. */
  touch(): void;
  log(level: "info" | "warn" | "error", details: Record<string, unknown>, message: string): void;
  /** A server-initiated turn's prompt (`notify`): sent as the turn's input instead of new user messages. */
  injected?: UserInputPart[];
}

/** How a run came to be: a client's run, or a turn the server started. */
export interface RunOrigin {
  /** The prompt of a server-initiated turn (`notify`), sent instead of new user messages. */
  injected?: UserInputPart[];
  serverInitiated?: boolean;
}

/** Takes a run's events in order, as they are produced (synchronously: it must not throw). */
export type EmitEvent = (event: AGUIEvent) => void;

/**
 * One AG-UI run on a thread's session: its events go to `emit` as they are produced, with exactly
 * one terminal event. Pushed rather than yielded: every event of a burst would otherwise pass
 * through an async generator per layer (run, agent, observable), each with its own promises and
 * iterator results for the collector to chase. Resolves when the run has ended.
 *
 * Refusals decided from the request and the session (the client's answers do not apply, the
 * history diverged, the answered turn is gone) come as a lone RUN_ERROR *before* RUN_STARTED, so the
 * HTTP binding can answer with a 4xx instead of a stream. A run that brings new input to a session
 * whose harness conversation is not open yet says RUN_STARTED before waiting for it (a harness
 * process may have to start: seconds), so its client sees progress at once; that open failing
 * (SPAWN_FAILED, HANDSHAKE_FAILED, OPEN_FAILED, …) then ends the run with a streamed RUN_ERROR. Once
 * RUN_STARTED is out, a failure closes what is open and ends the run with RUN_ERROR.
 */
export async function runSession(options: RunSessionOptions, emit: EmitEvent): Promise<void> {
  const { session, input, signal } = options;
  const translator = session.translator;
  let hitlRun;
  let plan;
  let started = false;
  try {
    plan =
      options.injected === undefined
        ? planRun({ input, forwarded: session.forwarded, turnInProgress: session.hasTurn, checked: session.checkedHistory })
        : { prompt: options.injected, forwarded: [...session.forwarded], rebuild: false };
    if (plan.rebuild) await session.dropConversation({ forgetId: true });
    const cold = session.conversation === undefined;
    // A full pool is said before RUN_STARTED (an HTTP 503 with Retry-After), never by a stream that
    // then waits; the pool still bounds the wait of a run that met it a moment later.
    if (cold && !session.hasConversationRoom()) {
      throw new AgentError("CAPACITY_EXHAUSTED", "The server has no room for another conversation right now; retry shortly.");
    }
    // Decided before the open: a conversation opened anew holds none of the thread's parked turns.
    if (cold && plan.prompt === undefined) refuseAnswerToLostTurn(input, session.bridge.parkedIds);
    // Only waiting for the conversation is left. A run carrying answers keeps its refusals (the
    // bridge's, after the open) as HTTP errors; a notification keeps its refusal as NOTIFY_REFUSED.
    if (cold && plan.prompt !== undefined && options.injected === undefined && !carriesAnswers(input)) {
      emit(runStarted(input));
      started = true;
    }
    await session.openConversation(input.tools, { signal });
    if (session.historyLost) {
      session.historyLost = false;
      if (!plan.rebuild && !session.hasTurn) plan = transcriptPlan(input, "lost");
    }
    hitlRun = session.bridge.beginRun(input, {
      ...(plan.prompt === undefined ? {} : { newInput: plan.prompt }),
      startTurn: (parts, context) => session.startTurn(parts, context),
    });
  } catch (error) {
    const mapped = toRunError(error);
    if (mapped.harnessLost) session.harnessLost = true;
    const aborted = started && signal.aborted;
    options.log(
      "warn",
      { threadId: input.threadId, runId: input.runId, correlationId: mapped.correlationId, error },
      started ? "run failed while its conversation opened" : "run refused before it started",
    );
    emit(aborted ? { type: EventType.RUN_ERROR, code: "CANCELLED", message: "The run was cancelled." } : mapped.event);
    return;
  }

  // The harness starts on the turn while RUN_STARTED is encoded and written; its steps are read
  // below, so the client still sees RUN_STARTED first.
  hitlRun.startTurn();
  if (!started) emit(runStarted(input));
  // The conversation was rebuilt from the client's history: that history is now the thread's
  // transcript, said as a snapshot so every client (and a later `connect`) holds the same one.
  if (plan.rebuild) emit({ type: EventType.MESSAGES_SNAPSHOT, messages: input.messages });
  translator.startRun();
  session.markParked(false);
  const pendingForwarded = plan.prompt === undefined ? undefined : plan.forwarded;
  // The thread's first prompt names it in its owner's thread list (its id, its first user message).
  if (session.summary === undefined && pendingForwarded !== undefined && options.injected === undefined) session.summary = summaryOf(input);
  if (pendingForwarded !== undefined) session.recordPrompt(pendingForwarded);
  let delivered = false;
  // Synchronous: it runs for every step of a burst, and an async function's promise and await per
  // step would be garbage for nothing (it waits on nothing).
  const deliver = (): void => {
    // A prompt counts as forwarded once the harness has taken it, so a failed send can be retried.
    if (delivered || pendingForwarded === undefined) return;
    delivered = true;
    session.forwarded = pendingForwarded;
    // Not awaited, and begun only once this tick's events are out: the store writes each thread's
    // changes in order and never fails a run, so the stream need not wait on the disk or on Redis
    // (the session's close waits for its last write; the record of a conversation just opened or
    // adopted is awaited below).
    session.rememberInBackground();
  };

  // The last model-call error of the turn: if the harness then fails the turn, it names the cause.
  let lastModelError: StepFailure | undefined;
  try {
    for await (const item of hitlRun.items({ signal })) {
      options.touch();
      if (item.type === "step") {
        deliver();
        if (isModelError(item.step)) lastModelError = new StepFailure(item.step);
      }
      emitEventsOf(item, session, emit);
      if (session.subagentEnds.length > 0) emitSubagentEnds(session, emit);
    }
    if (signal.aborted) throw Object.assign(new Error("The client disconnected."), { name: "AbortError" });
    const conclusion = hitlRun.finish();
    session.markParked(conclusion.type !== "completed");
    const conversation = session.conversation;
    if (conversation !== undefined) translator.recordUsage(cumulativeUsageOf(conversation.usage));
    emitSubagentEnds(session, emit);
    if (conclusion.type === "interrupt" && conclusion.stateSnapshot !== undefined) {
      emit({ type: EventType.STATE_SNAPSHOT, snapshot: conclusion.stateSnapshot });
    }
    emitAll(translator.closeRun(), emit);
    if (conclusion.type === "completed") deliver();
    // The record of a conversation opened or adopted for this run (written while the turn ran) is
    // stored before its client sees the turn end.
    await session.recorded();
    emit(
      runFinished({
        threadId: input.threadId,
        runId: input.runId,
        usage: translator.settleRun(),
        ...(conclusion.type === "interrupt" ? { outcome: { type: "interrupt" as const, interrupts: conclusion.interrupts } } : {}),
      }),
    );
  } catch (error) {
    hitlRun.finish();
    session.markParked(session.isParked);
    const closing = translator.closeRun();
    if (lastModelError !== undefined && HarnessError.isInstance(error) && error.code === "TURN_FAILED") {
      options.log("warn", { threadId: input.threadId, runId: input.runId, error }, "the model call failed");
      emitAll(closing, emit);
      emit(lastModelError.runError());
      return;
    }
    const aborted = signal.aborted;
    const mapped = toRunError(error);
    if (mapped.harnessLost) {
      session.harnessLost = true;
      options.log("warn", { threadId: input.threadId, correlationId: mapped.correlationId }, "the thread's harness conversation was lost; the next run rebuilds it (history may be lost upstream)");
    }
    options.log(aborted ? "info" : "error", { threadId: input.threadId, runId: input.runId, correlationId: mapped.correlationId, error }, aborted ? "run cancelled by the client" : "run failed");
    emitAll(closing, emit);
    emit(aborted ? { type: EventType.RUN_ERROR, code: "CANCELLED", message: "The run was cancelled." } : mapped.event);
  }
}

/** What a thread list shows of the thread this run starts: its id and its first user message, bounded. */
function summaryOf(input: RunAgentInput): ThreadSummary | undefined {
  const first = input.messages.find((message) => message.role === "user");
  return boundedSummary({ threadId: input.threadId, ...(first === undefined ? {} : { firstUserMessage: contentText(first.content) }) });
}

/**
 * A run that only answers a frontend tool call, on a conversation this process had to open again:
 * the harness turn that waited for the answer lived in a process that is gone (a replica killed,
 * a restart, an evicted session). Delivering nothing would be a silent empty success, so the run is
 * refused with a code that names the cause; the client's next message continues the thread.
 */
function refuseAnswerToLostTurn(input: RunAgentInput, parkedIds: readonly string[]): void {
  const last = input.messages.at(-1);
  if (last?.role !== "tool" || parkedIds.includes(last.toolCallId)) return;
  throw new AgentError(
    "PARKED_TURN_LOST",
    "The turn waiting for this tool result is gone (the server that held it stopped or let it go), so the result cannot be delivered. Send a new message to continue the thread.",
  );
}

function emitEventsOf(item: RunItem, session: AntigravitySession, emit: EmitEvent): void {
  const translator = session.translator;
  switch (item.type) {
    case "step": {
      const step: NormalizedStep = item.step;
      if (step.tool?.kind === "custom" && session.hostToolNames.has(step.tool.name)) {
        // The bridge reports host tool calls and their results itself; a mirror step would only
        // duplicate them. Except a call that never ran because it was refused (a denied approval, a
        // policy): nobody else reports that, and the client's card must not wait forever.
        if (step.status === "error" && step.tool.callId !== undefined) {
          emitAll(translator.toolCall({ toolCallId: step.tool.callId, toolCallName: step.tool.name, arguments: step.tool.arguments }), emit);
          // A refusal is not an execution error: say plainly that the call did not run, and why.
          emitAll(translator.refuseCall({ toolCallId: step.tool.callId, toolName: step.tool.name, reason: step.error?.message ?? "" }), emit);
        }
        return;
      }
      emitAll(translator.translate(step), emit);
      return;
    }
    case "turn-ended": {
      const conversation = session.conversation;
      if (conversation !== undefined) translator.recordUsage(cumulativeUsageOf(conversation.usage));
      emitAll(translator.settleUnreportedCalls(), emit);
      translator.reset();
      return;
    }
    case "tool-call":
      emitAll(translator.toolCall({ toolCallId: item.toolCallId, toolCallName: item.toolName, arguments: item.arguments }), emit);
      return;
    case "tool-denied":
      // The bridge denied it, so the card is closed from that knowledge, not from whatever the
      // harness reports next (docs/protocol.md, "Assumptions and how we hedge them").
      if (session.hostToolNames.has(item.toolName)) {
        emitAll(translator.toolCall({ toolCallId: item.toolCallId, toolCallName: item.toolName, arguments: item.arguments }), emit);
      }
      emitAll(translator.refuseCall({ toolCallId: item.toolCallId, toolName: item.toolName, reason: item.reason }), emit);
      return;
    case "tool-result":
      emitAll(translator.toolCallResult(
        item.failed ? { toolCallId: item.toolCallId, errorMessage: item.content } : { toolCallId: item.toolCallId, output: item.content },
      ), emit);
      return;
    case "interrupt":
      // The interrupt travels in RUN_FINISHED's outcome. An approval of a host tool shows its pending
      // call now, so the client can render what it is asked to approve; when the call then runs, the
      // translator recognises the id and does not start it twice.
      if (item.approval !== undefined && session.hostToolNames.has(item.approval.toolName)) {
        emitAll(translator.toolCall({ toolCallId: item.approval.toolCallId, toolCallName: item.approval.toolName, arguments: item.approval.arguments }), emit);
      }
      return;
    case "state":
      // The translator owns the base the client was sent, whoever changes the state.
      emitAll(translator.updateState(item.state), emit);
      return;
    case "relayed":
      // What a harness hook told the agent, where it came between the turn's steps.
      if (isHookNote(item.note)) emitAll(eventsOfHookNote(translator, item.note), emit);
      return;
  }
}

/** A failed model call (an error step of the main trajectory that is not a tool's failure). */
function isModelError(step: NormalizedStep): boolean {
  return step.status === "error" && step.isMainTrajectory && step.tool === undefined && step.error !== undefined;
}

function emitSubagentEnds(session: AntigravitySession, emit: EmitEvent): void {
  for (const end of session.subagentEnds.splice(0)) emitAll(session.translator.finishSubagent(end), emit);
}

function emitAll(events: readonly AGUIEvent[], emit: EmitEvent): void {
  for (const event of events) emit(event);
}
