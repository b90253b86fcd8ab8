import type WebSocket from "ws";
import { HarnessError } from "../errors/harness-error.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { AsyncQueue } from "../internal/async-queue.js";
import { abortReason, brandClass, hasBrand, linkSignals, throwIfAborted } from "@ag-ui-antigravity/foundation";
import { settleWithin } from "../internal/settle-within.js";
import type { HarnessLogger } from "../observability/logger.js";
import type { Redactor } from "../observability/redactor.js";
import type { WireTap } from "../observability/wire-tap.js";
import type {
  CallHookRequest,
  HarnessConfig,
  InitializeConversationEvent,
  InputEvent,
  OutputEvent,
  PolicyDecisionRequest,
  SandboxStatus,
  StepUpdate,
  ToolCall,
  TrajectoryStateUpdate,
} from "../protocol/messages.js";
import { outputEventKind, serializeMessage, usageOf } from "../protocol/output-events.js";
import type { parseOutputEvent } from "../protocol/parse.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import { StepNormalizer } from "../steps/step-normalizer.js";
import { buildHarnessConfig } from "./build-harness-config.js";
import { summarizeConversationConfig } from "./config-summary.js";
import { connectHarnessWebSocket } from "./connect-websocket.js";
import { CumulativeTextFrames, MIN_CUT_FRAME_BYTES } from "./cumulative-text-frames.js";
import type { ConversationConfig, CustomTool, ResolvedConversationConfig } from "./conversation-config.js";
import type { ConversationHost } from "./conversation-host.js";
import { respondToHook } from "./hook-responder.js";
import { decidePolicy, runCustomTool } from "./host-callbacks.js";
import { ToolGate } from "./tool-gate.js";
import { tokenUsageOf, ZERO_USAGE, type TokenUsage } from "./token-usage.js";
import { TriggerScheduler, type ScheduledTrigger } from "./trigger-scheduler.js";
import type { Turn } from "./turn.js";
import { TurnTracker } from "./turn-tracker.js";
import { userInputEvent, type UserInputPart } from "./user-input.js";
import { checkHarnessConfig, validateConversationConfig } from "./validate-config.js";
import { answerConfirmation, answerQuestions } from "./wait-request-responder.js";

const SESSION_END_TIMEOUT_MS = 10_000;
/** genai-rs bounds the close handshake at 500 ms; the harness does not always answer it. */
const SOCKET_CLOSE_GRACE_MS = 500;
/** After an unexpected close, how long to wait for the process's exit report (which carries the stderr tail). */
const DEATH_REPORT_WAIT_MS = 400;
const MAX_BACKGROUND_TURNS = 100;
/** Steps that arrived after a turn's end, kept for the next turn; past this the oldest are dropped. */
const MAX_LATE_STEPS = 1_000;
const MAX_REMEMBERED_REQUESTS = 10_000;

export interface OpenConversationInternalOptions {
  signal?: AbortSignal;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Overrides the conversation's turnTimeoutMs for this turn; false turns the timeout off. */
  timeoutMs?: number | false;
}

/** Remembers ids already answered, so re-broadcast requests are answered once; bounded. */
class AnsweredSet {
  readonly #ids = new Set<string>();

  /** True the first time an id is seen. */
  claim(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > MAX_REMEMBERED_REQUESTS) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
    return true;
  }

  release(id: string): void {
    this.#ids.delete(id);
  }
}

type OutputEventParser = typeof parseOutputEvent;

let outputEventParser: Promise<OutputEventParser> | undefined;

/**
 * The parser of harness frames, loaded with the first conversation rather than with this module: it
 * brings the protocol's message schemas, zod objects for every message (0.6 MiB of heap once built,
 * measured after full collections) that a server with no conversation open yet never needs
 * (BENCHMARKS.md, section 6: idle RSS). Loaded while the socket connects.
 */
function loadOutputEventParser(): Promise<OutputEventParser> {
  outputEventParser ??= import("../protocol/parse.js").then((module) => module.parseOutputEvent);
  return outputEventParser;
}

/**
 * One conversation on a harness process: its own WebSocket and HarnessConfig. Send turns with
 * `send`; observe trigger-started (and harness-started) turns through `triggerTurns` or
 * `onTriggerTurn`. Close it with `close()`; it also ends when its process does.
 *
 * @example
 * const conversation = await harness.openConversation({ model: "gemini-3.6-flash" });
 * const { text } = await conversation.send("Say hi").result;
 * await conversation.close();
 */
export class Conversation {
  static {
    brandClass(this, "Conversation");
  }

  /** True for a Conversation from any copy of this package (its ESM or CJS build, a duplicated install), where `instanceof` is not. */
  static isInstance(value: unknown): value is Conversation {
    return hasBrand(value, "Conversation");
  }

  /** Aborted (with a HarnessError) when the conversation closes or its connection is lost. */
  readonly signal: AbortSignal;
  /** Resolves once the conversation has closed, for whatever reason. */
  readonly closed: Promise<void>;

  readonly #host: ConversationHost;
  readonly #config: ResolvedConversationConfig;
  readonly #socket: WebSocket;
  readonly #logger: HarnessLogger;
  readonly #wireTap: WireTap;
  readonly #normalizer = new StepNormalizer();
  readonly #textFrames = new CumulativeTextFrames();
  readonly #gate: ToolGate;
  readonly #tools: ReadonlyMap<string, CustomTool>;
  readonly #customToolNames: ReadonlySet<string>;
  readonly #abortController = new AbortController();
  readonly #answeredHooks = new AnsweredSet();
  readonly #answeredToolCalls = new AnsweredSet();
  readonly #answeredWaits = new AnsweredSet();
  readonly #backgroundTurns: AsyncQueue<Turn>;
  readonly #backgroundListeners = new Set<(turn: Turn) => void>();
  readonly #triggers: TriggerScheduler;
  readonly #socketClosed: Promise<void>;
  #resolveClosed!: () => void;
  #id = "";
  #history: readonly NormalizedStep[] = [];
  #rawHistory: readonly StepUpdate[] = [];
  #usage: TokenUsage = { ...ZERO_USAGE };
  #sandboxStatus: SandboxStatus | undefined;
  #initialization: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #sessionEnd: (() => void) | undefined;
  #activeTurn: TurnTracker | undefined;
  #queuedTurn: { tracker: TurnTracker; message: InputEvent } | undefined;
  #hasCompletedTurn = false;
  /**
   * The main trajectory of the last user turn, while steps arriving on it with no turn running are
   * still that turn's (the harness has not gone RUNNING again): they wait in `#lateSteps` and open
   * the next user turn, instead of holding every turn open in case they come.
   */
  #endedTurnTrajectory: string | undefined;
  readonly #lateSteps: NormalizedStep[] = [];
  #closing: Promise<void> | undefined;
  #terminated = false;
  #pingTimer: NodeJS.Timeout | undefined;
  #pongPending = false;
  readonly #removeHostListener: () => void;
  readonly #parseOutputEvent: OutputEventParser;

  private constructor(host: ConversationHost, config: ResolvedConversationConfig, socket: WebSocket, redactor: Redactor, parse: OutputEventParser) {
    this.#parseOutputEvent = parse;
    this.#host = host;
    this.#config = config;
    this.#socket = socket;
    this.#logger = host.logger;
    this.#wireTap = host.wireTap.forConversation(redactor, () => summarizeConversationConfig(config));
    this.signal = this.#abortController.signal;
    this.closed = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#tools = new Map(config.customTools.map((tool) => [tool.name, tool]));
    this.#customToolNames = new Set(this.#tools.keys());
    this.#gate = new ToolGate({ policies: config.policies, preTool: config.hooks.preTool, conversationId: () => this.#id });
    this.#backgroundTurns = new AsyncQueue<Turn>({
      maxItems: MAX_BACKGROUND_TURNS,
      onDrop: (dropped) => {
        if (dropped === 1) this.#logger.warn({}, "trigger turns are not being read; dropping the oldest unread ones");
      },
    });
    this.#triggers = new TriggerScheduler(config.triggers, (trigger) => this.#deliverTrigger(trigger));
    this.#socketClosed = new Promise<void>((resolve) => {
      socket.once("close", (code: number, reason: Buffer) => {
        resolve();
        void this.#onSocketClose(code, reason.toString("utf8"));
      });
    });
    socket.on("message", (data: WebSocket.RawData, isBinary: boolean) => this.#onMessage(data, isBinary));
    socket.on("error", (error: Error) => this.#logger.debug({ error: error.message }, "conversation WebSocket error"));
    socket.on("pong", () => {
      this.#pongPending = false;
    });
    const onHostAbort = (): void => this.#terminate(host.signal.reason);
    host.signal.addEventListener("abort", onHostAbort, { once: true });
    this.#removeHostListener = () => host.signal.removeEventListener("abort", onHostAbort);
    const pingIntervalMs = config.timings.pingIntervalMs;
    if (pingIntervalMs !== false) {
      this.#pingTimer = setInterval(() => this.#checkLiveness(), pingIntervalMs);
      this.#pingTimer.unref();
    }
  }

  /** @internal Use `HarnessProcess.openConversation`. */
  static async open(host: ConversationHost, config: ConversationConfig, options: OpenConversationInternalOptions = {}): Promise<Conversation> {
    const resolved = validateConversationConfig(config);
    throwIfAborted(options.signal);
    const apiKey =
      resolved.apiKey ??
      (resolved.endpoint?.type === "gemini" ? resolved.endpoint.apiKey : undefined) ??
      host.configuredEnvironment.GEMINI_API_KEY ??
      process.env.GEMINI_API_KEY;
    const redactor = host.redactor.fork();
    redactor.addSecret(apiKey);
    // Whatever an MCP server or the endpoint is given in env or headers may be a key: it is never
    // shown, not in a recording, a trace, nor an error the harness words around it.
    redactor.addSecretsOf(resolved.endpoint?.headers);
    for (const server of resolved.mcpServers ?? []) {
      redactor.addSecretsOf(server.env);
      redactor.addSecretsOf(server.headers);
    }
    const harnessConfig = buildHarnessConfig(resolved, {
      apiKey: resolved.baseUrl === undefined && resolved.endpoint?.type !== "vertex" ? apiKey : undefined,
      dialect: host.dialect,
    });
    await checkHarnessConfig(harnessConfig, host.dialect);
    const connectSignal = linkSignals([host.signal, ...(options.signal === undefined ? [] : [options.signal])]);
    const parserLoading = loadOutputEventParser();
    const socket = await connectHarnessWebSocket({
      port: host.port,
      harnessToken: host.harnessToken,
      logger: host.logger,
      signal: connectSignal.signal,
      stderrTail: () => host.stderrTail(),
    })
      .catch((error: unknown) => {
        if (options.signal?.aborted) throw abortReason(options.signal);
        if (host.signal.aborted) throw host.signal.reason;
        throw error;
      })
      .finally(connectSignal.unlink);
    let parse: OutputEventParser;
    try {
      parse = await parserLoading;
    } catch (error) {
      socket.terminate();
      throw error;
    }
    const conversation = new Conversation(host, resolved, socket, redactor, parse);
    try {
      await conversation.#initialize(harnessConfig, options.signal);
    } catch (error) {
      conversation.#terminate(error);
      socket.terminate();
      throw error;
    }
    return conversation;
  }

  /** The conversation id (cascadeId); pass it as `conversationId` to resume later. */
  get id(): string {
    return this.#id;
  }

  /** Steps persisted before this session (when resuming), normalized. */
  get history(): readonly NormalizedStep[] {
    return this.#history;
  }

  /** The same history as the harness sent it. */
  get rawHistory(): readonly StepUpdate[] {
    return this.#rawHistory;
  }

  /** Cumulative token usage of the conversation, as the harness last reported it. */
  get usage(): TokenUsage {
    return { ...this.#usage };
  }

  /** Whether the harness could set up its command sandbox (harness 0.1.17+; undefined when it did not say). */
  get sandboxStatus(): { available: boolean; unavailableReason?: string } | undefined {
    const status = this.#sandboxStatus;
    if (status === undefined) return undefined;
    return { available: status.available === true, ...(status.unavailableReason ? { unavailableReason: status.unavailableReason } : {}) };
  }

  /** True while a turn runs or waits to run. */
  get busy(): boolean {
    return (this.#activeTurn !== undefined && !this.#activeTurn.settled) || this.#queuedTurn !== undefined;
  }

  /**
   * Turns started by triggers (origin "trigger") or by the harness on its own (origin "harness"),
   * in order. Single consumer; use `onTriggerTurn` for several observers.
   */
  get triggerTurns(): AsyncIterable<Turn> {
    return this.#backgroundTurns;
  }

  /** Calls `listener` with every trigger- or harness-started turn; returns an unsubscribe function. */
  onTriggerTurn(listener: (turn: Turn) => void): () => void {
    this.#backgroundListeners.add(listener);
    return () => this.#backgroundListeners.delete(listener);
  }

  /**
   * Starts a turn with text or multimodal parts. Throws TURN_BUSY if the caller's previous turn is
   * still running (a running trigger turn is waited for instead), CONNECTION_CLOSED after close.
   */
  send(input: string | readonly UserInputPart[], options: SendOptions = {}): Turn {
    if (this.#closing !== undefined || this.#terminated) {
      throw new HarnessError("CONNECTION_CLOSED", "the conversation is closed", { stderrTail: this.#host.stderrTail() });
    }
    const message = userInputEvent(input, this.#host.dialect);
    const active = this.#activeTurn !== undefined && !this.#activeTurn.settled ? this.#activeTurn : undefined;
    if (this.#queuedTurn !== undefined || active?.origin === "user") {
      throw new HarnessError("TURN_BUSY", "a turn is already running on this conversation; await its result (or cancel it) first");
    }
    const tracker = this.#newTracker("user", options);
    if (options.signal?.aborted) {
      tracker.cancel();
      return tracker.turn;
    }
    if (active?.origin === "harness") active.complete();
    if (active?.origin === "trigger") this.#queuedTurn = { tracker, message };
    else this.#startTurn(tracker, message);
    return tracker.turn;
  }

  /** Cancels the running turn (haltRequest); it ends with `cancelled: true` and its partial output. */
  cancel(): void {
    this.#queuedTurn?.tracker.cancel();
    this.#activeTurn?.cancel();
  }

  /**
   * Closes the conversation: the session-end handshake when a sessionEnd hook is configured, then
   * the socket. A running turn rejects with CONNECTION_CLOSED. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  // ------------------------------------------------------------------ lifecycle

  async #initialize(config: HarnessConfig, signal: AbortSignal | undefined): Promise<void> {
    const initialized = new Promise<void>((resolve, reject) => {
      this.#initialization = { resolve, reject };
    });
    const event: InitializeConversationEvent = { config };
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => this.#initialization?.reject(abortReason(signal as AbortSignal));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.#send(event, "config");
      timer = setTimeout(() => {
        this.#initialization?.reject(
          new HarnessError("INIT_FAILED", `the harness did not answer the conversation init within ${this.#config.timings.initTimeoutMs} ms`, {
            stderrTail: this.#host.stderrTail(),
          }),
        );
      }, this.#config.timings.initTimeoutMs);
      timer.unref();
      await initialized;
    } catch (error) {
      if (signal?.aborted || (HarnessError.isInstance(error) && (error.code === "INIT_FAILED" || error.code === "PROTOCOL_SKEW"))) throw error;
      const tail = this.#host.stderrTail();
      throw new HarnessError("INIT_FAILED", `conversation init failed: ${error instanceof Error ? error.message : String(error)}${tail.length > 0 ? `\n${tail.join("\n")}` : ""}`, {
        cause: error,
        stderrTail: tail,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      this.#initialization = undefined;
    }
  }

  async #shutdown(): Promise<void> {
    this.#triggers.stop();
    if (this.#config.hooks.sessionEnd !== undefined && this.#isOpen()) {
      const ended = new Promise<void>((resolve) => {
        this.#sessionEnd = resolve;
      });
      try {
        await this.#send({ sessionEndRequest: true }, "sessionEndRequest");
        if (!(await settleWithin(ended, SESSION_END_TIMEOUT_MS))) {
          this.#logger.warn({ conversationId: this.#id }, "the harness did not confirm session end in time");
        }
      } catch (error) {
        this.#logger.debug({ error: String(error) }, "session end request failed");
      }
    }
    this.#terminate(new HarnessError("CONNECTION_CLOSED", "the conversation was closed"));
    if (this.#socket.readyState === this.#socket.OPEN || this.#socket.readyState === this.#socket.CONNECTING) {
      this.#socket.close(1000, "conversation closed");
    }
    if (!(await settleWithin(this.#socketClosed, SOCKET_CLOSE_GRACE_MS))) this.#socket.terminate();
  }

  async #onSocketClose(code: number, reason: string): Promise<void> {
    if (this.#closing !== undefined || this.#terminated) return;
    // The process's exit report carries the complete stderr tail; give it a moment to arrive.
    await settleWithin(
      new Promise<void>((resolve) => {
        if (this.#host.signal.aborted) resolve();
        else this.#host.signal.addEventListener("abort", () => resolve(), { once: true });
      }),
      DEATH_REPORT_WAIT_MS,
    );
    if (this.#host.signal.aborted) {
      this.#terminate(this.#host.signal.reason);
      return;
    }
    const tail = this.#host.stderrTail();
    this.#terminate(
      new HarnessError(
        "CONNECTION_CLOSED",
        `the harness closed the conversation's WebSocket unexpectedly (code ${code}${reason ? `, ${reason}` : ""})${tail.length > 0 ? `:\n${tail.join("\n")}` : ""}`,
        { stderrTail: tail },
      ),
    );
  }

  /** Ends everything that depends on the connection with `error`. Runs once. */
  #terminate(error: unknown): void {
    if (this.#terminated) return;
    this.#terminated = true;
    this.#triggers.stop();
    clearInterval(this.#pingTimer);
    this.#pingTimer = undefined;
    this.#removeHostListener();
    this.#initialization?.reject(error);
    this.#sessionEnd?.();
    this.#queuedTurn?.tracker.fail(error);
    this.#queuedTurn = undefined;
    this.#activeTurn?.fail(error);
    this.#activeTurn = undefined;
    if (!this.#abortController.signal.aborted) this.#abortController.abort(error);
    this.#backgroundTurns.end();
    this.#backgroundListeners.clear();
    if (this.#closing === undefined && this.#socket.readyState !== this.#socket.CLOSED) this.#socket.terminate();
    this.#host.forgetConversation(this);
    void this.#socketClosed.then(() => this.#resolveClosed());
  }

  #checkLiveness(): void {
    if (!this.#isOpen()) return;
    if (this.#pongPending) {
      this.#logger.warn({ conversationId: this.#id }, "the harness WebSocket missed a pong; closing it");
      this.#socket.terminate();
      return;
    }
    this.#pongPending = true;
    this.#socket.ping();
  }

  #isOpen(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  // ------------------------------------------------------------------ turns

  #newTracker(origin: "user" | "trigger" | "harness", options: SendOptions = {}): TurnTracker {
    return new TurnTracker({
      origin,
      logger: this.#logger,
      conversationId: () => this.#id,
      // Harness-started turns were not ours to start, so they are not ours to halt on a clock.
      timeoutMs: origin === "harness" ? false : (options.timeoutMs ?? this.#config.turnTimeoutMs),
      timings: this.#config.timings,
      currentUsage: () => this.usage,
      sendHalt: () => this.#send({ haltRequest: true }, "haltRequest"),
      onSettled: (tracker) => this.#onTurnSettled(tracker),
      awaitsPostTurnHook: origin !== "harness" && this.#config.hooks.postTurn !== undefined,
      signal: options.signal,
    });
  }

  #startTurn(tracker: TurnTracker, message: InputEvent | undefined): void {
    this.#activeTurn = tracker;
    if (message !== undefined) this.#normalizer.reset();
    this.#endedTurnTrajectory = undefined;
    tracker.begin(this.usage);
    // Steps of the previous turn that came after its end are this run's first.
    if (tracker.origin === "user") for (const step of this.#lateSteps.splice(0)) tracker.observeStep(step);
    if (message === undefined || tracker.settled) return;
    this.#send(message, message.automatedTrigger === undefined ? (message.userInput === undefined ? "complexUserInput" : "userInput") : "automatedTrigger").catch(
      (error: unknown) => tracker.fail(error),
    );
  }

  #onTurnSettled(tracker: TurnTracker): void {
    if (this.#activeTurn === tracker) this.#activeTurn = undefined;
    if (tracker.origin === "user" && tracker.started) {
      this.#hasCompletedTurn = true;
      // Only a turn the harness finished can have steps still on their way; a halted one's are not wanted.
      this.#endedTurnTrajectory = tracker.endedOnIdle ? tracker.mainTrajectoryId : undefined;
    }
    // Deferred: the next turn must not start inside the previous one's settle path. A resolved
    // promise's reaction rather than queueMicrotask, which builds an AsyncResource every turn.
    void Promise.resolve().then(() => {
      if (this.#terminated || this.#closing !== undefined) return;
      const queued = this.#queuedTurn;
      // A queued turn cancelled before it started leaves the queue at once, so `send` is free again.
      if (queued?.tracker.settled === true) this.#queuedTurn = undefined;
      else if (queued !== undefined && (this.#activeTurn === undefined || this.#activeTurn.settled)) {
        this.#queuedTurn = undefined;
        this.#startTurn(queued.tracker, queued.message);
        return;
      }
      this.#triggers.flush();
    });
  }

  #deliverTrigger(trigger: ScheduledTrigger): boolean {
    // 0.1.10 crashes on a trigger into a conversation with no history, so triggers wait for a first turn.
    if (this.#terminated || this.#closing !== undefined) return false;
    if (!this.#hasCompletedTurn && this.#history.length === 0) return false;
    if (this.#queuedTurn !== undefined) return false;
    const active = this.#activeTurn;
    if (active !== undefined && !active.settled) {
      if (active.origin !== "harness") return false;
      active.complete();
    }
    const tracker = this.#newTracker("trigger");
    this.#publishBackgroundTurn(tracker.turn);
    this.#startTurn(tracker, { automatedTrigger: trigger.message });
    return true;
  }

  #publishBackgroundTurn(turn: Turn): void {
    this.#backgroundTurns.push(turn);
    for (const listener of this.#backgroundListeners) {
      try {
        listener(turn);
      } catch (error) {
        this.#logger.warn({ error: String(error) }, "onTriggerTurn listener threw; ignoring");
      }
    }
  }

  /** The turn a step belongs to; a step with no turn running starts a harness-originated one, so nothing is lost. */
  #turnForStep(): TurnTracker | undefined {
    const active = this.#activeTurn;
    if (active !== undefined && !active.settled) return active;
    if (this.#initialization !== undefined || this.#terminated) return undefined;
    const tracker = this.#newTracker("harness");
    this.#publishBackgroundTurn(tracker.turn);
    this.#startTurn(tracker, undefined);
    return tracker;
  }

  /** Runs host code that may wait on a human; the turn's timeout does not run meanwhile. */
  async #parked<T>(work: () => Promise<T>): Promise<T> {
    const tracker = this.#activeTurn;
    tracker?.park();
    try {
      return await work();
    } finally {
      tracker?.unpark();
    }
  }

  // ------------------------------------------------------------------ inbound

  #onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    // Only text frames carry protocol messages.
    if (isBinary) return;
    // ws hands over a Buffer; a long text or thinking frame is decoded from it without building its
    // cumulative text twice (cumulative-text-frames.ts), anything else is decoded in place (not
    // `Buffer.from` it, which copies) and parsed in full.
    let event = Buffer.isBuffer(data) && data.length >= MIN_CUT_FRAME_BYTES ? this.#textFrames.decode(data) : undefined;
    if (event === undefined) {
      const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data).toString("utf8");
      try {
        event = this.#parseOutputEvent(text, { drift: this.#host.drift });
      } catch (error) {
        this.#logger.warn({ error: error instanceof Error ? error.message : String(error) }, "ignoring a message from the harness that does not parse");
        this.#host.drift.record({ kind: "invalid-message", path: "OutputEvent", reason: invalidMessageReason(error) });
        this.#wireTap.recordUnparsable(text, this.#id || undefined);
        return;
      }
    }
    const kind = outputEventKind(event);
    // Checked first so an inactive tap costs no record object per frame.
    if (this.#wireTap.active) this.#wireTap.record({ channel: "ws", direction: "receive", messageKey: kind, message: event, ...(this.#id ? { conversationId: this.#id } : {}) });
    const usage = usageOf(event);
    if (usage !== undefined) this.#usage = tokenUsageOf(usage);
    switch (kind) {
      case "initializeConversationResponse":
        this.#onInitialized(event);
        break;
      case "stepUpdate":
        if (event.stepUpdate !== undefined) this.#onStep(event.stepUpdate, event);
        break;
      case "trajectoryStateUpdate":
        if (event.trajectoryStateUpdate !== undefined) {
          const tracker = this.#activeTurn;
          if (tracker !== undefined && !tracker.settled) tracker.observeTrajectoryState(event.trajectoryStateUpdate);
          else this.#onStateBetweenTurns(event.trajectoryStateUpdate);
        }
        break;
      case "toolCall":
        if (event.toolCall !== undefined) void this.#answerToolCall(event.toolCall);
        break;
      case "callHookRequest":
        if (event.callHookRequest !== undefined) void this.#answerHook(event.callHookRequest);
        break;
      case "policyDecisionRequest":
        if (event.policyDecisionRequest !== undefined) void this.#answerPolicyDecision(event.policyDecisionRequest);
        break;
      case "sessionEndResponse":
        this.#sessionEnd?.();
        break;
      default:
        break;
    }
  }

  #onInitialized(event: OutputEvent): void {
    const response = event.initializeConversationResponse ?? {};
    if (this.#initialization === undefined) {
      this.#logger.debug({}, "ignoring a repeated init response");
      return;
    }
    this.#id = response.cascadeId ?? "";
    this.#rawHistory = response.history ?? [];
    const historyNormalizer = new StepNormalizer();
    this.#history = this.#rawHistory.map((step) => historyNormalizer.normalize(step, { mainTrajectoryId: this.#id }));
    if (response.cumulativeUsage !== undefined) this.#usage = tokenUsageOf(response.cumulativeUsage);
    this.#sandboxStatus = response.sandboxStatus;
    this.#initialization.resolve();
  }

  /** The harness going RUNNING again after a turn ended starts new work: later steps are a turn of their own. */
  #onStateBetweenTurns(update: TrajectoryStateUpdate): void {
    const state = update.state;
    if ((state === "STATE_RUNNING" || state === 1) && update.trajectoryId === this.#endedTurnTrajectory) this.#endedTurnTrajectory = undefined;
    this.#logger.debug({ update }, "trajectory state with no turn running");
  }

  #onStep(update: StepUpdate, event: OutputEvent): void {
    const ended = this.#endedTurnTrajectory;
    if (ended !== undefined && (update.trajectoryId ?? "") === ended && (this.#activeTurn === undefined || this.#activeTurn.settled)) {
      const late = this.#normalizer.normalize(update, { mainTrajectoryId: ended, event });
      if (this.#lateSteps.length >= MAX_LATE_STEPS) this.#lateSteps.shift();
      this.#lateSteps.push(late);
      this.#answerWaitRequests(late);
      return;
    }
    const tracker = this.#turnForStep();
    const mainTrajectoryId = tracker?.adoptMainTrajectory(update) ?? this.#id;
    const step = this.#normalizer.normalize(update, { mainTrajectoryId, event });
    tracker?.observeStep(step);
    this.#answerWaitRequests(step);
  }

  /** Questions and confirmations are answered once per (trajectoryId, stepIndex, kind) while the step waits. */
  #answerWaitRequests(step: NormalizedStep): void {
    const questionKey = `${step.id}:question`;
    const confirmationKey = `${step.id}:confirmation`;
    if (step.status !== "waiting") {
      this.#answeredWaits.release(questionKey);
      this.#answeredWaits.release(confirmationKey);
      return;
    }
    // Each answer gets its own link to the conversation's and the turn's signals, undone when the
    // answer settles: the conversation's signal lives as long as the conversation (linkSignals).
    const turnStop = this.#activeTurn?.stopSignal;
    if (step.raw.questionsRequest !== undefined && this.#answeredWaits.claim(questionKey)) {
      const link = linkSignals([this.signal, turnStop]);
      void this.#parked(() => answerQuestions(step, { hooks: this.#config.hooks, logger: this.#logger, conversationId: this.#id, signal: link.signal }))
        .finally(link.unlink)
        .then((response) => this.#sendQuietly({ questionResponse: response }, "questionResponse"));
    }
    if (step.raw.toolConfirmationRequest !== undefined && this.#answeredWaits.claim(confirmationKey)) {
      const link = linkSignals([this.signal, turnStop]);
      void this.#parked(() => answerConfirmation(step, { hooks: this.#config.hooks, gate: this.#gate, conversationId: this.#id, signal: link.signal }))
        .finally(link.unlink)
        .then((confirmation) => this.#sendQuietly({ toolConfirmation: confirmation }, "toolConfirmation"));
    }
  }

  async #answerHook(request: CallHookRequest): Promise<void> {
    if (!this.#answeredHooks.claim(request.requestId ?? "")) return;
    if (request.type === "LIFECYCLE_HOOK_POST_TURN") this.#activeTurn?.notePostTurnHook();
    const response = await this.#parked(() =>
      respondToHook(request, {
        hooks: this.#config.hooks,
        gate: this.#gate,
        dialect: this.#host.dialect,
        conversationId: () => this.#id,
        customToolNames: this.#customToolNames,
      }),
    );
    await this.#sendQuietly({ callHookResponse: response }, "callHookResponse");
  }

  async #answerPolicyDecision(request: PolicyDecisionRequest): Promise<void> {
    if (!this.#answeredHooks.claim(`policy:${request.requestId ?? ""}`)) return;
    const response = await decidePolicy(request, {
      gate: this.#gate,
      policies: this.#config.policies,
      customToolNames: this.#customToolNames,
      parked: (work) => this.#parked(work),
    });
    await this.#sendQuietly({ policyDecisionResponse: response }, "policyDecisionResponse");
  }

  async #answerToolCall(call: ToolCall): Promise<void> {
    if (!this.#answeredToolCalls.claim(call.id ?? "")) return;
    const response = await this.#parked(() =>
      runCustomTool(call, { tools: this.#tools, gate: this.#gate, conversationId: this.#id, signals: [this.signal, this.#activeTurn?.stopSignal] }),
    );
    await this.#sendQuietly({ toolResponse: response }, "toolResponse");
  }

  // ------------------------------------------------------------------ outbound

  /** Sends one message, waiting until the socket has taken it (backpressure). */
  #send(message: InputEvent | InitializeConversationEvent, messageKey: string): Promise<void> {
    if (!this.#isOpen()) {
      return Promise.reject(new HarnessError("CONNECTION_CLOSED", `cannot send ${messageKey}: the conversation's WebSocket is not open`, { stderrTail: this.#host.stderrTail() }));
    }
    this.#wireTap.record({ channel: "ws", direction: "send", messageKey, message, ...(this.#id ? { conversationId: this.#id } : {}) });
    const text = serializeMessage(message);
    this.#host.noteSent(text, this.#onProtocolSkew);
    return new Promise<void>((resolve, reject) => {
      this.#socket.send(text, (error) => {
        if (error) reject(new HarnessError("CONNECTION_CLOSED", `sending ${messageKey} failed: ${error.message}`, { cause: error, stderrTail: this.#host.stderrTail() }));
        else resolve();
      });
    });
  }

  /**
   * The harness said it cannot parse a frame of ours (docs/protocol.md, "Versions"): what waits on
   * that frame would wait forever, so it fails now. An init is refused; a turn, or the turn a reply
   * belonged to, ends with PROTOCOL_SKEW.
   */
  readonly #onProtocolSkew = (error: HarnessError): void => {
    if (this.#initialization !== undefined) {
      this.#initialization.reject(error);
      return;
    }
    const tracker = this.#queuedTurn?.tracker ?? this.#activeTurn;
    if (tracker !== undefined && !tracker.settled) tracker.fail(error);
    else this.#logger.warn({ conversationId: this.#id, error: error.message }, "the harness could not parse a frame of ours");
  };

  /** For replies: a closed connection is reported by the close path, not here. */
  async #sendQuietly(message: InputEvent, messageKey: string): Promise<void> {
    try {
      await this.#send(message, messageKey);
    } catch (error) {
      this.#logger.debug({ error: error instanceof Error ? error.message : String(error) }, `could not send ${messageKey}`);
    }
  }
}

/** A short, stable reason for a dropped message, so drift counts group alike failures. */
function invalidMessageReason(error: unknown): string {
  if (!ProtocolError.isInstance(error)) return "unreadable";
  const issue = error.details.issues?.[0];
  if (issue === undefined) return error.code;
  if (issue.message === "invalid JSON") return "not JSON";
  const path = issue.path.join(".");
  return `${path === "" ? "(root)" : path}: ${issue.message}`.slice(0, 200);
}
