import { EventType, type AgentCapabilities, type AGUIEvent, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { diagnoseHarness, verdictLine } from "@ag-ui-antigravity/harness";
import { checkFrontendTools } from "@ag-ui-antigravity/hitl";
import { catchError, type Observable, of } from "rxjs";
import { HarnessPool } from "@ag-ui-antigravity/pool";
import { Lifetime, shieldLogger, type ThreadHolding } from "@ag-ui-antigravity/foundation";
import { agentOptionsSchema, type AntigravityAgentLogger, type AntigravityAgentOptions } from "./agent-options.js";
import { StartupFailureWarning } from "./logging/startup-failure-warning.js";
import { capabilitiesOf, type HarnessFacts } from "./capabilities.js";
import { HarnessFeatures } from "./hooks/harness-features.js";
import { AgentError } from "./errors/agent-error.js";
import { OutboundRedactor } from "./errors/outbound-redaction.js";
import { resolveHarnessBinary } from "./harness-binary.js";
import { assertHarnessTimings, baseConversationConfig } from "./harness-config.js";
import { agentReadiness, type AgentReadiness } from "./readiness.js";
import { BackgroundTurns } from "./run/background-turns.js";
import { type EmitEvent, Run, type RunOrigin } from "./run/run.js";
import { toRunError } from "./run/run-error.js";
import type { AntigravitySession } from "./sessions/antigravity-session.js";
import { SessionFactory } from "./sessions/session-factory.js";
import { SessionManager, type SessionStats } from "./sessions/session-manager.js";
import { ThreadLeaseGuard } from "./sessions/thread-lease-guard.js";
import { AgentIdentity } from "./threads/agent-identity.js";
import { FileThreadStore } from "./threads/store/file-thread-store.js";
import { MemoryThreadStore } from "./threads/store/memory-thread-store.js";
import type { ThreadStore, ThreadStoreStats } from "./threads/store/thread-store.js";
import { ThreadRecordKeeper } from "./threads/thread-record-keeper.js";
import { connectStream } from "./threads/replay/connect-stream.js";
import { DEFAULT_MAX_REPLAY_BYTES, DEFAULT_MAX_REPLAY_EVENTS, type RecordedRun } from "./threads/replay/recorded-run.js";
import { ThreadChannels } from "./threads/replay/thread-channels.js";

/** Characters all ended runs kept for late `connect`s hold together, by default (one run: a sixteenth of it). */
const DEFAULT_MAX_GRACE_BYTES = 16 * 1024 * 1024;
/** Characters one thread's transcript (for `connect` snapshots) keeps, by default. */
const DEFAULT_MAX_TRANSCRIPT_BYTES = 512 * 1024;
/** Characters all transcripts keep together, by default. */
const DEFAULT_MAX_TOTAL_TRANSCRIPT_BYTES = 32 * 1024 * 1024;

/** What `AntigravityAgent.stats()` reports: its sessions and its thread store. */
export interface AgentStats {
  /** The threads' live sessions now, and the limits they run under. */
  sessions: SessionStats;
  /** Threads the thread store remembers, where it can count them (memory; file: at its last clean-up). */
  rememberedThreads?: number;
  /** The thread store: kind, failed and pending writes. */
  threadStore: ThreadStoreStats;
  /** Threads whose transcript is kept for `connect`. */
  connectableThreads: number;
  /** Characters (≈ bytes) held for `connect`: the transcripts, and the ended runs kept for replay. */
  connectHeldBytes: { transcripts: number; replay: number };
  /** Spare sessions ready for new threads (`prewarm`). */
  spareSessions: number;
}

export { DEFAULT_AGENT_ID } from "./threads/agent-identity.js";

/**
 * What every clone of an AntigravityAgent shares: the validated options, the session manager, the
 * thread map and the harness pool. `AbstractAgent.clone()` copies per-request fields; this stays one.
 */
export class AgentCore {
  readonly options: AntigravityAgentOptions;
  readonly #logger: AntigravityAgentLogger;
  readonly #startupFailure: StartupFailureWarning;
  readonly #sessions: SessionManager<AntigravitySession>;
  readonly #threads: ThreadStore;
  readonly #channels: ThreadChannels;
  readonly #ownsThreadStore: boolean;
  /** The id the agent keeps its threads under (its own, its route name, or "agent"). */
  readonly #identity: AgentIdentity;
  /** What the HTTP binding asks of the threads' records, and the transcripts kept in the store. */
  readonly #records: ThreadRecordKeeper;
  /** Thread leases (a store that has them): taken, confirmed every run, and watched for loss. */
  readonly #leases: ThreadLeaseGuard;
  readonly #ownsPool: boolean;
  /** Makes the threads' sessions, and owns the spares (`prewarm`). */
  readonly #factory: SessionFactory;
  readonly #redactor: OutboundRedactor;
  /** Notifications and the turns the harness starts by itself. */
  readonly #background: BackgroundTurns;
  /** The harness release's view of the agent's configuration: refusals, and the hooks the agent adds. */
  readonly #features: HarnessFeatures;
  /** The harness binary the agent's own pool runs (unknown for a shared pool). */
  #binaryPath: string | undefined;
  #pool: Promise<HarnessPool> | undefined;
  readonly #lifetime = new Lifetime();
  /** Aborted (with AGENT_CLOSED) when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished: sessions, the owned thread store and the owned pool are closed. */
  readonly closed = this.#lifetime.closed;

  constructor(options: AntigravityAgentOptions) {
    const parsed = agentOptionsSchema.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AgentError("CONFIG_INVALID", `Invalid agent option ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`, { cause: parsed.error });
    }
    if (options.harnessTimings !== undefined) assertHarnessTimings(options.harnessTimings);
    this.options = options;
    // Shielded: a throwing sink never fails a run, and ids a client chose are logged cut to a bounded length.
    this.#logger = shieldLogger(options.logger);
    this.#startupFailure = new StartupFailureWarning(options.logger);
    // Invalid fields and the safety gate refuse the agent here, at once; an option the harness's
    // release lacks is checked asynchronously and refuses every run (`checkConfiguration`).
    this.#features = new HarnessFeatures(options, baseConversationConfig(options), (error) => this.#startupFailure.report(error, { agentId: options.agentId }));
    this.#ownsPool = !HarnessPool.isInstance(options.pool);
    const reconnect = options.reconnect ?? {};
    const maxGraceBytes = reconnect.maxGraceBytes ?? DEFAULT_MAX_GRACE_BYTES;
    this.#channels = new ThreadChannels({
      maxThreads: reconnect.maxThreads ?? 1_000,
      maxReplayEvents: reconnect.maxReplayEvents ?? DEFAULT_MAX_REPLAY_EVENTS,
      maxReplayBytes: reconnect.maxReplayBytes ?? DEFAULT_MAX_REPLAY_BYTES,
      replayGraceMs: reconnect.replayGraceMs ?? 60_000,
      maxTotalGraceBytes: maxGraceBytes,
      maxGraceRunBytes: Math.floor(maxGraceBytes / 16),
      maxTranscriptBytes: reconnect.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES,
      maxTotalTranscriptBytes: reconnect.maxTotalTranscriptBytes ?? DEFAULT_MAX_TOTAL_TRANSCRIPT_BYTES,
      warn: (details, message) => this.#logger.warn?.(details, message),
    });
    const endpointKey = options.endpoint !== undefined && "apiKey" in options.endpoint ? options.endpoint.apiKey : undefined;
    this.#redactor = OutboundRedactor.fromEnvironment([options.apiKey, endpointKey]);
    this.#ownsThreadStore = options.threadStore === undefined;
    this.#identity = new AgentIdentity({
      agentId: options.agentId,
      store: options.threadStore !== undefined ? { object: options.threadStore } : options.saveDir !== undefined ? { saveDir: options.saveDir } : { private: true },
    });
    this.#threads = options.threadStore ?? defaultThreadStore(options, this.#logger);
    this.#sessions = new SessionManager<AntigravitySession>({
      ...(options.sessions?.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.sessions.idleTimeoutMs }),
      ...(options.sessions?.parkedTimeoutMs === undefined ? {} : { parkedTimeoutMs: options.sessions.parkedTimeoutMs }),
      ...(options.sessions?.maxSessions === undefined ? {} : { maxSessions: options.sessions.maxSessions }),
      logger: {
        info: (details, message) => this.#logger.info?.(details, message),
        warn: (details, message) => this.#logger.warn?.(details, message),
      },
      create: async (threadId, { signal }) => this.#factory.create(threadId, signal),
    });
    this.#records = new ThreadRecordKeeper({
      store: this.#threads,
      agentId: () => this.#identity.id,
      channels: this.#channels,
      leaseOf: (threadId) => this.#sessions.sessionOf(threadId)?.lease,
      warn: (details, message) => this.#logger.warn?.(details, message),
    });
    this.#leases = new ThreadLeaseGuard({
      leases: this.#threads.leases,
      sessions: this.#sessions,
      agentId: () => this.#identity.id,
      warn: (details, message) => this.#logger.warn?.(details, message),
    });
    this.#factory = new SessionFactory({
      options,
      logger: this.#logger,
      threads: this.#threads,
      identity: this.#identity,
      leases: this.#leases,
      features: this.#features,
      pool: () => this.pool(),
      binaryPath: () => this.#binaryPath,
      onBackgroundTurn: (session, turn) => this.#background.relayHarnessTurn(session, turn),
    });
    this.#background = new BackgroundTurns({
      options,
      logger: this.#logger,
      sessions: this.#sessions,
      channels: this.#channels,
      isClosing: () => this.#lifetime.isClosing,
      run: (input, signal, emit, origin) => this.run(input, signal, emit, origin),
      offerToPool: (session) => this.#offerToPool(session),
    });
  }

  capabilities(): AgentCapabilities {
    const facts: HarnessFacts = { harnessVersion: this.#features.version };
    const sandbox = this.#factory.sandbox;
    if (sandbox !== undefined) facts.sandbox = sandbox;
    return capabilitiesOf(this.options, facts);
  }

  /**
   * Resolves once the agent's configuration is known to suit the harness's release; rejects with
   * AgentError CONFIG_INVALID naming an option the release lacks (every run is then refused with it).
   */
  checkConfiguration(): Promise<void> {
    return this.#features.checked();
  }

  stats(): AgentStats {
    const threadStore = this.#threads.stats();
    return {
      sessions: this.#sessions.stats(),
      ...(threadStore.rememberedThreads === undefined ? {} : { rememberedThreads: threadStore.rememberedThreads }),
      threadStore,
      connectableThreads: this.#channels.size,
      connectHeldBytes: this.#channels.heldBytes,
      spareSessions: this.#factory.readySpares,
    };
  }

  /** What the agent holds of a thread now, for the HTTP binding's client limits (see `AntigravityAgent.threadHolding`). */
  threadHolding(threadId: string): ThreadHolding {
    return this.#sessions.holding(threadId);
  }

  /** The agent's side of its threads' records that the HTTP binding asks for (`ThreadRecords`: owners, lists, the connect proof). */
  get records(): ThreadRecordKeeper {
    return this.#records;
  }

  /** The id the agent keeps its threads under; the binding names it (`useRouteName`). */
  get identity(): AgentIdentity {
    return this.#identity;
  }

  /** Whether a run would be accepted now (see `agentReadiness`). */
  readiness(): Promise<AgentReadiness> {
    return agentReadiness({ closing: this.#lifetime.isClosing, pool: () => this.pool(), threadStore: this.#threads });
  }

  /** The harness pool (created on first use when the agent owns it). */
  pool(): Promise<HarnessPool> {
    this.#pool ??= (async () => {
      if (HarnessPool.isInstance(this.options.pool)) return this.options.pool;
      const binaryPath = await resolveHarnessBinary(this.options.harness ?? "discover");
      this.#binaryPath = binaryPath;
      // The doctor's verdict, once: which harness, which protocol, and whether a turn can run.
      void diagnoseHarness({ binaryPath })
        .then((diagnosis) => {
          if (diagnosis.problems.length === 0) this.#logger.info?.({ binaryPath }, verdictLine(diagnosis));
          else this.#logger.warn?.({ binaryPath }, verdictLine(diagnosis));
        })
        .catch(() => undefined);
      return new HarnessPool({
        ...(this.options.pool ?? {}),
        harness: { binaryPath, logger: this.#logger, ...(this.options.harnessVersion === undefined ? {} : { harnessVersion: this.options.harnessVersion }) },
      });
    })();
    return this.#pool;
  }

  /** Whether a run whose client went away goes on (so the client can `connect` to it again). */
  get continuesDetachedRuns(): boolean {
    return this.options.reconnect?.onDisconnect === "continue";
  }

  /** The thread's stream for a client that (re)connects; see `connectStream`. */
  connect(input: RunAgentInput): Observable<BaseEvent> {
    return connectStream(this.#channels, input, (threadId) => this.#records.transcript(threadId)).pipe(
      catchError((error: unknown) => {
        const mapped = toRunError(error);
        this.#logger.warn?.({ threadId: input.threadId, correlationId: mapped.correlationId, error }, "connect refused");
        return of<BaseEvent>(mapped.event);
      }),
    );
  }

  /**
   * One run, recorded on the thread's channel from its RUN_STARTED on, so that `connect` can replay
   * it and the thread's transcript follows it. Its events go to `emit` as they are produced; resolves
   * once the run has ended.
   */
  async run(input: RunAgentInput, signal: AbortSignal, emit: EmitEvent, origin: RunOrigin = {}): Promise<void> {
    let recorded: RecordedRun | undefined;
    const channel = (): ReturnType<ThreadChannels["get"]> => this.#channels.get(input.threadId, { forRun: true });
    // Until this run has its session and its conversation, no spare is opened: spares must not take
    // the harness ahead of it. Released by the first event after RUN_STARTED (which a cold session
    // sends before its conversation opens), or when the run ends.
    let spareHold = this.#factory.holdSpares();
    // Every RUN_ERROR message passes the outbound redaction here, whichever layer wrote it: model
    // errors quote upstream text, which can hold a key, a path or a stack. (One function for every
    // event of a burst: no generator or closure per event.)
    const forward = (produced: AGUIEvent): void => {
      const event = produced.type === EventType.RUN_ERROR ? { ...produced, message: this.#redactor.text(produced.message) } : produced;
      if (recorded === undefined) {
        if (event.type === EventType.RUN_STARTED) recorded = channel().begin(input, { serverInitiated: origin.serverInitiated === true });
      } else if (spareHold !== undefined) {
        spareHold.release();
        spareHold = undefined;
      }
      if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
        // The client's stream ends with it first: recording it ends the run on the thread's channel,
        // whose transcript then sizes the run's whole input (the thread's history), and nobody
        // following the channel needs it before the client that started the run.
        emit(event);
        recorded?.record(event);
        return;
      }
      recorded?.record(event);
      emit(event);
    };
    try {
      await this.#run(input, signal, origin, forward);
    } finally {
      spareHold?.release();
      if (recorded !== undefined) {
        channel().finish(recorded);
        // The thread as its clients saw it outlives this process (a store that keeps transcripts).
        this.#records.scheduleTranscript(input.threadId);
      }
    }
  }

  /**
   * Runs a server-initiated turn on a thread: `text` goes to the model as an automated message (it
   * is not added to the transcript as the user's), and the reply reaches clients connected with
   * `stayOpen`, or the next `connect`'s snapshot. Waits while the thread is busy or waits on a
   * human. Resolves with the run id once the turn has ended.
   */
  async notify(threadId: string, text: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    return this.#background.notify(threadId, text, options);
  }

  /**
   * While no run uses the session, the pool may take its conversation back for another thread's
   * (under its process cap): the session is then closed like an evicted one, and the thread's next
   * run resumes its conversation by id.
   */
  #offerToPool(session: AntigravitySession): void {
    const threadId = session.threadId;
    session.offerToPool(() => this.#sessions.evict(threadId, session, "reclaimed"));
  }

  /** One run: the events of a `Run`, or a lone RUN_ERROR when the thread cannot be served. */
  async #run(input: RunAgentInput, signal: AbortSignal, origin: RunOrigin, emit: EmitEvent): Promise<void> {
    let lease;
    try {
      if (this.#lifetime.isClosing) throw new AgentError("AGENT_CLOSED", "The agent is shutting down.");
      // Client schemas are checked against their size limits before anything hashes or stores them.
      checkFrontendTools(input.tools);
      // A configuration the harness's release refuses is refused before the run starts.
      await this.#features.checked();
      const { signature } = this.#factory.contractFor(input.tools);
      this.#factory.expectContract(input.threadId, { signature, tools: input.tools });
      // A replica whose heartbeat lapsed (a pause, a partition) drops its sessions before serving again.
      this.#leases.checkLapse();
      const acquire = { signal,
        // A changed tool contract or a lost harness rebuilds the session (cold resume by conversation
        // id); a session waiting on a human keeps its tools, since its parked calls cannot move.
        reuse: (session: AntigravitySession) => !session.harnessLost && (session.toolSignature === signature || session.hasTurn),
        // A notification is not the thread's use: a thread nobody uses still retires when idle.
        refreshesIdle: origin.serverInitiated !== true,
      };
      lease = await this.#leases.confirmed(input.threadId, () => this.#sessions.acquire(input.threadId, acquire));
      lease.session.offerToPool(undefined);
      if (origin.serverInitiated !== true) lease.session.resetTriggerTurns();
    } catch (error) {
      const mapped = toRunError(error);
      const details = { threadId: input.threadId, correlationId: mapped.correlationId };
      if (!this.#startupFailure.report(error, details)) this.#logger.warn?.({ ...details, error }, "run refused");
      emit(mapped.event);
      return;
    } finally {
      this.#factory.forgetContract(input.threadId);
      if (lease === undefined) this.#factory.refillSpareTakenBy(input.threadId);
    }
    try {
      const run = new Run(
        {
          session: lease.session,
          input,
          signal,
          touch: () => lease.touch(),
          log: (level, details, message) => this.#logger[level]?.(details, message),
          ...(origin.injected === undefined ? {} : { injected: origin.injected }),
        },
        emit,
      );
      await run.execute();
    } finally {
      lease.release();
      this.#offerToPool(lease.session);
      this.#factory.refillSpareTakenBy(input.threadId);
    }
  }

  /** Closes every session and, when the agent owns it, the pool. Idempotent. */
  close(options: { deadlineMs?: number } = {}): Promise<void> {
    return this.#lifetime.close(
      () => new AgentError("AGENT_CLOSED", "The agent was closed."),
      async () => {
        // The transcripts due are written while the channels still hold them.
        await this.#records.flush();
        this.#leases.close();
        this.#channels.close();
        await Promise.all([this.#factory.close(), this.#sessions.close()]);
        // After the sessions, whose closing records their threads.
        if (this.#ownsThreadStore) await this.#threads.close();
        this.#identity.release();
        if (this.#ownsPool && this.#pool !== undefined) {
          const pool = await this.#pool.catch(() => undefined);
          await pool?.close({ deadlineMs: options.deadlineMs ?? 10_000 });
        }
      },
    );
  }
}

function defaultThreadStore(options: AntigravityAgentOptions, logger: AntigravityAgentLogger): ThreadStore {
  const maxThreads = options.sessions?.maxRememberedThreads;
  const storeLogger = { warn: (details: Record<string, unknown>, message: string) => logger.warn?.(details, message) };
  if (options.saveDir === undefined) return new MemoryThreadStore(maxThreads === undefined ? {} : { maxThreads });
  return new FileThreadStore({ directory: options.saveDir, logger: storeLogger, ...(maxThreads === undefined ? {} : { maxThreads }) });
}
