import type { WebSocket } from "ws";
import { EmulatorError } from "../errors/emulator-error.js";
import { createIdSource, type IdSource } from "../ids/id-source.js";
import { readKnobs } from "../knobs/emulator-knobs.js";
import type { EmulatorLogger } from "../logging/logger.js";
import { McpToolbelt } from "../mcp/mcp-toolbelt.js";
import type { ConversationStore } from "../persistence/conversation-store.js";
import { defaultScenarioName, loadScenario, scenarioFromModelName } from "../scenario/scenario-loader.js";
import { WorkspaceGuard } from "../tools/workspace-guard.js";
import type { VersionProfile } from "../version/version-profile.js";
import { readInitializeEvent, readInputEvent, type InputEvent, type UserInput } from "../wire/input-messages.js";
import { OutputChannel } from "../wire/output-channel.js";
import type { HarnessConfig } from "../wire/input-messages.js";
import { SkillCatalogue } from "../tools/skill-catalogue.js";
import { BudgetMeter } from "./budget-meter.js";
import { ConfigView } from "./config-view.js";
import { callHook } from "./hook-caller.js";
import { PendingReplies } from "./pending-replies.js";
import { StepRecorder } from "./step-recorder.js";
import type { ProcessControl, TurnContext } from "./turn-context.js";
import { TurnRunner, type TurnInput } from "./turn-runner.js";
import { UsageMeter } from "./usage-meter.js";

/** WebSocket close codes the emulator uses. */
export const closeCodes = {
  normal: 1000,
  goingAway: 1001,
  invalidPayload: 1007,
  policyViolation: 1008,
  internalError: 1011,
} as const;

/** Close reasons are limited to 123 UTF-8 bytes by the WebSocket protocol; cut on a character boundary. */
export function truncateCloseReason(reason: string): string {
  let out = "";
  let bytes = 0;
  for (const character of reason) {
    const size = Buffer.byteLength(character);
    if (bytes + size > 123) break;
    out += character;
    bytes += size;
  }
  return out;
}

export interface ConversationOptions {
  socket: WebSocket;
  logger: EmulatorLogger;
  /** Environment the scenario and knobs are read from (process env merged with InputConfig.env). */
  env: Record<string, string | undefined>;
  store: ConversationStore;
  /** Process-wide source of cascade ids, so concurrent conversations never collide. */
  cascadeIds: IdSource;
  processControl: ProcessControl;
  commandEnv: Record<string, string>;
  /** The harness release the process plays. */
  profile: VersionProfile;
}

/** The text a turn reads from its input parts: text parts and slash commands, one per line. */
function textOfParts(parts: NonNullable<UserInput["parts"]>): string {
  return parts
    .map((part) => part.text ?? (part.slashCommand?.name !== undefined ? `/${part.slashCommand.name}` : ""))
    .filter((piece) => piece !== "")
    .join("\n");
}

/**
 * One WebSocket connection = one conversation with its own config, workspaces, tools, history and
 * usage. It owns its turn queue and everything the turns start; `close()` ends all of it and
 * persists the history.
 */
export class Conversation {
  readonly #options: ConversationOptions;
  readonly #abortController = new AbortController();
  readonly #pending = new PendingReplies();
  #context: TurnContext | undefined;
  #turnQueue: Promise<void> = Promise.resolve();
  #currentTurn: AbortController | undefined;
  #closed = false;
  /** Timers of scheduled turns (the schedule tool); cleared when the conversation closes. */
  readonly #scheduled = new Set<NodeJS.Timeout>();
  #mcpClosed: Promise<void> = Promise.resolve();
  #resolveClosed!: () => void;
  /** Resolves once the conversation has closed, persisted and stopped its MCP servers. */
  readonly closed: Promise<void>;

  /** How this connection's frames are read: the process's release, strict unless the knob says not. */
  readonly #readOptions: { profile: VersionProfile; strict: boolean };

  constructor(options: ConversationOptions) {
    this.#options = options;
    this.#readOptions = { profile: options.profile, strict: readKnobs(options.env).strict };
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    options.socket.on("message", (data, isBinary) => {
      if (isBinary) {
        options.logger.warn("ignoring a binary WebSocket frame: only text frames carry protocol messages");
        return;
      }
      this.#handleText(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
    });
    options.socket.on("close", () => this.close());
    options.socket.on("error", (error) => options.logger.warn(`WebSocket error: ${error.message}`));
  }

  /** Aborted when the conversation closes. */
  get signal(): AbortSignal {
    return this.#abortController.signal;
  }

  get cascadeId(): string | undefined {
    return this.#context?.cascadeId;
  }

  /** Count of frames sent; the benchmark reads it. */
  get sentFrames(): number {
    return this.#context?.channel.sentFrames ?? 0;
  }

  #handleText(text: string): void {
    if (this.#closed) return;
    const { logger } = this.#options;
    const options = this.#readOptions;
    try {
      if (this.#context === undefined) {
        const reading = readInitializeEvent(text, options);
        if (!reading.ok) {
          this.#refuseInit(reading.error);
          return;
        }
        this.#initialize(reading.message);
        return;
      }
      const reading = readInputEvent(text, options);
      // A frame the harness cannot parse is dropped with a line on stderr; the connection stays up
      // and nothing starts (docs/protocol.md, "Errors"; the emulator README, "Strict like the harness").
      if (!reading.ok) logger.error(`Failed to parse input event: ${reading.error}`);
      else this.#dispatch(reading.message);
    } catch (error) {
      const message = EmulatorError.isInstance(error) ? error.message : String(error);
      this.#options.logger.error(`closing connection: ${message}`);
      const code = EmulatorError.isInstance(error) && error.code === "INVALID_INPUT" ? closeCodes.invalidPayload : closeCodes.internalError;
      this.close({ code, reason: message });
    }
  }

  /**
   * An init frame the played release cannot parse: the real harness prints the parse error and the
   * process exits, taking every conversation with it (docs/protocol.md, "Errors").
   */
  #refuseInit(error: string): void {
    this.#options.logger.error(`Failed to parse initial message: ${error}`);
    this.close({ code: closeCodes.internalError, reason: `Failed to parse initial message: ${error}` });
    this.#options.processControl.exit(1);
  }

  #initialize(harnessConfig: HarnessConfig): void {
    const { logger, store, cascadeIds, profile } = this.#options;
    const config = new ConfigView(harnessConfig);
    if (!config.hasTextModel) {
      // The real harness's words, as 0.1.5 says them.
      throw new EmulatorError("CONFIG_INVALID", "no text model configuration provided");
    }
    const knobs = readKnobs(this.#options.env);
    const scenario = loadScenario(scenarioFromModelName(config.firstModelName) ?? knobs.scenario ?? defaultScenarioName);
    const requested = config.config.cascadeId ?? "";
    const mode = config.config.sessionContinuationMode;
    const stored = requested === "" ? undefined : store.load(requested);
    if ((mode === "RESUME" || mode === 1) && stored === undefined) {
      throw new EmulatorError("CONVERSATION_NOT_FOUND", `RESUME: no conversation "${requested}" in ${store.directory}`);
    }
    if (requested !== "" && stored === undefined && knobs.unknownResume === "refuse" && mode !== "CREATE_ONLY" && mode !== 3) {
      // The other plausible reading of CREATE_OR_RESUME for an id the harness lost (docs/protocol.md, "Assumptions and how we hedge them").
      throw new EmulatorError("CONVERSATION_NOT_FOUND", `no conversation "${requested}" to resume in ${store.directory}`);
    }
    if ((mode === "CREATE_ONLY" || mode === 3) && stored !== undefined) {
      throw new EmulatorError("CONVERSATION_EXISTS", `CREATE_ONLY: conversation "${requested}" already exists`);
    }
    const cascadeId = requested === "" ? cascadeIds.hexId() : requested;
    const ids = createIdSource({ deterministic: knobs.deterministic });
    const channel = new OutputChannel({ socket: this.#options.socket, profile, ids, envelope: knobs.envelope });
    const recorder = new StepRecorder({ channel, history: stored?.history ?? [] });
    const usage = new UsageMeter({ initial: stored?.usage ?? {}, serviceTier: config.serviceTier, profile });
    const skillsConfig = profile.has("skills") ? config.config.skillsConfig : undefined;
    this.#context = {
      cascadeId,
      scenario,
      channel,
      recorder,
      pending: this.#pending,
      config,
      profile,
      knobs,
      ids,
      logger,
      usage,
      guard: new WorkspaceGuard({ roots: config.workspaces, enforce: config.enforceWorkspaceValidation }),
      commandEnv: this.#options.commandEnv,
      mcp: new McpToolbelt({ config: config.config.mcpServers, logger }),
      processControl: this.#options.processControl,
      closing: this.signal,
      closeSocket: (code, reason) => this.close({ code, reason }),
      enqueueBackground: (task) => this.#enqueue(task),
      budget: new BudgetMeter({ budget: profile.has("budgets") ? config.budget : undefined, usage }),
      skills: new SkillCatalogue({
        directories: [...(config.config.skillsPaths ?? []), ...(skillsConfig?.skills ?? []).flatMap((source) => (source.directoryPath === undefined ? [] : [source.directoryPath]))],
        inline: (skillsConfig?.skills ?? []).flatMap((source) => (source.skill === undefined ? [] : [source.skill])),
        // `enabled` defaults to true when skillsConfig comes without it.
        enabled: skillsConfig?.enabled !== false,
      }),
      scheduleTurn: (afterMs, prompt) => this.#scheduleTurn(afterMs, prompt),
      memory: { lastToolResult: "", tokensSinceCompaction: 0 },
    };
    const response: Record<string, unknown> = { cascadeId };
    if (stored !== undefined && stored.history.length > 0) response["history"] = stored.history;
    if (stored !== undefined && profile.has("initUsage") && !usage.isEmpty) {
      response["cumulativeUsage"] = usage.total();
      response["trajectoryUsage"] = usage.agents();
    }
    if (profile.has("sandboxStatus")) response["sandboxStatus"] = config.sandboxStatus;
    channel.send({ initializeConversationResponse: response });
    logger.info(`conversation ${cascadeId} ${stored === undefined ? "created" : "resumed"} (scenario ${scenario.name}, harness ${profile.version})`);
    const context = this.#context;
    this.#enqueue(async (signal) => {
      await callHook(context, { type: "LIFECYCLE_HOOK_ON_SESSION_START", signal });
    });
  }

  #dispatch(event: InputEvent): void {
    const context = this.#context;
    if (context === undefined) return;
    const { logger } = this.#options;
    const userInput = event.userInput;
    if (typeof userInput === "string") {
      // Up to 0.1.10 plain text; the harness wraps it into one text part itself.
      this.#enqueueTurn({ text: userInput, parts: [{ text: userInput }], trigger: false });
    } else if (userInput !== undefined || event.complexUserInput !== undefined) {
      // The parts message: `userInput` from 0.1.11, `complexUserInput` up to 0.1.10.
      const parts = (userInput ?? event.complexUserInput)?.parts ?? [];
      this.#enqueueTurn({ text: textOfParts(parts), parts, trigger: false });
    } else if (event.automatedTrigger !== undefined) {
      this.#enqueueTurn({ text: event.automatedTrigger, parts: [{ text: event.automatedTrigger }], trigger: true });
    } else if (event.toolResponse !== undefined) {
      if (!this.#pending.resolve(`tool:${event.toolResponse.id ?? ""}`, event.toolResponse)) {
        logger.warn(`toolResponse for unknown or finished call id "${event.toolResponse.id ?? ""}" ignored`);
      }
    } else if (event.callHookResponse !== undefined) {
      if (!this.#pending.resolve(`hook:${event.callHookResponse.requestId ?? ""}`, event.callHookResponse)) {
        logger.warn(`callHookResponse for unknown request "${event.callHookResponse.requestId ?? ""}" ignored`);
      }
    } else if (event.policyDecisionResponse !== undefined) {
      if (!this.#pending.resolve(`policy:${event.policyDecisionResponse.requestId ?? ""}`, event.policyDecisionResponse)) {
        logger.warn(`policyDecisionResponse for unknown request "${event.policyDecisionResponse.requestId ?? ""}" ignored`);
      }
    } else if (event.questionResponse !== undefined) {
      const key = `question:${event.questionResponse.trajectoryId ?? ""}:${Number(event.questionResponse.stepIndex ?? 0)}`;
      if (!this.#pending.resolve(key, event.questionResponse)) logger.warn(`questionResponse for a step that is not waiting (${key}) ignored`);
    } else if (event.toolConfirmation !== undefined) {
      const key = `confirm:${event.toolConfirmation.trajectoryId ?? ""}:${Number(event.toolConfirmation.stepIndex ?? 0)}`;
      if (!this.#pending.resolve(key, event.toolConfirmation)) logger.warn(`toolConfirmation for a step that is not waiting (${key}) ignored`);
    } else if (event.haltRequest === true) {
      // A halt with no running turn is a no-op, as on the real harness.
      this.#currentTurn?.abort(new EmulatorError("INVALID_INPUT", "halted by the client"));
    } else if (event.sessionEndRequest === true) {
      void this.#endSession(context);
    } else {
      logger.warn(`ignoring an InputEvent with no known member: ${Object.keys(event).join(", ") || "(empty)"}`);
    }
  }

  async #endSession(context: TurnContext): Promise<void> {
    try {
      await callHook(context, { type: "LIFECYCLE_HOOK_ON_SESSION_END", signal: this.signal });
      context.channel.send({ sessionEndResponse: true });
    } catch {
      // The conversation closed while the hook was pending; nothing to answer.
    }
  }

  #enqueueTurn(input: TurnInput): void {
    const context = this.#context;
    if (context === undefined) return;
    this.#enqueue(async (signal) => {
      const quirk = context.knobs.triggerCrashOnEmpty || context.scenario.quirks?.triggerCrashOnEmpty === true;
      if (input.trigger && quirk && context.recorder.isEmpty) {
        // The 0.1.10 crash reported by genai-rs, reproduced on request.
        context.logger.error("panic: earliest step index is out of bounds: 0 vs 0");
        context.processControl.exit(2);
        return;
      }
      await new TurnRunner(context, input, { signal }).run();
    });
  }

  #scheduleTurn(afterMs: number, prompt: string): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#scheduled.delete(timer);
      this.#enqueueTurn({ text: prompt, parts: [{ text: prompt }], trigger: true, scheduled: true });
    }, afterMs);
    this.#scheduled.add(timer);
  }

  /** Runs tasks one after another; each gets a signal aborted by a halt or by closing. */
  #enqueue(task: (signal: AbortSignal) => Promise<void>): void {
    this.#turnQueue = this.#turnQueue.then(async () => {
      if (this.#closed) return;
      const turn = new AbortController();
      const onClose = (): void => turn.abort(this.signal.reason);
      this.signal.addEventListener("abort", onClose, { once: true });
      this.#currentTurn = turn;
      try {
        await task(turn.signal);
      } catch (error) {
        if (!turn.signal.aborted) this.#options.logger.error(`conversation task failed: ${String(error)}`);
      } finally {
        this.signal.removeEventListener("abort", onClose);
        if (this.#currentTurn === turn) this.#currentTurn = undefined;
      }
    });
  }

  /** Ends running turns, persists the history and closes the socket. Idempotent. */
  close(options: { code?: number; reason?: string } = {}): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abortController.abort(new EmulatorError("INVALID_INPUT", "conversation closed"));
    for (const timer of this.#scheduled) clearTimeout(timer);
    this.#scheduled.clear();
    const context = this.#context;
    if (context !== undefined) {
      context.channel.releaseWaiters();
      this.#mcpClosed = context.mcp.close().catch((error: unknown) => this.#options.logger.warn(`closing MCP servers failed: ${String(error)}`));
      try {
        this.#options.store.save({ cascadeId: context.cascadeId, history: context.recorder.history(), usage: context.usage.snapshot() });
      } catch (error) {
        this.#options.logger.error(`could not persist conversation ${context.cascadeId}: ${String(error)}`);
      }
    }
    const socket = this.#options.socket;
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
      socket.close(options.code ?? closeCodes.normal, truncateCloseReason(options.reason ?? ""));
    }
    void this.#mcpClosed.then(() => this.#resolveClosed());
  }

  /** Forcibly drops the TCP connection, for shutdown when a peer does not finish the close handshake. */
  terminate(): void {
    this.close({ code: closeCodes.goingAway, reason: "harness shutting down" });
    this.#options.socket.terminate();
  }
}
