import { EventType, type RunAgentInput } from "@ag-ui/client";
import { HarnessError, type NormalizedStep, type UserInputPart } from "@ag-ui-antigravity/harness";
import type { HitlRun } from "@ag-ui-antigravity/hitl";
import type { AntigravitySession } from "../sessions/antigravity-session.js";
import { cumulativeUsageOf, runFinished, runStarted } from "./run-events.js";
import { carriesAnswers, planRun, transcriptPlan, type RunPlan } from "./run-input.js";
import { toRunError } from "./run-error.js";
import { StepFailure } from "./step-failure.js";
import { emitAll, relayItem, relaySubagentEnds, type EmitEvent, type TurnRelayContext } from "./turn-relay.js";
import { AgentError } from "../errors/agent-error.js";
import type { ForwardedMessage } from "../input/message-fingerprint.js";
import { contentText } from "../input/prompt-parts.js";
import { boundedSummary } from "../threads/store/record-policy.js";
import type { ThreadSummary } from "../threads/store/thread-store.js";

export type { EmitEvent } from "./turn-relay.js";

/** How a run came to be: a client's run, or a turn the server started. */
export interface RunOrigin {
  /** The prompt of a server-initiated turn (`notify`), sent instead of new user messages. */
  injected?: UserInputPart[];
  serverInitiated?: boolean;
}

export interface RunOptions {
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

/**
 * One AG-UI run on a thread's session, and the owner of its state: what it brings (its plan),
 * whether RUN_STARTED is out, whether the harness took its prompt, the turn's last model error and
 * its HITL run. Its events go to `emit` as they are produced, with exactly one terminal event.
 * Pushed rather than yielded: every event of a burst would otherwise pass through an async
 * generator per layer (run, agent, observable), each with its own promises and iterator results for
 * the collector to chase.
 *
 * Refusals decided from the request and the session (the client's answers do not apply, the
 * history diverged, the answered turn is gone) come as a lone RUN_ERROR *before* RUN_STARTED, so the
 * HTTP binding can answer with a 4xx instead of a stream. A run that brings new input to a session
 * whose harness conversation is not open yet says RUN_STARTED before waiting for it (a harness
 * process may have to start: seconds), so its client sees progress at once; that open failing
 * (SPAWN_FAILED, HANDSHAKE_FAILED, OPEN_FAILED, …) then ends the run with a streamed RUN_ERROR. Once
 * RUN_STARTED is out, a failure closes what is open and ends the run with RUN_ERROR.
 */
export class Run {
  readonly #options: RunOptions;
  readonly #emit: EmitEvent;
  readonly #relay: TurnRelayContext;
  #plan: RunPlan | undefined;
  /** RUN_STARTED is out. */
  #started = false;
  /** What `forwarded` becomes once the harness takes this run's prompt; undefined when it brings none. */
  #pendingForwarded: ForwardedMessage[] | undefined;
  /** The harness took the prompt (its first step came). */
  #delivered = false;
  /** The last model-call error of the turn: if the harness then fails the turn, it names the cause. */
  #lastModelError: StepFailure | undefined;

  constructor(options: RunOptions, emit: EmitEvent) {
    this.#options = options;
    this.#emit = emit;
    const session = options.session;
    this.#relay = { translator: session.translator, usage: () => session.conversation?.usage };
  }

  /** Runs to its terminal event; resolves when the run has ended (never rejects). */
  async execute(): Promise<void> {
    const hitlRun = await this.#open();
    if (hitlRun === undefined) return;
    this.#begin(hitlRun);
    try {
      await this.#stream(hitlRun);
    } catch (error) {
      this.#fail(error, hitlRun);
    }
  }

  /** Plans the run and opens its conversation and HITL run; undefined once a refusal or a failed open was emitted. */
  async #open(): Promise<HitlRun | undefined> {
    const { session, input, signal, injected } = this.#options;
    try {
      let plan =
        injected === undefined
          ? planRun({ input, forwarded: session.forwarded, turnInProgress: session.hasTurn, checked: session.checkedHistory })
          : { prompt: injected, forwarded: [...session.forwarded], rebuild: false };
      this.#plan = plan;
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
      if (cold && plan.prompt !== undefined && injected === undefined && !carriesAnswers(input)) {
        this.#emit(runStarted(input));
        this.#started = true;
      }
      await session.openConversation(input.tools, { signal });
      if (session.takeHistoryLost() && !plan.rebuild && !session.hasTurn) {
        plan = transcriptPlan(input, "lost");
        this.#plan = plan;
      }
      return session.bridge.beginRun(input, {
        ...(plan.prompt === undefined ? {} : { newInput: plan.prompt }),
        startTurn: (parts, context) => session.startTurn(parts, context),
      });
    } catch (error) {
      const mapped = toRunError(error);
      if (mapped.harnessLost) session.markHarnessLost();
      const started = this.#started;
      const aborted = started && signal.aborted;
      this.#options.log(
        "warn",
        { threadId: input.threadId, runId: input.runId, correlationId: mapped.correlationId, error },
        started ? "run failed while its conversation opened" : "run refused before it started",
      );
      this.#emit(aborted ? cancelled() : mapped.event);
      return undefined;
    }
  }

  /** Starts the turn and says RUN_STARTED (when the open did not already). */
  #begin(hitlRun: HitlRun): void {
    const { session, input, injected } = this.#options;
    const plan = this.#plan;
    if (plan === undefined) throw new Error("the run has no plan");
    // The harness starts on the turn while RUN_STARTED is encoded and written; its steps are read
    // after, so the client still sees RUN_STARTED first.
    hitlRun.startTurn();
    if (!this.#started) this.#emit(runStarted(input));
    this.#started = true;
    // The conversation was rebuilt from the client's history: that history is now the thread's
    // transcript, said as a snapshot so every client (and a later `connect`) holds the same one.
    if (plan.rebuild) this.#emit({ type: EventType.MESSAGES_SNAPSHOT, messages: input.messages });
    session.translator.startRun();
    session.markParked(false);
    this.#pendingForwarded = plan.prompt === undefined ? undefined : plan.forwarded;
    // The thread's first prompt names it in its owner's thread list (its id, its first user message).
    if (this.#pendingForwarded !== undefined && injected === undefined) session.nameThread(() => summaryOf(input));
    if (this.#pendingForwarded !== undefined) session.recordPrompt(this.#pendingForwarded);
  }

  /**
   * A prompt counts as forwarded once the harness has taken it, so a failed send can be retried.
   * Synchronous: it runs for every step of a burst, and an async function's promise and await per
   * step would be garbage for nothing (it waits on nothing).
   */
  #deliver(): void {
    if (this.#delivered || this.#pendingForwarded === undefined) return;
    this.#delivered = true;
    this.#options.session.confirmForwarded(this.#pendingForwarded);
    // Not awaited, and begun only once this tick's events are out: the store writes each thread's
    // changes in order and never fails a run, so the stream need not wait on the disk or on Redis
    // (the session's close waits for its last write; the record of a conversation just opened or
    // adopted is awaited in `#stream`).
    this.#options.session.rememberInBackground();
  }

  /** The turn's items relayed to the client, then the run's end. */
  async #stream(hitlRun: HitlRun): Promise<void> {
    const { session, input, signal } = this.#options;
    const translator = session.translator;
    for await (const item of hitlRun.items({ signal })) {
      this.#options.touch();
      if (item.type === "step") {
        this.#deliver();
        if (isModelError(item.step)) this.#lastModelError = new StepFailure(item.step);
      } else if (item.type === "tool-call") {
        // The harness called one of the bridge's tools, so it took the prompt: the bridge no longer
        // passes on the harness's own step of that call, which used to say so first.
        this.#deliver();
      }
      relayItem(item, this.#relay, this.#emit);
      relaySubagentEnds(session.takeSubagentEnds(), translator, this.#emit);
    }
    if (signal.aborted) throw Object.assign(new Error("The client disconnected."), { name: "AbortError" });
    const conclusion = hitlRun.finish();
    session.markParked(conclusion.type !== "completed");
    const conversation = session.conversation;
    if (conversation !== undefined) translator.recordUsage(cumulativeUsageOf(conversation.usage));
    relaySubagentEnds(session.takeSubagentEnds(), translator, this.#emit);
    if (conclusion.type === "interrupt" && conclusion.stateSnapshot !== undefined) {
      this.#emit({ type: EventType.STATE_SNAPSHOT, snapshot: conclusion.stateSnapshot });
    }
    emitAll(translator.closeRun(), this.#emit);
    if (conclusion.type === "completed") this.#deliver();
    // The record of a conversation opened or adopted for this run (written while the turn ran) is
    // stored before its client sees the turn end.
    await session.recorded();
    this.#emit(
      runFinished({
        threadId: input.threadId,
        runId: input.runId,
        usage: translator.settleRun(),
        ...(conclusion.type === "interrupt" ? { outcome: { type: "interrupt" as const, interrupts: conclusion.interrupts } } : {}),
      }),
    );
  }

  /** A failure after RUN_STARTED: what is open is closed, and the run ends with RUN_ERROR. */
  #fail(error: unknown, hitlRun: HitlRun): void {
    const { session, input, signal } = this.#options;
    hitlRun.finish();
    session.markParked(session.isParked);
    const closing = session.translator.closeRun();
    if (this.#lastModelError !== undefined && HarnessError.isInstance(error) && error.code === "TURN_FAILED") {
      this.#options.log("warn", { threadId: input.threadId, runId: input.runId, error }, "the model call failed");
      emitAll(closing, this.#emit);
      this.#emit(this.#lastModelError.runError());
      return;
    }
    const aborted = signal.aborted;
    const mapped = toRunError(error);
    if (mapped.harnessLost) {
      session.markHarnessLost();
      this.#options.log("warn", { threadId: input.threadId, correlationId: mapped.correlationId }, "the thread's harness conversation was lost; the next run rebuilds it (history may be lost upstream)");
    }
    this.#options.log(aborted ? "info" : "error", { threadId: input.threadId, runId: input.runId, correlationId: mapped.correlationId, error }, aborted ? "run cancelled by the client" : "run failed");
    emitAll(closing, this.#emit);
    this.#emit(aborted ? cancelled() : mapped.event);
  }
}

function cancelled(): { type: EventType.RUN_ERROR; code: string; message: string } {
  return { type: EventType.RUN_ERROR, code: "CANCELLED", message: "The run was cancelled." };
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

/** A failed model call (an error step of the main trajectory that is not a tool's failure). */
function isModelError(step: NormalizedStep): boolean {
  return step.status === "error" && step.isMainTrajectory && step.tool === undefined && step.error !== undefined;
}
