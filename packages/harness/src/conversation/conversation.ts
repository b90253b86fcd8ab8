import type WebSocket from "ws";
import { HarnessError } from "../errors/harness-error.js";
import { abortReason, brandClass, hasBrand, linkSignals, type Logger, throwIfAborted } from "@ag-ui-antigravity/foundation";
import { settleWithin } from "../internal/settle-within.js";
import type { Redactor } from "../observability/redactor.js";
import type { WireTap } from "../observability/wire-tap.js";
import type {
  HarnessConfig,
  InitializeConversationEvent,
  InputEvent,
  OutputEvent,
  SandboxStatus,
  StepUpdate,
} from "../protocol/messages.js";
import { serializeMessage, usageOf } from "../protocol/output-events.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import { StepNormalizer } from "../steps/step-normalizer.js";
import { buildHarnessConfig, geminiApiKeyOf } from "./build-harness-config.js";
import { summarizeConversationConfig } from "./config-summary.js";
import { connectHarnessWebSocket } from "./connect-websocket.js";
import { conversationRedactor } from "./conversation-redactor.js";
import { HarnessFrames, loadOutputEventParser, type OutputEventParser } from "./harness-frames.js";
import { SocketLiveness } from "./socket-liveness.js";
import type { ConversationConfig, ResolvedConversationConfig } from "./conversation-config.js";
import type { ConversationHost } from "./conversation-host.js";
import { CallbackAnswerer } from "./callback-answerer.js";
import { ConversationTurns, type SendOptions } from "./conversation-turns.js";
import { tokenUsageOf, ZERO_USAGE, type TokenUsage } from "./token-usage.js";
import type { Turn } from "./turn.js";
import { userInputEvent, type UserInputPart } from "./user-input.js";
import { checkHarnessConfig, validateConversationConfig } from "./validate-config.js";

const SESSION_END_TIMEOUT_MS = 10_000;
/** genai-rs bounds the close handshake at 500 ms; the harness does not always answer it. */
const SOCKET_CLOSE_GRACE_MS = 500;
/** After an unexpected close, how long to wait for the process's exit report (which carries the stderr tail). */
const DEATH_REPORT_WAIT_MS = 400;

export interface OpenConversationInternalOptions {
  signal?: AbortSignal;
}

export type { SendOptions } from "./conversation-turns.js";


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
  readonly #logger: Logger;
  readonly #wireTap: WireTap;
  readonly #callbacks: CallbackAnswerer;
  readonly #abortController = new AbortController();
  readonly #turns: ConversationTurns;
  readonly #socketClosed: Promise<void>;
  #resolveClosed!: () => void;
  #id = "";
  #history: readonly NormalizedStep[] = [];
  #rawHistory: readonly StepUpdate[] = [];
  #usage: TokenUsage = { ...ZERO_USAGE };
  #sandboxStatus: SandboxStatus | undefined;
  #initialization: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #sessionEnd: (() => void) | undefined;
  #closing: Promise<void> | undefined;
  #terminated = false;
  readonly #liveness: SocketLiveness;
  readonly #removeHostListener: () => void;
  readonly #frames: HarnessFrames;

  private constructor(host: ConversationHost, config: ResolvedConversationConfig, socket: WebSocket, redactor: Redactor, parse: OutputEventParser) {
    this.#host = host;
    this.#config = config;
    this.#socket = socket;
    this.#logger = host.logger;
    this.#wireTap = host.wireTap.forConversation(redactor, () => summarizeConversationConfig(config));
    this.#frames = new HarnessFrames({ parse, drift: host.drift, logger: host.logger, wireTap: this.#wireTap, conversationId: () => this.#id });
    this.signal = this.#abortController.signal;
    this.closed = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#callbacks = new CallbackAnswerer({
      config,
      dialect: host.dialect,
      logger: host.logger,
      signal: this.signal,
      conversationId: () => this.#id,
      turnStopSignal: () => this.#turns.stopSignal,
      notePostTurnHook: () => this.#turns.notePostTurnHook(),
      parked: (work) => this.#turns.parked(work),
      reply: (message, messageKey) => this.#sendQuietly(message, messageKey),
    });
    this.#turns = new ConversationTurns({
      config,
      logger: host.logger,
      conversationId: () => this.#id,
      currentUsage: () => this.usage,
      initializing: () => this.#initialization !== undefined,
      ending: () => this.#terminated || this.#closing !== undefined,
      terminated: () => this.#terminated,
      hasHistory: () => this.#history.length > 0,
      send: (message, messageKey) => this.#send(message, messageKey),
      onStep: (step) => this.#callbacks.answerWaitRequests(step),
    });
    this.#socketClosed = new Promise<void>((resolve) => {
      socket.once("close", (code: number, reason: Buffer) => {
        resolve();
        void this.#onSocketClose(code, reason.toString("utf8"));
      });
    });
    socket.on("message", (data: WebSocket.RawData, isBinary: boolean) => this.#onMessage(data, isBinary));
    socket.on("error", (error: Error) => this.#logger.debug({ error: error.message }, "conversation WebSocket error"));
    const onHostAbort = (): void => this.#terminate(host.signal.reason);
    host.signal.addEventListener("abort", onHostAbort, { once: true });
    this.#removeHostListener = () => host.signal.removeEventListener("abort", onHostAbort);
    this.#liveness = new SocketLiveness(socket, config.timings.pingIntervalMs, () =>
      this.#logger.warn({ conversationId: this.#id }, "the harness WebSocket missed a pong; closing it"),
    );
  }

  /** @internal Use `HarnessProcess.openConversation`. */
  static async open(host: ConversationHost, config: ConversationConfig, options: OpenConversationInternalOptions = {}): Promise<Conversation> {
    const resolved = validateConversationConfig(config);
    throwIfAborted(options.signal);
    const apiKey = geminiApiKeyOf(resolved, host.configuredEnvironment);
    const redactor = conversationRedactor(host.redactor, resolved, apiKey);
    const harnessConfig = buildHarnessConfig(resolved, { apiKey, dialect: host.dialect });
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
    return this.#turns.busy;
  }

  /**
   * Turns started by triggers (origin "trigger") or by the harness on its own (origin "harness"),
   * in order. Single consumer; use `onTriggerTurn` for several observers.
   */
  get triggerTurns(): AsyncIterable<Turn> {
    return this.#turns.background;
  }

  /** Calls `listener` with every trigger- or harness-started turn; returns an unsubscribe function. */
  onTriggerTurn(listener: (turn: Turn) => void): () => void {
    return this.#turns.onBackgroundTurn(listener);
  }

  /**
   * Starts a turn with text or multimodal parts. Throws TURN_BUSY if the caller's previous turn is
   * still running (a running trigger turn is waited for instead), CONNECTION_CLOSED after close.
   */
  send(input: string | readonly UserInputPart[], options: SendOptions = {}): Turn {
    if (this.#closing !== undefined || this.#terminated) {
      throw new HarnessError("CONNECTION_CLOSED", "the conversation is closed", { stderrTail: this.#host.stderrTail() });
    }
    const turn = this.#turns.startUserTurn(userInputEvent(input, this.#host.dialect), options);
    if (turn === undefined) throw new HarnessError("TURN_BUSY", "a turn is already running on this conversation; await its result (or cancel it) first");
    return turn;
  }

  /** Cancels the running turn (haltRequest); it ends with `cancelled: true` and its partial output. */
  cancel(): void {
    this.#turns.cancel();
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
    this.#turns.stopTriggers();
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
    this.#turns.stopTriggers();
    this.#liveness.stop();
    this.#removeHostListener();
    this.#initialization?.reject(error);
    this.#sessionEnd?.();
    this.#turns.end(error);
    if (!this.#abortController.signal.aborted) this.#abortController.abort(error);
    if (this.#closing === undefined && this.#socket.readyState !== this.#socket.CLOSED) this.#socket.terminate();
    this.#host.forgetConversation(this);
    void this.#socketClosed.then(() => this.#resolveClosed());
  }

  #isOpen(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  // ------------------------------------------------------------------ inbound

  #onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const frame = this.#frames.read(data, isBinary);
    if (frame === undefined) return;
    const { event, kind } = frame;
    const usage = usageOf(event);
    if (usage !== undefined) this.#usage = tokenUsageOf(usage);
    switch (kind) {
      case "initializeConversationResponse":
        this.#onInitialized(event);
        break;
      case "stepUpdate":
        if (event.stepUpdate !== undefined) this.#turns.observeStep(event.stepUpdate, event);
        break;
      case "trajectoryStateUpdate":
        if (event.trajectoryStateUpdate !== undefined) this.#turns.observeTrajectoryState(event.trajectoryStateUpdate);
        break;
      case "toolCall":
        if (event.toolCall !== undefined) void this.#callbacks.answerToolCall(event.toolCall);
        break;
      case "callHookRequest":
        if (event.callHookRequest !== undefined) void this.#callbacks.answerHook(event.callHookRequest);
        break;
      case "policyDecisionRequest":
        if (event.policyDecisionRequest !== undefined) void this.#callbacks.answerPolicyDecision(event.policyDecisionRequest);
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
    if (!this.#turns.failCurrent(error)) this.#logger.warn({ conversationId: this.#id, error: error.message }, "the harness could not parse a frame of ours");
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
