import { Lifetime, type Logger } from "@ag-ui-antigravity/foundation";
import type { ConversationConfig } from "@ag-ui-antigravity/harness";
import { HarnessPool, type HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import { approvalPolicies, sessionHooks } from "../hitl/session-hooks.js";
import type { TurnInteraction } from "../hitl/turn-interaction.js";
import { DEFAULT_SESSION_IDLE_TIMEOUT_MS, type McpServerSettings } from "../server-options.js";
import { McpServerError } from "./mcp-server-error.js";
import { McpSession } from "./mcp-session.js";

/**
 * What a `SessionRegistry` needs: the server settings, the harness executable, pool settings and a
 * logger.
 */
export interface SessionRegistryOptions {
  /** What every session is opened with; `validateSettings` checks them (the registry does not). */
  settings: McpServerSettings;
  /** The harness executable (the real `localharness`, or the emulator's `dist/bin.js`). */
  binaryPath: string;
  /** Extra pool settings (capacity per process, idle grace, …). */
  pool?: Omit<HarnessPoolSettings, "logger" | "signal">;
  /** Receives the pool's and the harness processes' logs. Default: none. */
  logger?: Logger;
}

/**
 * Every Antigravity session of one MCP server, on one shared harness pool (conversations share
 * processes). Each session has an owner (the MCP client, or the token, that opened it); the methods
 * that take an `owner` see only its sessions, unless the settings share sessions. Without an owner
 * they see every session (the server's own bookkeeping, tests).
 */
export class SessionRegistry {
  /** The settings given to the constructor, as given; every session is opened with them. */
  readonly settings: McpServerSettings;
  /** The harness pool every session's conversation runs on; the registry owns it and closes it in `close()`. Read it for metrics. */
  readonly pool: HarnessPool;
  readonly #sessions = new Map<string, McpSession>();
  readonly #idleTimeoutMs: number;
  #sweeper: NodeJS.Timeout | undefined;
  /** Sessions being opened, counted against the limit before they have an id. */
  #opening = 0;
  readonly #lifetime = new Lifetime();
  /** Aborted (with SERVER_CLOSED) when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished: every session closed, every harness process stopped. */
  readonly closed = this.#lifetime.closed;

  constructor(options: SessionRegistryOptions) {
    this.settings = options.settings;
    this.#idleTimeoutMs = options.settings.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
    this.pool = new HarnessPool({
      ...(options.pool ?? {}),
      harness: { binaryPath: options.binaryPath, ...(options.logger === undefined ? {} : { logger: options.logger }) },
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  }

  /**
   * Opens a new session (a new harness conversation on the pool). At `maxSessions`, the session idle
   * longest is closed to make room; only when every session runs a turn is the new one refused.
   */
  async create(options: { signal?: AbortSignal; owner?: string } = {}): Promise<McpSession> {
    this.#assertOpen();
    if (this.#sessions.size + this.#opening >= this.settings.maxSessions) {
      const idlest = this.#idlest();
      if (idlest === undefined) {
        throw new McpServerError("SESSION_LIMIT", `This server already has ${this.settings.maxSessions} sessions, each running a turn (its limit); retry when one has finished.`);
      }
      this.#sessions.delete(idlest.id);
      await idlest.close();
      this.#assertOpen();
    }
    this.#startSweeper();
    this.#opening += 1;
    let session: McpSession | undefined;
    try {
      const lease = await this.pool.acquire({
        config: this.#conversationConfig(() => session?.interaction),
        ...(this.settings.storageDirectory === undefined ? {} : { partition: { storageDirectory: this.settings.storageDirectory } }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      session = new McpSession(lease, options.owner ?? "");
      const created = session;
      this.#sessions.set(created.id, created);
      // A session whose process died is gone; its id then answers SESSION_NOT_FOUND.
      lease.signal.addEventListener("abort", () => this.#sessions.delete(created.id), { once: true });
      return created;
    } finally {
      this.#opening -= 1;
    }
  }

  /**
   * The session with this id; with `owner`, only when it is theirs: another owner's session is not
   * found, the same answer as for no session at all, so an id says nothing about who holds it.
   */
  get(sessionId: string, owner?: string): McpSession {
    this.#assertOpen();
    const session = this.#sessions.get(sessionId);
    if (session === undefined || !this.#visibleTo(session, owner)) {
      throw new McpServerError("SESSION_NOT_FOUND", `No session ${JSON.stringify(sessionId.slice(0, 200))}; list_sessions shows yours.`);
    }
    return session;
  }

  /** The open sessions; with `owner`, only theirs. */
  list(owner?: string): McpSession[] {
    return [...this.#sessions.values()].filter((session) => this.#visibleTo(session, owner));
  }

  /** Ends a session (with `owner`, only theirs): its turn (if any) is cancelled and its conversation closed. */
  async closeSession(sessionId: string, owner?: string): Promise<void> {
    const session = this.get(sessionId, owner);
    this.#sessions.delete(sessionId);
    await session.close();
  }

  /** Closes every session and stops every harness process. Idempotent. */
  close(options: { deadlineMs?: number } = {}): Promise<void> {
    return this.#lifetime.close(
      () => new McpServerError("SERVER_CLOSED", "The server is shutting down."),
      async () => {
        clearInterval(this.#sweeper);
        this.#sweeper = undefined;
        const sessions = [...this.#sessions.values()];
        this.#sessions.clear();
        await Promise.allSettled(sessions.map((session) => session.close()));
        await this.pool.close({ deadlineMs: options.deadlineMs ?? 10_000 });
      },
    );
  }

  #visibleTo(session: McpSession, owner: string | undefined): boolean {
    return owner === undefined || this.settings.shareSessions === true || session.owner === owner;
  }

  /** The session without a turn for the longest, or undefined when every one runs a turn. */
  #idlest(): McpSession | undefined {
    let idlest: McpSession | undefined;
    for (const session of this.#sessions.values()) {
      const since = session.idleSince;
      if (since !== undefined && (idlest === undefined || since < (idlest.idleSince ?? Number.POSITIVE_INFINITY))) idlest = session;
    }
    return idlest;
  }

  /** Closes sessions idle past the timeout, every half of it at most (between 50 ms and a minute). */
  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => {
      const now = Date.now();
      for (const session of [...this.#sessions.values()]) {
        const since = session.idleSince;
        if (since === undefined || now - since < this.#idleTimeoutMs) continue;
        this.#sessions.delete(session.id);
        void session.close();
      }
    }, Math.min(60_000, Math.max(50, Math.floor(this.#idleTimeoutMs / 2))));
    this.#sweeper.unref();
  }

  #assertOpen(): void {
    if (this.#lifetime.isClosing) throw new McpServerError("SERVER_CLOSED", "The server is shutting down.");
  }

  #conversationConfig(interaction: () => TurnInteraction | undefined): ConversationConfig {
    const { settings } = this;
    return {
      model: settings.model,
      workspaces: settings.workspaces,
      builtinTools: settings.builtinTools,
      policies: approvalPolicies(settings.approval),
      hooks: sessionHooks(interaction),
      turnTimeoutMs: settings.turnTimeoutMs,
    };
  }
}
