import { linkSignals, type Logger } from "@ag-ui-antigravity/foundation";
import type { Conversation, McpServer } from "@ag-ui-antigravity/harness";
import type { PoolLease } from "@ag-ui-antigravity/pool";
import type { AgentContext, ClientCapabilities, ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import type { PermissionState, PromptInteraction } from "../permissions/prompt-interaction.js";
import type { SessionModeId } from "../permissions/session-modes.js";
import type { PendingEdit } from "../turns/file-edits.js";
import { promptInput } from "../turns/prompt-input.js";
import { StepUpdates } from "../turns/step-updates.js";
import { ToolCallBook } from "../turns/tool-call-book.js";
import { Transcript } from "../turns/transcript.js";
import { UpdateChannel, type SendUpdate } from "../turns/update-channel.js";
import { AcpServerError } from "./acp-server-error.js";
import type { SessionRecord, SessionStore } from "./session-store.js";

/** What a session was opened with that is not kept on disk (MCP servers may carry secrets), for reopening it. */
export interface SessionOpenConfig {
  workspaces: string[];
  mcpServers: McpServer[];
}

export interface AcpSessionOptions {
  lease: PoolLease<Conversation>;
  record: SessionRecord;
  openConfig: SessionOpenConfig;
  store: SessionStore;
  logger: Logger;
  turnTimeoutMs: number;
  permissionTimeoutMs: number;
  idleTimeoutMs: number;
  /** Called when the session has had no prompt for `idleTimeoutMs`. */
  onIdle: (session: AcpSession) => void;
}

/** The client running a prompt, as the session needs it. */
export interface PromptClient {
  client: AgentContext;
  capabilities: ClientCapabilities;
  /** The prompt request's signal: aborted if the client cancels the request or the connection ends. */
  signal: AbortSignal;
}

/**
 * One ACP session: one harness conversation on the pool, its approval mode and "always" choices,
 * and the prompt running on it (one at a time). Its updates go through one channel, in order, and
 * each prompt's are appended to the session's transcript for `session/load`.
 */
export class AcpSession {
  readonly lease: PoolLease<Conversation>;
  readonly openConfig: SessionOpenConfig;
  readonly #record: SessionRecord;
  readonly #store: SessionStore;
  readonly #logger: Logger;
  readonly #options: AcpSessionOptions;
  readonly #book = new ToolCallBook();
  readonly #edits = new Map<string, PendingEdit>();
  readonly #updates: StepUpdates;
  readonly #transcript = new Transcript();
  readonly #alwaysAllowed: Set<string>;
  #interaction: PromptInteraction | undefined;
  #cancelPrompt: AbortController | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #recordWrite: Promise<void> = Promise.resolve();
  /** The mode and "always" choices, for the permission gate. */
  readonly permissionState: PermissionState;

  constructor(options: AcpSessionOptions) {
    this.#options = options;
    this.lease = options.lease;
    this.openConfig = options.openConfig;
    this.#record = { ...options.record };
    this.#store = options.store;
    this.#logger = options.logger;
    this.#alwaysAllowed = new Set(options.record.alwaysAllowed);
    this.#updates = new StepUpdates(this.#book, this.#edits);
    const record = this.#record;
    this.permissionState = {
      get mode(): SessionModeId {
        return record.modeId;
      },
      alwaysAllowed: this.#alwaysAllowed,
      allowAlways: (key) => {
        this.#alwaysAllowed.add(key);
        this.saveRecord();
      },
    };
    this.#armIdleTimer();
  }

  get id(): string {
    return this.#record.sessionId;
  }

  get mode(): SessionModeId {
    return this.#record.modeId;
  }

  get busy(): boolean {
    return this.#cancelPrompt !== undefined;
  }

  /** Aborted when the session's conversation ends: closed, expired, its process died, or the server closed. */
  get signal(): AbortSignal {
    return this.lease.signal;
  }

  /** The prompt running now, for the conversation's hooks. */
  get interaction(): PromptInteraction | undefined {
    return this.#interaction;
  }


  setMode(modeId: SessionModeId): void {
    this.#record.modeId = modeId;
    this.saveRecord();
  }

  /**
   * Runs one prompt turn, streaming its updates; resolves with why it stopped (`cancelled` after
   * `cancel()`, with what was produced until then). A second prompt while one runs is refused.
   */
  async prompt(blocks: readonly ContentBlock[], from: PromptClient, send: SendUpdate): Promise<StopReason> {
    if (this.lease.signal.aborted) throw new AcpServerError("SESSION_NOT_FOUND", `Session ${this.id} has ended; load it again.`);
    if (this.#cancelPrompt !== undefined) throw new AcpServerError("SESSION_BUSY", `Session ${this.id} is already running a prompt; cancel it or wait for it to finish.`);
    const input = promptInput(blocks);
    const cancel = new AbortController();
    this.#cancelPrompt = cancel;
    clearTimeout(this.#idleTimer);
    // Linked, not AbortSignal.any: the lease's signal lives as long as the session (linkSignals).
    const turnSignal = linkSignals([from.signal, cancel.signal, this.lease.signal]);
    const channel = new UpdateChannel({ sessionId: this.id, send, transcript: this.#transcript, logger: this.#logger });
    for (const update of input.userMessage) this.#transcript.add(update);
    this.#book.resetTurn();
    this.#interaction = {
      sessionId: this.id,
      client: from.client,
      capabilities: from.capabilities,
      signal: turnSignal.signal,
      channel,
      book: this.#book,
      updates: this.#updates,
      edits: this.#edits,
      permissionTimeoutMs: this.#options.permissionTimeoutMs,
      approved: new Set(),
    };
    try {
      const turn = this.lease.conversation.send(input.parts, { signal: turnSignal.signal, timeoutMs: this.#options.turnTimeoutMs });
      for await (const step of turn) {
        // Synchronously, as each step arrives: a hook asking about this call may come right behind it.
        this.#book.observe(step);
        channel.enqueue(() => this.#updates.updatesFor(step));
      }
      const result = await turn.result;
      await channel.flush();
      return result.cancelled || cancel.signal.aborted ? "cancelled" : "end_turn";
    } catch (error) {
      await channel.flush();
      if (cancel.signal.aborted || from.signal.aborted) return "cancelled";
      throw error;
    } finally {
      turnSignal.unlink();
      this.#interaction = undefined;
      this.#cancelPrompt = undefined;
      this.#edits.clear();
      await this.#saveTranscript();
      this.#armIdleTimer();
    }
  }

  /** Cancels the running prompt (the harness halts; what was streamed stays). A no-op with none. */
  cancel(): void {
    this.#cancelPrompt?.abort();
  }

  /** Ends the session here: its prompt is cancelled and its conversation closed (the harness keeps it). Idempotent. */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    this.cancel();
    await this.lease.release();
    await this.#recordWrite;
  }

  #armIdleTimer(): void {
    clearTimeout(this.#idleTimer);
    if (this.lease.signal.aborted) return;
    this.#idleTimer = setTimeout(() => {
      if (!this.busy) this.#options.onIdle(this);
    }, this.#options.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  async #saveTranscript(): Promise<void> {
    const updates = this.#transcript.take();
    this.#record.updatedAt = new Date().toISOString();
    try {
      await this.#store.append(this.id, updates);
    } catch (error) {
      this.#logger.warn({ sessionId: this.id, error: String(error) }, "could not keep the session's transcript");
    }
    this.saveRecord();
    await this.#recordWrite;
  }

  /** Writes the session's record (queued behind earlier writes). */
  saveRecord(): void {
    this.#record.alwaysAllowed = [...this.#alwaysAllowed];
    const record = { ...this.#record };
    this.#recordWrite = this.#recordWrite
      .then(() => this.#store.write(record))
      .catch((error: unknown) => this.#logger.warn({ sessionId: this.id, error: String(error) }, "could not keep the session's record"));
  }
}
