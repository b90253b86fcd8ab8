import { randomUUID } from "node:crypto";
import type { HumanInTheLoopCapabilities, RunAgentInput, Tool } from "@ag-ui/core";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import { collectAnswers } from "../answers/collect-answers.js";
import { matchAnswers } from "../answers/match-answers.js";
import { HitlError } from "../errors/hitl-error.js";
import type { BridgeHooks, CustomTool } from "../harness/harness-shapes.js";
import type { ParkedItem } from "../parking/parked-item.js";
import { ParkingLot } from "../parking/parking-lot.js";
import { SchemaValidator } from "../schema/schema-validator.js";
import { defaultParkTimeoutMs, defaultSettleMs, defaultTurnSummaryChars, type HitlBridgeOptions } from "./bridge-options.js";
import type { HandlerHost } from "./handler-host.js";
import { askApproval, askQuestions } from "./harness-hooks.js";
import { HitlRun, type RunConclusion, type RunHost, type RunStart } from "./hitl-run.js";
import { frontendTool, serverTool, silentTools } from "./host-tools.js";
import { itemOfStep } from "./mirror-steps.js";
import type { HitlNotification } from "./notifications.js";
import { ParkingDesk, releaseParked } from "./parking-desk.js";
import { SharedState } from "./shared-state.js";
import { ToolCatalogue } from "./tool-catalogue.js";
import { TurnSequencer, type TurnStarter } from "./turn-sequencer.js";

export type { TurnStarter } from "./turn-sequencer.js";

/** What `HitlBridge.beginRun` is given for one AG-UI run: its new input, how to start a turn, its tools and hooks. */
export interface BeginRunOptions<TInput> {
  /** The user input this run adds (the agent decides what is new); absent for a pure resume. */
  newInput?: TInput;
  /** How to start a turn for queued input. The latest one given is used. */
  startTurn: TurnStarter<TInput>;
}

/** What the harness conversation must be configured with for the bridge to work. */
export interface HarnessPieces {
  /** For `ConversationConfig.customTools`: the server tools, the client's frontend tools (unless `frontendTools: false`) and the enabled silent tools; on a name clash a server tool wins over a client's, and both over a silent one. */
  customTools: CustomTool[];
  /** For `ConversationConfig.hooks`: the approval and question hooks the options turn on. */
  hooks: BridgeHooks;
  /** Host tools whose calls the bridge reports itself (their mirror steps are not among a run's items). */
  hostToolNames: ReadonlySet<string>;
  /** Host tools the client never hears about (the silent built-ins). */
  silentToolNames: ReadonlySet<string>;
}

/**
 * The human-in-the-loop bridge of one thread. One primitive serves every feature: tell the client,
 * park a promise, end the run, and settle the promise from a later run's input. Frontend tools,
 * questions, approvals and server-tool interrupts all park here; `beginRun` settles what a run
 * answers, `HitlRun.items()` streams the turn, and `HitlRun.finish()` says how the run ends.
 *
 * @example
 * const bridge = new HitlBridge({ toolApproval: true });
 * const pieces = bridge.harnessPieces(firstInput.tools);
 * const conversation = await harness.openConversation({ customTools: pieces.customTools, hooks: pieces.hooks });
 * const run = bridge.beginRun(input, { newInput: text, startTurn: (text, { signal }) => conversation.send(text, { signal }) });
 * for await (const item of run.items({ signal })) handle(item);
 * const conclusion = run.finish();
 */
export class HitlBridge {
  // The bridge composes its thread's pieces, each the one owner of its state: the parked items
  // (ParkingLot, worked through ParkingDesk), the turns (TurnSequencer), the shared state and
  // context (SharedState) and the configured tools (ToolCatalogue); the handlers of its tools and
  // hooks (host-tools.ts, harness-hooks.ts) reach them through `#handlers`. What it keeps itself is
  // the run: which one is attached, and the notifications waiting for the next.
  readonly #options: HitlBridgeOptions;
  readonly #now: () => number;
  readonly #createId: () => string;
  readonly #lifetime = new Lifetime();
  readonly #validator = new SchemaValidator();
  readonly #lot: ParkingLot;
  readonly #desk: ParkingDesk;
  readonly #tools: ToolCatalogue;
  readonly #shared = new SharedState(() => this.#attachedRun());
  readonly #turns = new TurnSequencer({ signal: this.#lifetime.signal, preamble: () => this.#preamble() });
  readonly #handlers: HandlerHost;
  #run: HitlRun | undefined;
  #undelivered: HitlNotification[] = [];

  constructor(options: HitlBridgeOptions = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#createId = options.createId ?? randomUUID;
    this.#lot = new ParkingLot({ now: this.#now, onExpired: (item) => this.#expired(item) });
    this.#desk = new ParkingDesk({ lot: this.#lot, signal: this.#lifetime.signal, now: this.#now, parkTimeoutMs: options.parkTimeoutMs ?? defaultParkTimeoutMs });
    this.#tools = new ToolCatalogue({ serverTools: options.serverTools ?? [], frontendTools: options.frontendTools !== false, validator: this.#validator, logger: options.logger });
    this.#handlers = {
      options,
      validator: this.#validator,
      desk: this.#desk,
      shared: this.#shared,
      tools: this.#tools,
      createId: this.#createId,
      notify: (notification) => this.#notify(notification),
      currentTurn: () => this.#turns.current(),
    };
  }

  /** Aborted when the bridge closes. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  /** Settles once `close()` was called and the turn it halted has drained. */
  get closed(): Promise<void> {
    return this.#lifetime.closed;
  }

  /** Ids of everything parked, interrupts and frontend tool calls. */
  get parkedIds(): string[] {
    return [...this.#lot.interrupts(), ...this.#lot.frontendTools()].map((item) => item.id);
  }

  /** Whether anything waits on the client. */
  get hasParked(): boolean {
    return this.#lot.size > 0;
  }

  /** Whether a harness turn is in progress (possibly parked across runs). */
  get hasTurn(): boolean {
    return this.#turns.current() !== undefined;
  }

  /** What this bridge supports, for the agent's `/capabilities` (`humanInTheLoop`). */
  get capabilities(): HumanInTheLoopCapabilities {
    return {
      supported: true,
      interrupts: true,
      approvals: this.#options.toolApproval === true,
      approveWithEdits: this.#options.toolApproval === true,
    };
  }

  /**
   * Calls `listener` whenever a turn is retired (it ended, was halted, or the bridge closed), so
   * turn-scoped memory elsewhere (the translator's) is dropped together with the bridge's own.
   * Returns the unsubscribe function.
   */
  onTurnEnd(listener: () => void): () => void {
    return this.#turns.onTurnEnd(listener);
  }

  /**
   * The custom tools and hooks to configure the harness conversation with, for these client tools.
   * Call it when the conversation is (re)built. Client tools are validated here.
   *
   * @throws HitlError INVALID_TOOL_SCHEMA naming the tool.
   */
  harnessPieces(clientTools: readonly Tool[]): HarnessPieces {
    const { customTools, hostToolNames, silentToolNames } = this.#tools.configure(clientTools, {
      serverTool: (tool) => serverTool(this.#handlers, tool),
      frontendTool: (definition) => frontendTool(this.#handlers, definition),
      silentTools: () => silentTools(this.#handlers),
    });
    const hooks: BridgeHooks = {};
    if (this.#options.questions !== false) hooks.onQuestions = (args) => askQuestions(this.#handlers, args);
    if (this.#options.toolApproval === true) hooks.preTool = (args) => askApproval(this.#handlers, args, silentToolNames);
    return { customTools, hooks, hostToolNames, silentToolNames };
  }

  /**
   * Whether these client tools differ (name, description or schema, in any order) from the ones the
   * harness was last configured with by `harnessPieces`: the conversation must then be rebuilt,
   * because harness tools are fixed per conversation. Always false when frontend tools are off.
   *
   * @throws HitlError INVALID_TOOL_SCHEMA naming the tool.
   */
  toolsChanged(clientTools: readonly Tool[]): boolean {
    return this.#tools.changed(clientTools);
  }

  /**
   * Attaches a run: validates its tools, settles what its answers resolve (all or nothing), applies
   * "moving on" when it brings new input while something waits, and queues that input.
   *
   * @throws HitlError — INVALID_TOOL_SCHEMA, AMBIGUOUS_ANSWER, UNKNOWN_INTERRUPT, INVALID_ANSWER,
   * ANSWER_FOR_FRONTEND_TOOL, INTERRUPT_EXPIRED, INTERRUPTS_PENDING (end the run with RUN_ERROR;
   * nothing was settled), RUN_ACTIVE, CLOSED.
   */
  beginRun<TInput>(input: RunAgentInput, options: BeginRunOptions<TInput>): HitlRun {
    if (this.signal.aborted) throw new HitlError("CLOSED", "The HITL bridge of this thread is closed.");
    if (this.#attachedRun() !== undefined) throw new HitlError("RUN_ACTIVE", "Another run of this thread is still attached; finish it first.");
    this.#tools.check(input.tools);
    const plan = matchAnswers(collectAnswers(input), this.#lot, {
      now: this.#now(),
      validator: this.#validator,
      lenientAnswers: this.#options.lenientAnswers !== false,
    });
    const resolvesSomething = plan.interrupts.length + plan.frontendTools.length > 0;
    const hasNewInput = options.newInput !== undefined;
    if (hasNewInput && !resolvesSomething && this.#lot.interrupts().length > 0 && this.#options.newInputWhileParked === "refuse") {
      throw new HitlError("INTERRUPTS_PENDING", `Interrupts are waiting (${this.#lot.interrupts().map((item) => item.id).join(", ")}); answer them with resume entries before sending new input.`);
    }
    for (const ignored of plan.ignored) this.#options.logger?.warn({}, `Ignored answer: ${ignored}`);
    // Commit: nothing below throws, so a refused run above left every parked item as it was.
    const continuesTurn = this.#turns.current() !== undefined;
    this.#shared.adopt(input.context, input.state);
    this.#turns.useStarter(options.startTurn as TurnStarter<unknown>);
    // Handlers resume in later microtasks, so whatever they report reaches the run attached below.
    const start: RunStart = { ...this.#desk.settle(plan), continuesTurn };
    if (hasNewInput) {
      if (!resolvesSomething) start.abandonedIds = this.#desk.abandonAll("new-input");
      this.#turns.queue(options.newInput);
    }
    const run = new HitlRun(this.#runHost(), start);
    this.#run = run;
    this.#shared.deliverPending(run);
    for (const notification of this.#undelivered.splice(0)) run.push(notification);
    return run;
  }

  /**
   * Delivers a note of the host's own to the run, in order with the turn's steps (a RunItem
   * `{ type: "relayed", note }`): after the steps already buffered, before later ones. With no run
   * attached it waits for the next run, like every notification. What a host learns from harness
   * hooks while a turn runs (a continuation, a compaction's summary, a tool's arguments) thus reaches
   * the client where it happened.
   */
  relay(note: unknown): void {
    this.#notify({ type: "relayed", note });
  }

  /**
   * Releases every parked caller with CLOSED, halts the turn, and stops all timers at once; resolves
   * (as `closed` does) when the halted turn has drained. Idempotent.
   */
  close(): Promise<void> {
    return this.#lifetime.close(
      () => new HitlError("CLOSED", "The HITL bridge of this thread was closed while the request was waiting."),
      () => {
        this.#lot.failAll(this.signal.reason);
        return this.#turns.close();
      },
    );
  }

  // ------------------------------------------------------------------ runs and turns

  #runHost(): RunHost {
    return {
      lot: this.#lot,
      settleMs: this.#options.settleMs ?? defaultSettleMs,
      currentTurn: () => this.#turns.current(),
      startNextTurn: () => this.#turns.startNext(),
      turnEnded: (turn) => this.#turns.retire(turn),
      itemOfStep: (step) => itemOfStep(step, this.#tools.hostToolNames()),
      haltTurn: (turn) => this.#turns.halt(turn),
      conclude: (run) => this.#conclude(run),
    };
  }

  /** What each turn's input starts with: the bounded summary of context and state, when `turnSummary` is on. */
  #preamble(): string | undefined {
    const summary = this.#options.turnSummary;
    if (summary === undefined || summary === false) return undefined;
    return this.#shared.summary((summary === true ? undefined : summary.maxChars) ?? defaultTurnSummaryChars);
  }

  #conclude(run: HitlRun): RunConclusion {
    this.#undelivered.push(...run.takeUndelivered());
    if (this.#run === run) this.#run = undefined;
    const interrupts = this.#lot.interrupts().map((item) => item.interrupt);
    const pendingToolCallIds = this.#lot.frontendTools().map((item) => item.id);
    if (interrupts.length > 0) {
      const conclusion: RunConclusion = { type: "interrupt", interrupts, pendingToolCallIds };
      const stateSnapshot = this.#shared.snapshot();
      if (stateSnapshot !== undefined) conclusion.stateSnapshot = stateSnapshot;
      return conclusion;
    }
    if (pendingToolCallIds.length > 0) return { type: "pending-tools", pendingToolCallIds };
    return { type: "completed" };
  }

  #notify(notification: HitlNotification): void {
    const run = this.#attachedRun();
    if (run !== undefined) run.push(notification);
    else this.#undelivered.push(notification);
  }

  /** The run notifications go to now: the one attached last, unless it has finished. */
  #attachedRun(): HitlRun | undefined {
    const run = this.#run;
    return run === undefined || run.finished ? undefined : run;
  }

  #expired(item: ParkedItem): void {
    this.#options.logger?.warn({}, `Parked ${item.kind} ${item.id} expired unanswered.`);
    releaseParked(item, "expired");
  }
}
