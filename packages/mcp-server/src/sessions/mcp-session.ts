import { linkSignals } from "@ag-ui-antigravity/foundation";
import type { Conversation, NormalizedStep, TokenUsage } from "@ag-ui-antigravity/harness";
import type { PoolLease } from "@ag-ui-antigravity/pool";
import type { TurnInteraction } from "../hitl/turn-interaction.js";
import { McpServerError } from "./mcp-server-error.js";

/** What one turn gave back. */
export interface TurnOutcome {
  /** The agent's answer: its last model step shown to the user; the partial text when `cancelled`. */
  reply: string;
  /** True when the turn was halted before it finished (its caller cancelled it, or the session closed under it); `reply` is then partial. */
  cancelled: boolean;
  /** Tokens this turn used (not the session's running total). */
  usage: TokenUsage;
  /** Questions or approvals that could not be asked of the caller, in words. */
  notes: string[];
}

/** A snapshot for `list_sessions`. */
export interface SessionSummary {
  /** What `run_turn` and `close_session` take to reach this session (its harness conversation id). */
  sessionId: string;
  /** True while a turn runs; a `run_turn` on it now would get SESSION_BUSY. */
  busy: boolean;
  /** Turns that completed (cancelled ones included); failed turns are not counted. */
  turns: number;
  /** When the session was opened, ISO 8601 (UTC). */
  createdAt: string;
  /** When its last turn started or ended (its creation before any), ISO 8601 (UTC); the idle timeout counts from here. */
  lastActiveAt: string;
  /** The start of the last reply (at most 200 characters). */
  lastReply: string;
}

/**
 * One Antigravity conversation on a pooled harness process, owned by the MCP client that opened it
 * (or by its token; every client, with `shareSessions`). One turn at a time; the MCP client that
 * runs a turn answers its questions.
 */
export class McpSession {
  /** The session's slot on the harness pool: its conversation (`lease.conversation`), released by `close()`. */
  readonly lease: PoolLease<Conversation>;
  /**
   * Who may see and use the session (`list_sessions`, `run_turn`, `close_session`): the MCP client
   * connection that opened it, or the `--auth-token` its client presented. Never sent to a client.
   */
  readonly owner: string;
  /** When the session was opened. */
  readonly createdAt = new Date();
  #lastActiveAt = new Date();
  #turns = 0;
  #lastReply = "";
  #interaction: TurnInteraction | undefined;

  constructor(lease: PoolLease<Conversation>, owner = "") {
    this.lease = lease;
    this.owner = owner;
  }

  /** The harness conversation id; also the session id the tools use. */
  get id(): string {
    return this.lease.conversation.id;
  }

  /** True while a turn runs (one this session started, or one its conversation still reports in progress). */
  get busy(): boolean {
    return this.#interaction !== undefined || this.lease.conversation.busy;
  }

  /** Since when the session has run no turn (ms since the epoch), or undefined while it runs one. */
  get idleSince(): number | undefined {
    return this.busy ? undefined : this.#lastActiveAt.getTime();
  }

  /** Aborted when the session ends: closed, its process died, or the server closed. */
  get signal(): AbortSignal {
    return this.lease.signal;
  }

  /** Resolves when the session's conversation is closed and its pool slot free. */
  get closed(): Promise<void> {
    return this.lease.closed;
  }

  /** Ends the session: its turn (if any) is cancelled and its conversation closed. Idempotent. */
  close(): Promise<void> {
    return this.lease.release();
  }

  /** Whoever runs the current turn, for the conversation's hooks. */
  get interaction(): TurnInteraction | undefined {
    return this.#interaction;
  }

  /** A snapshot for `list_sessions`; never includes `owner`. */
  summary(): SessionSummary {
    return {
      sessionId: this.id,
      busy: this.busy,
      turns: this.#turns,
      createdAt: this.createdAt.toISOString(),
      lastActiveAt: this.#lastActiveAt.toISOString(),
      lastReply: this.#lastReply.slice(0, 200),
    };
  }

  /**
   * Runs one turn. `onStep` sees every step as it streams (for progress notifications). A second
   * concurrent turn is refused with SESSION_BUSY; a session whose process died with SESSION_LOST.
   */
  async runTurn(message: string, options: { interaction: Omit<TurnInteraction, "notes">; signal: AbortSignal; onStep?: (step: NormalizedStep) => void }): Promise<TurnOutcome> {
    if (this.lease.signal.aborted) throw new McpServerError("SESSION_LOST", `Session ${this.id} has ended (its harness process stopped); start a new session.`);
    if (this.busy) throw new McpServerError("SESSION_BUSY", `Session ${this.id} is already running a turn; wait for it to finish or use another session.`);
    const interaction: TurnInteraction = { ...options.interaction, notes: [] };
    this.#interaction = interaction;
    this.#lastActiveAt = new Date();
    // Linked, not AbortSignal.any: the lease's signal lives as long as the session (linkSignals).
    const turnSignal = linkSignals([options.signal, this.lease.signal]);
    try {
      const turn = this.lease.conversation.send(message, { signal: turnSignal.signal });
      for await (const step of turn) options.onStep?.(step);
      const result = await turn.result;
      this.#turns += 1;
      this.#lastReply = result.text;
      return { reply: result.text, cancelled: result.cancelled, usage: result.usage, notes: interaction.notes };
    } finally {
      turnSignal.unlink();
      this.#interaction = undefined;
      this.#lastActiveAt = new Date();
    }
  }
}
