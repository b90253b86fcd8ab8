import { linkSignals, type ThreadHolding } from "@ag-ui-antigravity/foundation";
import { setMaxListeners } from "node:events";
import { AgentError } from "../errors/agent-error.js";

/** What the manager needs from a session. */
export interface ManagedSession {
  /** True while the session's turn waits on a human (a parked tool, question or approval). */
  readonly isParked: boolean;
  /** Ends the session; `reason` says why, for logs. Must not throw. */
  close(reason: SessionCloseReason): Promise<void>;
}

export type SessionCloseReason = "idle-timeout" | "parked-timeout" | "evicted" | "reclaimed" | "trigger-limit" | "rebuilt" | "closed" | "manager-closed" | "lease-lost";


export interface SessionManagerLogger {
  info?(details: Record<string, unknown>, message: string): void;
  warn?(details: Record<string, unknown>, message: string): void;
}

export interface SessionManagerOptions<Session extends ManagedSession> {
  /** Builds the session of a thread that has none (a new thread, or one whose session was retired). */
  create(threadId: string, options: { signal: AbortSignal }): Promise<Session>;
  /** An idle session unused this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /** A parked session unanswered this long is closed (never less than the idle timeout). Default 2 hours. */
  parkedTimeoutMs?: number;
  /** Live sessions at most; at the cap the least recently used idle session is evicted. Default 100. */
  maxSessions?: number;
  /** How often expired sessions are swept. Default half the idle timeout, between 1 s and 60 s, so a session outlives its timeout by at most half of it. */
  sweepIntervalMs?: number;
  logger?: SessionManagerLogger;
  /** Clock, injectable for tests. */
  now?: () => number;
}

/** Exclusive use of one thread's session for the length of a run. */
export interface SessionLease<Session extends ManagedSession> {
  readonly threadId: string;
  readonly session: Session;
  /** True when the session was created for this run; false when a live one was reused. */
  readonly created: boolean;
  /** Marks the session as used now, so a long run is not swept. */
  touch(): void;
  /** Ends the lease. Idempotent. */
  release(): void;
}

/**
 * The agent's harness sessions right now: how many are live, busy or parked, and the limits they run
 * under.
 */
export interface SessionStats {
  /** Threads with a live harness session now (busy, parked or idle; spares not counted). */
  liveSessions: number;
  /** Of those, the ones a run or a turn is using now (the thread's lock is held). */
  busySessions: number;
  /** Of those, the ones whose turn waits on a human (an interrupt); they close after `parkedTimeoutMs`. */
  parkedSessions: number;
  /** The cap on live sessions (`sessions.maxSessions`): past it the least recently used idle one is evicted. */
  maxSessions: number;
  /** How long an idle session lives unused before it is closed, in milliseconds (`sessions.idleTimeoutMs`). */
  idleTimeoutMs: number;
  /** How long a parked session waits for its answer before it is closed, in milliseconds; never less than `idleTimeoutMs`. */
  parkedTimeoutMs: number;
}

interface Entry<Session> {
  session?: Session;
  busy: boolean;
  lastActivity: number;
}

/**
 * One live session per thread id. Locks are per thread, never global: a run on a busy thread is
 * refused at once (THREAD_BUSY) rather than queued, and no lock is held across another thread's
 * session creation or shutdown.
 */
export class SessionManager<Session extends ManagedSession> {
  readonly #options: Required<Omit<SessionManagerOptions<Session>, "logger">> & { logger: SessionManagerLogger };
  readonly #entries = new Map<string, Entry<Session>>();
  readonly #lifetime = new AbortController();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionManagerOptions<Session>) {
    const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.#options = {
      create: options.create,
      idleTimeoutMs,
      // A parked session gets a grace period, never less than an idle one.
      parkedTimeoutMs: Math.max(options.parkedTimeoutMs ?? 2 * 60 * 60_000, idleTimeoutMs),
      maxSessions: options.maxSessions ?? 100,
      sweepIntervalMs: options.sweepIntervalMs ?? Math.min(60_000, Math.max(1_000, Math.floor(idleTimeoutMs / 2))),
      logger: options.logger ?? {},
      now: options.now ?? Date.now,
    };
    // Every session being created listens to it for as long as its creation lasts.
    setMaxListeners(0, this.#lifetime.signal);
  }

  /**
   * Takes the thread's session for a run, creating it when the thread has none or when `reuse`
   * rejects the live one (a changed tool contract, a lost harness). Throws THREAD_BUSY when a run
   * holds it, SESSION_LIMIT when every session is busy or parked, AGENT_CLOSED after `close()`.
   */
  async acquire(
    threadId: string,
    options: {
      signal?: AbortSignal;
      reuse?: (session: Session) => boolean;
      /**
       * False for a turn nobody asked for (a trigger, a notification): it does not count as use, so
       * a thread nobody uses still retires after its idle timeout, and its triggers with it.
       */
      refreshesIdle?: boolean;
    } = {},
  ): Promise<SessionLease<Session>> {
    if (this.#lifetime.signal.aborted) throw new AgentError("AGENT_CLOSED", "The agent is shut down.");
    options.signal?.throwIfAborted();
    const existing = this.#entries.get(threadId);
    if (existing?.busy) {
      // The id is the client's own and may be huge; the refusal does not echo it.
      throw new AgentError("THREAD_BUSY", "This thread already has a run in progress.");
    }
    const refreshesIdle = options.refreshesIdle ?? true;
    const entry: Entry<Session> = existing ?? { busy: false, lastActivity: this.#options.now() };
    entry.busy = true;
    if (refreshesIdle) entry.lastActivity = this.#options.now();
    this.#entries.set(threadId, entry);
    this.#startSweeper();
    let created = false;
    try {
      if (entry.session !== undefined && options.reuse !== undefined && !options.reuse(entry.session)) {
        const retired = entry.session;
        delete entry.session;
        await retired.close("rebuilt");
      }
      if (entry.session === undefined) {
        await this.#makeRoom(threadId);
        const linked = options.signal === undefined ? undefined : linkSignals([options.signal, this.#lifetime.signal]);
        try {
          entry.session = await this.#options.create(threadId, { signal: linked?.signal ?? this.#lifetime.signal });
          created = true;
        } finally {
          linked?.unlink();
        }
      }
    } catch (error) {
      entry.busy = false;
      if (entry.session === undefined) this.#entries.delete(threadId);
      throw error;
    }
    const session = entry.session;
    let released = false;
    return {
      threadId,
      session,
      created,
      touch: () => {
        if (refreshesIdle) entry.lastActivity = this.#options.now();
      },
      release: () => {
        if (released) return;
        released = true;
        entry.busy = false;
        if (refreshesIdle) entry.lastActivity = this.#options.now();
      },
    };
  }

  /** Whether a run holds the thread, or its turn waits on a human: a server-initiated turn must wait. */
  isBusyOrParked(threadId: string): boolean {
    const entry = this.#entries.get(threadId);
    return entry !== undefined && (entry.busy || entry.session?.isParked === true);
  }

  /** What the manager holds of the thread now (see `ThreadHolding`). */
  holding(threadId: string): ThreadHolding {
    const entry = this.#entries.get(threadId);
    if (entry === undefined) return "none";
    // Busy also while its session is still being created: the run holds the thread.
    if (entry.busy) return "running";
    if (entry.session === undefined) return "none";
    return entry.session.isParked ? "parked" : "idle";
  }

  /**
   * Closes the thread's session now if it is still `session` and no run holds it (the pool taking
   * its conversation back, a thread that ran too many trigger turns); true when it was closed.
   */
  evict(threadId: string, session: Session, reason: SessionCloseReason): boolean {
    const entry = this.#entries.get(threadId);
    if (entry === undefined || entry.busy || entry.session !== session) return false;
    this.#entries.delete(threadId);
    this.#options.logger.info?.({ threadId, reason }, "session retired");
    void session.close(reason);
    return true;
  }

  /** The thread's live session, if it has one (busy or not). */
  sessionOf(threadId: string): Session | undefined {
    return this.#entries.get(threadId)?.session;
  }

  /**
   * Closes a thread's session now, busy or not, if it is still `session` (its thread's lease was
   * found lost: another replica serves the thread, and this session must not go on driving it).
   */
  drop(threadId: string, session: Session, reason: SessionCloseReason): void {
    const entry = this.#entries.get(threadId);
    if (entry?.session !== session) return;
    this.#entries.delete(threadId);
    this.#options.logger.warn?.({ threadId, reason }, "session dropped");
    void session.close(reason);
  }

  /** Closes every live session now, busy ones too (this replica may have lost every lease it held); new runs build new ones. */
  dropAll(reason: SessionCloseReason): void {
    for (const [threadId, entry] of [...this.#entries]) if (entry.session !== undefined) this.drop(threadId, entry.session, reason);
  }

  /** Whether the thread has a live session (busy or not). */
  has(threadId: string): boolean {
    return this.#entries.get(threadId)?.session !== undefined;
  }

  /** Closes one thread's session. Closing an unknown thread is a no-op. */
  async closeThread(threadId: string, reason: SessionCloseReason = "closed"): Promise<void> {
    const entry = this.#entries.get(threadId);
    if (entry === undefined) return;
    this.#entries.delete(threadId);
    await entry.session?.close(reason);
  }

  /** Closes idle sessions past the idle timeout and parked sessions past the parked timeout. Never a busy one. */
  async sweep(): Promise<number> {
    const now = this.#options.now();
    const expired: Array<[string, Session, SessionCloseReason]> = [];
    for (const [threadId, entry] of this.#entries) {
      if (entry.busy || entry.session === undefined) continue;
      const limit = entry.session.isParked ? this.#options.parkedTimeoutMs : this.#options.idleTimeoutMs;
      if (now - entry.lastActivity >= limit) {
        expired.push([threadId, entry.session, entry.session.isParked ? "parked-timeout" : "idle-timeout"]);
      }
    }
    for (const [threadId] of expired) this.#entries.delete(threadId);
    await Promise.all(
      expired.map(async ([threadId, session, reason]) => {
        this.#options.logger.info?.({ threadId, reason }, "session retired");
        await session.close(reason);
      }),
    );
    return expired.length;
  }

  stats(): SessionStats {
    let busySessions = 0;
    let parkedSessions = 0;
    let liveSessions = 0;
    for (const entry of this.#entries.values()) {
      if (entry.session === undefined) continue;
      liveSessions += 1;
      if (entry.busy) busySessions += 1;
      if (entry.session.isParked) parkedSessions += 1;
    }
    return {
      liveSessions,
      busySessions,
      parkedSessions,
      maxSessions: this.#options.maxSessions,
      idleTimeoutMs: this.#options.idleTimeoutMs,
      parkedTimeoutMs: this.#options.parkedTimeoutMs,
    };
  }

  /** Closes every session and stops the sweeper. Idempotent. */
  async close(): Promise<void> {
    this.#lifetime.abort(new AgentError("AGENT_CLOSED", "The agent is shut down."));
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const sessions = [...this.#entries.values()].flatMap((entry) => (entry.session === undefined ? [] : [entry.session]));
    this.#entries.clear();
    await Promise.all(sessions.map((session) => session.close("manager-closed")));
  }

  /** At the cap, sweeps expired sessions, then evicts the least recently used idle (not busy, not parked) one. */
  async #makeRoom(forThreadId: string): Promise<void> {
    // A session still being created counts: concurrent acquires would otherwise all see room and overshoot the cap.
    const live = () => [...this.#entries.entries()].filter(([threadId, entry]) => threadId !== forThreadId && (entry.session !== undefined || entry.busy));
    if (live().length < this.#options.maxSessions) return;
    await this.sweep();
    while (live().length >= this.#options.maxSessions) {
      const candidates = live()
        .filter(([, entry]) => !entry.busy && entry.session?.isParked === false)
        .sort(([, left], [, right]) => left.lastActivity - right.lastActivity);
      const oldest = candidates[0];
      if (oldest === undefined) {
        throw new AgentError(
          "SESSION_LIMIT",
          `All ${this.#options.maxSessions} sessions are busy or waiting on a human; try again later.`,
        );
      }
      const [threadId, entry] = oldest;
      this.#entries.delete(threadId);
      this.#options.logger.info?.({ threadId }, "least recently used idle session evicted");
      await entry.session?.close("evicted");
    }
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => this.#options.logger.warn?.({ error }, "session sweep failed"));
    }, this.#options.sweepIntervalMs);
    this.#sweeper.unref();
  }
}
