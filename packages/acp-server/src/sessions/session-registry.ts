import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Lifetime, type Logger } from "@ag-ui-antigravity/foundation";
import type { ConversationConfig } from "@ag-ui-antigravity/harness";
import { HarnessPool, type HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { permissionHooks } from "../permissions/permission-gate.js";
import { questionHook } from "../permissions/question-asker.js";
import type { PermissionState } from "../permissions/prompt-interaction.js";
import type { AcpServerSettings } from "../server-settings.js";
import { AcpServerError } from "./acp-server-error.js";
import { AcpSession, type SessionOpenConfig } from "./acp-session.js";
import { isValidSessionId, SessionStore, type SessionRecord } from "./session-store.js";

/** Expired sessions remembered for a later prompt to reopen (their MCP servers are not on disk). */
const MAX_DORMANT_SESSIONS = 1_000;

export interface SessionRegistryOptions {
  settings: AcpServerSettings;
  /** The harness executable (the real `localharness`, or the emulator's `dist/bin.js`). */
  binaryPath: string;
  logger: Logger;
  /** Extra pool settings (capacity per process, idle grace, …). */
  pool?: Omit<HarnessPoolSettings, "logger" | "signal" | "harness"> | undefined;
}

/**
 * Every session of one ACP server, on one harness pool: opening (new, loaded, reopened after
 * expiry), the session cap, idle expiry, and the state directory (session records beside the
 * harness's own conversation storage).
 */
export class SessionRegistry {
  readonly settings: AcpServerSettings;
  readonly pool: HarnessPool;
  readonly store: SessionStore;
  readonly #logger: Logger;
  readonly #stateDirectory: string;
  readonly #temporaryState: boolean;
  readonly #sessions = new Map<string, AcpSession>();
  /** Sessions that expired, with what reopens them and when their old conversation is closed, oldest first. */
  readonly #dormant = new Map<string, { openConfig: SessionOpenConfig; closed: Promise<void> }>();
  /** Sessions being opened, counted against the cap before they have an id. */
  #opening = 0;
  /** Kept sessions being reopened, by id: a second load or prompt waits for the same opening. */
  readonly #reopening = new Map<string, Promise<AcpSession>>();
  readonly #lifetime = new Lifetime();
  /** Aborted (with SERVER_CLOSED) when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished: every session closed, every harness process stopped. */
  readonly closed = this.#lifetime.closed;

  private constructor(options: SessionRegistryOptions, stateDirectory: string, temporaryState: boolean) {
    this.settings = options.settings;
    this.#logger = options.logger;
    this.#stateDirectory = stateDirectory;
    this.#temporaryState = temporaryState;
    this.store = new SessionStore(join(stateDirectory, "sessions"));
    this.pool = new HarnessPool({ ...(options.pool ?? {}), harness: { binaryPath: options.binaryPath, logger: options.logger }, logger: options.logger });
  }

  /** A registry on its state directory (created owner-only; a temporary one when the settings name none). */
  static async open(options: SessionRegistryOptions): Promise<SessionRegistry> {
    const configured = options.settings.stateDirectory;
    const stateDirectory = configured ?? (await mkdtemp(join(tmpdir(), "antigravity-acp-")));
    await mkdir(join(stateDirectory, "harness"), { recursive: true, mode: 0o700 });
    return new SessionRegistry(options, stateDirectory, configured === undefined);
  }

  /** True when sessions outlive this process (a configured state directory): `session/load` is offered then. */
  get persistent(): boolean {
    return !this.#temporaryState;
  }

  /** Opens a new session (a new harness conversation). */
  async create(openConfig: SessionOpenConfig, options: { signal: AbortSignal }): Promise<AcpSession> {
    const now = new Date().toISOString();
    return this.#open({ openConfig, signal: options.signal, record: (sessionId) => ({ sessionId, cwd: openConfig.workspaces[0] ?? "", additionalDirectories: openConfig.workspaces.slice(1), modeId: this.settings.defaultMode, alwaysAllowed: [], createdAt: now, updatedAt: now }) });
  }

  /** Opens a kept session again (its harness conversation resumed) and returns the updates to replay. */
  async load(sessionId: string, openConfig: SessionOpenConfig, options: { signal: AbortSignal }): Promise<{ session: AcpSession; replay: SessionUpdate[] }> {
    const record = await this.#recordOf(sessionId);
    const replay = await this.store.transcript(sessionId);
    const live = this.#sessions.get(sessionId);
    if (live !== undefined && !live.signal.aborted) return { session: live, replay };
    const expired = this.#dormant.get(sessionId);
    this.#dormant.delete(sessionId);
    await expired?.closed;
    const session = await this.#reopen(sessionId, () => this.#open({ openConfig, signal: options.signal, resume: sessionId, record: () => ({ ...record, cwd: openConfig.workspaces[0] ?? record.cwd, additionalDirectories: openConfig.workspaces.slice(1) }) }));
    return { session, replay };
  }

  /** A session of this connection: open, or expired and reopened now. */
  async resolve(sessionId: string, options: { signal: AbortSignal }): Promise<AcpSession> {
    this.#assertOpen();
    const live = this.#sessions.get(sessionId);
    if (live !== undefined && !live.signal.aborted) return live;
    const reopening = this.#reopening.get(sessionId);
    if (reopening !== undefined) return reopening;
    const dormant = this.#dormant.get(sessionId);
    if (dormant === undefined) throw notFound(sessionId);
    return this.#reopen(sessionId, async () => {
      const record = await this.#recordOf(sessionId);
      this.#dormant.delete(sessionId);
      // The harness keeps the conversation when it closes: it is resumed once that is done.
      await dormant.closed;
      this.#logger.info({ sessionId }, `session ${sessionId}: reopening its conversation after idle expiry`);
      return this.#open({ openConfig: dormant.openConfig, signal: options.signal, resume: sessionId, record: () => record });
    });
  }

  /** Reopens a kept session once, however many requests ask for it at the same time. */
  #reopen(sessionId: string, open: () => Promise<AcpSession>): Promise<AcpSession> {
    const pending = this.#reopening.get(sessionId);
    if (pending !== undefined) return pending;
    const opening = open().finally(() => this.#reopening.delete(sessionId));
    this.#reopening.set(sessionId, opening);
    return opening;
  }

  /** The open session with this id, if any (for notifications, which must not open anything). */
  find(sessionId: string): AcpSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Ends a session: its prompt is cancelled and its conversation closed; it stays loadable. */
  async closeSession(sessionId: string): Promise<void> {
    const expired = this.#dormant.get(sessionId);
    this.#dormant.delete(sessionId);
    const session = this.#sessions.get(sessionId);
    if (session === undefined && expired !== undefined) return expired.closed;
    if (session === undefined) throw notFound(sessionId);
    this.#sessions.delete(sessionId);
    await session.close();
  }

  /** Closes every session, stops every harness process and removes a temporary state directory. Idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(
      () => new AcpServerError("SERVER_CLOSED", "The server is shutting down."),
      async () => {
        const sessions = [...this.#sessions.values()];
        this.#sessions.clear();
        this.#dormant.clear();
        await Promise.allSettled(sessions.map((session) => session.close()));
        await this.pool.close({ deadlineMs: 10_000 });
        if (this.#temporaryState) await rm(this.#stateDirectory, { recursive: true, force: true });
      },
    );
  }

  async #recordOf(sessionId: string): Promise<SessionRecord> {
    this.#assertOpen();
    if (!isValidSessionId(sessionId)) throw notFound(sessionId);
    const record = await this.store.read(sessionId);
    if (record === undefined) throw notFound(sessionId);
    return record;
  }

  async #open(request: { openConfig: SessionOpenConfig; signal: AbortSignal; resume?: string; record: (sessionId: string) => SessionRecord }): Promise<AcpSession> {
    this.#assertOpen();
    if (this.#sessions.size + this.#opening >= this.settings.maxSessions) {
      throw new AcpServerError("SESSION_LIMIT", `This agent already has ${this.settings.maxSessions} open sessions (its limit); close one, or wait for an idle one to expire.`);
    }
    this.#opening += 1;
    const holder: { session?: AcpSession } = {};
    try {
      const lease = await this.pool.acquire({ config: this.#conversationConfig(request.openConfig, holder, request.resume), partition: this.#partition(), signal: request.signal });
      const record = request.record(lease.conversation.id);
      const session = new AcpSession({
        lease,
        record,
        openConfig: request.openConfig,
        store: this.store,
        logger: this.#logger,
        turnTimeoutMs: this.settings.turnTimeoutMs,
        permissionTimeoutMs: this.settings.permissionTimeoutMs,
        idleTimeoutMs: this.settings.idleTimeoutMs,
        onIdle: (idle) => void this.#expire(idle),
      });
      holder.session = session;
      this.#sessions.set(session.id, session);
      // A session whose process died is gone from this connection; its record stays for session/load.
      lease.signal.addEventListener("abort", () => {
        if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
      }, { once: true });
      session.saveRecord();
      return session;
    } finally {
      this.#opening -= 1;
    }
  }

  async #expire(session: AcpSession): Promise<void> {
    if (this.#sessions.get(session.id) !== session || session.busy) return;
    this.#sessions.delete(session.id);
    const closed = session.close().catch((error: unknown) => this.#logger.warn({ sessionId: session.id, error: String(error) }, "closing an expired session failed"));
    this.#dormant.set(session.id, { openConfig: session.openConfig, closed });
    if (this.#dormant.size > MAX_DORMANT_SESSIONS) {
      const oldest = this.#dormant.keys().next().value;
      if (oldest !== undefined) this.#dormant.delete(oldest);
    }
    this.#logger.info({ sessionId: session.id }, `session ${session.id} expired after ${Math.round(this.settings.idleTimeoutMs / 1000)} s idle; its conversation is closed (a new prompt reopens it)`);
    await closed;
  }

  #conversationConfig(openConfig: SessionOpenConfig, holder: { session?: AcpSession }, resume: string | undefined): ConversationConfig {
    const { settings } = this;
    const defaultState: PermissionState = { mode: settings.defaultMode, alwaysAllowed: new Set(), allowAlways: () => undefined };
    return {
      model: settings.model,
      workspaces: openConfig.workspaces,
      builtinTools: settings.builtinTools,
      mcpServers: openConfig.mcpServers,
      ...(settings.systemInstructions === undefined ? {} : { systemInstructions: settings.systemInstructions }),
      hooks: {
        ...permissionHooks(() => ({ interaction: holder.session?.interaction, state: holder.session?.permissionState ?? defaultState })),
        onQuestions: questionHook(() => holder.session?.interaction),
      },
      turnTimeoutMs: settings.turnTimeoutMs,
      ...(resume === undefined ? {} : { conversationId: resume, continuation: "resume" as const }),
    };
  }

  #partition(): { storageDirectory: string } {
    return { storageDirectory: join(this.#stateDirectory, "harness") };
  }

  #assertOpen(): void {
    if (this.#lifetime.isClosing) throw new AcpServerError("SERVER_CLOSED", "The server is shutting down.");
  }
}

function notFound(sessionId: string): AcpServerError {
  return new AcpServerError("SESSION_NOT_FOUND", `No session ${JSON.stringify(sessionId.slice(0, 200))} here; load it with session/load, or start a new one.`);
}
