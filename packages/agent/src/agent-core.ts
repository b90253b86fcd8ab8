import { randomUUID } from "node:crypto";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { EventType, type AgentCapabilities, type AGUIEvent, type BaseEvent, type RunAgentInput, type Tool } from "@ag-ui/client";
import {
  defaultModelFor,
  diagnoseHarness,
  NEWEST_KNOWN_HARNESS_VERSION,
  verdictLine,
  validateConversationConfig,
  type Conversation,
  type ConversationConfig,
  type ToolCallContext,
  type UserInputPart,
} from "@ag-ui-antigravity/harness";
import { checkFrontendTools } from "@ag-ui-antigravity/hitl";
import { catchError, type Observable, of } from "rxjs";
import { HarnessPool } from "@ag-ui-antigravity/pool";
import { Lifetime, shieldLogger, type ThreadHolding } from "@ag-ui-antigravity/foundation";
import { agentOptionsSchema, type AntigravityAgentLogger, type AntigravityAgentOptions } from "./agent-options.js";
import { StartupFailureWarning } from "./logging/startup-failure-warning.js";
import { capabilitiesOf, type HarnessFacts } from "./capabilities.js";
import { HarnessFeatures } from "./hooks/harness-features.js";
import { AgentError } from "./errors/agent-error.js";
import { OutboundRedactor, publicModelName } from "./errors/outbound-redaction.js";
import { resolveHarnessBinary } from "./harness-binary.js";
import { agentReadiness, type AgentReadiness } from "./readiness.js";
import { type EmitEvent, runSession } from "./run/run-session.js";
import { toRunError } from "./run/run-error.js";
import { AntigravitySession, type SessionEnvironment, type SessionIdentity, type SessionSeed } from "./sessions/antigravity-session.js";
import { SessionManager, type SessionStats } from "./sessions/session-manager.js";
import { ThreadLeaseGuard } from "./sessions/thread-lease-guard.js";
import { REFILL_DELAY_MS, SpareSessions } from "./sessions/spare-sessions.js";
import { AgentIdentity } from "./threads/agent-identity.js";
import { FileThreadStore } from "./threads/store/file-thread-store.js";
import { MemoryThreadStore } from "./threads/store/memory-thread-store.js";
import type { LeaseToken, ThreadKey, ThreadStore, ThreadStoreStats } from "./threads/store/thread-store.js";
import { ThreadRecordKeeper } from "./threads/thread-record-keeper.js";
import { ensureThreadWorkspace, threadWorkspacePath } from "./sessions/thread-workspace.js";
import { toolSignature } from "./sessions/tool-signature.js";
import { connectStream } from "./threads/connect-stream.js";
import { DEFAULT_MAX_REPLAY_BYTES, DEFAULT_MAX_REPLAY_EVENTS, type RecordedRun } from "./threads/recorded-run.js";
import { ThreadChannels } from "./threads/thread-channels.js";
import { DEFAULT_TRIGGER_TURNS_IN_FLIGHT, DEFAULT_TRIGGER_TURNS_PER_THREAD, TriggerTurns } from "./threads/trigger-turns.js";

/** Characters all ended runs kept for late `connect`s hold together, by default (one run: a sixteenth of it). */
const DEFAULT_MAX_GRACE_BYTES = 16 * 1024 * 1024;
/** Characters one thread's transcript (for `connect` snapshots) keeps, by default. */
const DEFAULT_MAX_TRANSCRIPT_BYTES = 512 * 1024;
/** Characters all transcripts keep together, by default. */
const DEFAULT_MAX_TOTAL_TRANSCRIPT_BYTES = 32 * 1024 * 1024;

/** How a run came to be: a client's run, or a turn the server started. */
export interface RunOrigin {
  /** The prompt of a server-initiated turn (`notify`), sent instead of new user messages. */
  injected?: UserInputPart[];
  serverInitiated?: boolean;
}

/** What `AntigravityAgent.stats()` reports: its sessions and its thread store. */
export interface AgentStats {
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

/** Defaults of the `prewarm` option. */
export const DEFAULT_PREWARM_SPARES = 1;
export const DEFAULT_PREWARM_IDLE_TIMEOUT_MS = 5 * 60_000;

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
  readonly #spares: SpareSessions | undefined;
  /** Threads whose session is a spare taken for this run, and the contract to refill once the run ends. */
  readonly #sparesToRefill = new Map<string, string>();
  readonly #redactor: OutboundRedactor;
  readonly #triggerTurns: TriggerTurns;
  /** The harness release's view of the agent's configuration: refusals, and the hooks the agent adds. */
  readonly #features: HarnessFeatures;
  /** What the harness said about itself when a conversation opened (its sandbox). */
  #sandbox: Conversation["sandboxStatus"];
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
    this.#features = new HarnessFeatures(options, this.#baseConfig(), (error) => this.#startupFailure.report(error, { agentId: options.agentId }));
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
      create: async (threadId, { signal }) => this.#createSession(threadId, this.#pendingSignature.get(threadId) ?? { signature: "", tools: [] }, signal),
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
    this.#triggerTurns = new TriggerTurns({
      sessions: this.#sessions,
      channels: this.#channels,
      maxTurnsPerThread: options.triggerLimits?.maxTurnsPerThread ?? DEFAULT_TRIGGER_TURNS_PER_THREAD,
      maxTurnsInFlight: options.triggerLimits?.maxTurnsInFlight ?? DEFAULT_TRIGGER_TURNS_IN_FLIGHT,
      logger: this.#logger,
      isClosing: () => this.#lifetime.isClosing,
      offerToPool: (session) => this.#offerToPool(session),
    });
    const prewarm = options.prewarm;
    this.#spares =
      prewarm === undefined
        ? undefined
        : new SpareSessions({
            spares: prewarm.spares ?? DEFAULT_PREWARM_SPARES,
            idleTimeoutMs: prewarm.idleTimeoutMs ?? DEFAULT_PREWARM_IDLE_TIMEOUT_MS,
            refillDelayMs: REFILL_DELAY_MS,
            open: (signature, tools, signal) => this.#openSpare(signature, tools, signal),
            warn: (details, message) => this.#logger.warn?.(details, message),
          });
  }

  /** Tool contracts (signature, and the run's client tools) of runs whose session is being acquired, read by the session factory. */
  readonly #pendingSignature = new Map<string, { signature: string; tools: readonly Tool[] }>();
  #serverToolsSignature: string | undefined;

  capabilities(): AgentCapabilities {
    const facts: HarnessFacts = { harnessVersion: this.#features.version };
    if (this.#sandbox !== undefined) facts.sandbox = this.#sandbox;
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
      spareSessions: this.#spares?.ready ?? 0,
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
    let spareHold = this.#spares?.hold();
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
    const signal = options.signal ?? new AbortController().signal;
    for (;;) {
      if (this.#lifetime.isClosing) throw new AgentError("AGENT_CLOSED", "The agent is shutting down.");
      signal.throwIfAborted();
      const channel = this.#channels.peek(threadId);
      if (channel === undefined || !channel.transcript.known) {
        throw new AgentError("UNKNOWN_THREAD", `Thread ${JSON.stringify(threadId)} has no run this agent remembers; a notification needs a conversation to join.`);
      }
      const current = channel.current;
      if (current !== undefined || this.#sessions.isBusyOrParked(threadId)) {
        await channel.nextRunEnd(signal, 1_000);
        continue;
      }
      await channel.transcript.settled();
      if (channel.current !== undefined) continue;
      const view = channel.transcript.view;
      const runId = randomUUID();
      const input: RunAgentInput = {
        threadId,
        runId,
        messages: structuredClone(view.messages),
        state: structuredClone(view.state ?? {}),
        tools: [...channel.lastTools],
        context: [],
        forwardedProps: {},
      };
      let started = false;
      let refusal: { code?: string; message: string } | undefined;
      const note = (event: AGUIEvent): void => {
        if (event.type === EventType.RUN_STARTED) started = true;
        if (event.type === EventType.RUN_ERROR && !started) refusal = { ...(event.code === undefined ? {} : { code: event.code }), message: event.message };
      };
      await this.run(input, signal, note, { injected: [{ text: `[Automated notification; the user did not write this] ${text}` }], serverInitiated: true });
      if (started) return runId;
      // A run slipped in between the check and the acquire: wait for it like any other.
      if (refusal?.code === "THREAD_BUSY") continue;
      throw new AgentError("NOTIFY_REFUSED", `The notification could not run: ${refusal?.message ?? "refused"}`);
    }
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

  /** One run: the events of `runSession`, or a lone RUN_ERROR when the thread cannot be served. */
  async #run(input: RunAgentInput, signal: AbortSignal, origin: RunOrigin, emit: EmitEvent): Promise<void> {
    let signature: string;
    let lease;
    try {
      if (this.#lifetime.isClosing) throw new AgentError("AGENT_CLOSED", "The agent is shutting down.");
      // Client schemas are checked against their size limits before anything hashes or stores them.
      checkFrontendTools(input.tools);
      // A configuration the harness's release refuses is refused before the run starts.
      await this.#features.checked();
      // A run with no frontend tools (most) has the server tools' signature, hashed once.
      signature = input.tools.length === 0 ? (this.#serverToolsSignature ??= toolSignature(this.options.serverTools ?? [])) : toolSignature([...(this.options.serverTools ?? []), ...input.tools]);
      this.#pendingSignature.set(input.threadId, { signature, tools: input.tools });
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
      if (origin.serverInitiated !== true) lease.session.triggerTurnsSinceClientRun = 0;
    } catch (error) {
      const mapped = toRunError(error);
      const details = { threadId: input.threadId, correlationId: mapped.correlationId };
      if (!this.#startupFailure.report(error, details)) this.#logger.warn?.({ ...details, error }, "run refused");
      emit(mapped.event);
      return;
    } finally {
      this.#pendingSignature.delete(input.threadId);
      if (lease === undefined) this.#refillSpareTakenBy(input.threadId);
    }
    try {
      await runSession(
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
    } finally {
      lease.release();
      this.#offerToPool(lease.session);
      this.#refillSpareTakenBy(input.threadId);
    }
  }

  #refillSpareTakenBy(threadId: string): void {
    const signature = this.#sparesToRefill.get(threadId);
    if (signature === undefined) return;
    this.#sparesToRefill.delete(threadId);
    // Opened later, once no run waits for its session (see SpareSessions).
    this.#spares?.refill(signature);
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
        await Promise.all([this.#spares?.close(), this.#sessions.close()]);
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

  async #createSession(threadId: string, contract: { signature: string; tools: readonly Tool[] }, signal: AbortSignal): Promise<AntigravitySession> {
    const key: ThreadKey = { agentId: this.#identity.id, threadId };
    const lease = await this.#leases.take(threadId, signal);
    let record;
    try {
      record = await this.#readStore(() => this.#threads.get(key));
    } catch (error) {
      await this.#leases.giveBack(threadId, lease);
      throw error;
    }
    // A new thread (no conversation yet) takes a spare whose conversation is already open, when there is one.
    if (record?.conversationId === undefined && this.#spares !== undefined) {
      const spare = this.#spares.take(contract.signature, contract.tools);
      if (spare !== undefined) this.#sparesToRefill.set(threadId, contract.signature);
      if (spare !== undefined && (await this.#adoptSpare(spare, threadId, lease))) return spare;
    }
    const workspace = this.options.workspaceRoot === undefined ? undefined : await ensureThreadWorkspace(this.options.workspaceRoot, threadId, this.#identity.id);
    // A thread whose tool contract changed resumes its conversation but rebuilds it with the new tools.
    return this.#newSession(
      { threadId, workspace },
      {
        ...(record?.conversationId === undefined ? {} : { conversationId: record.conversationId }),
        forwarded: record?.forwarded ?? [],
        toolSignature: contract.signature,
        ...(record?.summary === undefined ? {} : { summary: record.summary }),
        ...(record === undefined ? {} : { createdAt: record.createdAt }),
        ...(lease === undefined ? {} : { lease }),
      },
    );
  }

  /**
   * A session for no thread yet, its conversation open with `tools`. With a workspace root it works
   * in a directory of its own, which the adopting thread's workspace path will point to.
   */
  async #openSpare(signature: string, tools: readonly Tool[], signal: AbortSignal): Promise<AntigravitySession | undefined> {
    // A spare waits for no room and takes no thread's: it is opened only into a free slot.
    const pool = await this.pool();
    if (!pool.hasRoomFor(this.#partition(), { reclaim: false })) return undefined;
    const root = this.options.workspaceRoot;
    const spareId = randomUUID();
    const workspace = root === undefined ? undefined : join(root, `.spare-${spareId}`);
    if (workspace !== undefined) await mkdir(workspace, { recursive: true });
    const session = await this.#newSession({ threadId: `spare-${spareId}`, workspace }, { forwarded: [], toolSignature: signature, spare: { workspace } });
    try {
      await session.openConversation(tools, { signal });
    } catch (error) {
      await session.close("evicted");
      throw error;
    }
    // Until a thread takes it, its slot goes first to a thread that needs one.
    session.offerToPool(() => this.#spares?.discard(session) ?? false);
    return session;
  }

  /** Gives a spare to a new thread; false (and the spare closed) when the thread's workspace path is taken. */
  async #adoptSpare(spare: AntigravitySession, threadId: string, lease: LeaseToken | undefined): Promise<boolean> {
    const root = this.options.workspaceRoot;
    const spareWorkspace = spare.identity.workspace;
    let workspace: string | undefined;
    if (root !== undefined && spareWorkspace !== undefined) {
      workspace = threadWorkspacePath(root, threadId, this.#identity.id);
      try {
        await symlink(spareWorkspace, workspace, "dir");
      } catch (error) {
        this.#logger.debug?.({ threadId, error }, "the thread already has a workspace; it gets a conversation of its own instead of a spare");
        await spare.close("evicted");
        return false;
      }
    }
    spare.adopt(threadId, workspace, lease);
    return true;
  }

  async #newSession(identity: SessionIdentity, seed: SessionSeed): Promise<AntigravitySession> {
    const pool = await this.pool();
    const observers = await this.#features.observers(this.#binaryPath);
    // Server tools learn whose thread they serve (and its workspace) when they are called; the model never sees either.
    const serverTools = (this.options.serverTools ?? []).map((tool) => ({
      ...tool,
      handler: (args: Record<string, unknown>, context: ToolCallContext) =>
        tool.handler(args, { ...context, threadId: identity.threadId, ...(identity.workspace === undefined ? {} : { workspace: identity.workspace }) }),
    }));
    const environment: SessionEnvironment = {
      pool,
      threadStore: this.#threads,
      threadKey: { agentId: this.#identity.id, threadId: identity.threadId },
      baseConfig: this.#baseConfig(),
      partition: this.#partition(),
      bridgeOptions: {
        toolApproval: this.options.toolApproval !== undefined && this.options.toolApproval !== false,
        ...(typeof this.options.toolApproval === "object" && this.options.toolApproval.exempt !== undefined ? { autoApproveTools: this.options.toolApproval.exempt } : {}),
        serverTools,
        deduplicateToolCalls: this.options.deduplicateToolCalls ?? true,
        appContextTool: this.options.hitl?.contextTools ?? false,
        sharedStateTool: this.options.hitl?.contextTools ?? false,
        turnSummary: this.options.hitl?.turnSummary ?? false,
        ...(this.options.hitl?.newInputWhileParked === undefined ? {} : { newInputWhileParked: this.options.hitl.newInputWhileParked }),
        ...(this.options.hitl?.settleMs === undefined ? {} : { settleMs: this.options.hitl.settleMs }),
        ...(this.options.sessions?.parkedTimeoutMs === undefined ? {} : { parkTimeoutMs: this.options.sessions.parkedTimeoutMs }),
        logger: { warn: (fields, message) => this.#logger.warn?.({ threadId: identity.threadId, ...fields }, message) },
      },
      structuredOutputAs: this.options.structuredOutputAs ?? "state",
      structuredOutputKey: this.options.structuredOutputKey ?? this.options.agentId ?? "antigravity",
      // Shown to clients in RUN_FINISHED's usage; an emulator scenario's path is the server's business.
      model: publicModelName(this.options.model ?? defaultModelFor(NEWEST_KNOWN_HARNESS_VERSION)),
      workspaceFor: async () => identity.workspace,
      warn: (details, message) => this.#logger.warn?.(details, message),
      observers,
      subagents: (this.options.subagents ?? []).map((subagent) => ({ name: subagent.name, description: subagent.description })),
      onConversationOpened: (conversation) => {
        if (conversation.sandboxStatus !== undefined) this.#sandbox = conversation.sandboxStatus;
      },
      onBackgroundTurn: (session, turn) => {
        this.#triggerTurns.relay(session, turn).catch((error: unknown) =>
          this.#logger.warn?.({ threadId: session.threadId, error }, "a turn the harness started could not be relayed to AG-UI clients"),
        );
      },
    };
    return new AntigravitySession(identity, seed, environment);
  }

  /** The pool partition of the agent's conversations: its save dir and env. */
  #partition(): { storageDirectory?: string; env?: Record<string, string> } {
    return {
      ...(this.options.saveDir === undefined ? {} : { storageDirectory: this.options.saveDir }),
      ...(this.options.env === undefined ? {} : { env: this.options.env }),
    };
  }

  /** A store that cannot be read refuses the run with a clear code instead of AGENT_ERROR. */
  async #readStore<Result>(read: () => Promise<Result>): Promise<Result> {
    try {
      return await read();
    } catch (error) {
      throw new AgentError("THREAD_STORE_UNAVAILABLE", "The thread store cannot be reached; try again shortly.", { cause: error });
    }
  }

  #baseConfig(): ConversationConfig {
    const options = this.options;
    return {
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      ...(options.thinkingLevel === undefined ? {} : { thinkingLevel: options.thinkingLevel }),
      ...(options.systemInstructions === undefined ? {} : { systemInstructions: options.systemInstructions }),
      ...(options.workspaces === undefined ? {} : { workspaces: options.workspaces }),
      // A chat-safe default: no builtin but finish.
      builtinTools: options.builtinTools ?? [],
      ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
      ...(options.subagents === undefined ? {} : { subagents: options.subagents }),
      ...(options.responseSchema === undefined ? {} : { responseSchema: options.responseSchema }),
      ...(options.policies === undefined ? {} : { policies: options.policies }),
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
      ...(options.turnTimeoutMs === undefined ? {} : { turnTimeoutMs: options.turnTimeoutMs }),
      ...(options.harnessTimings === undefined ? {} : { timings: options.harnessTimings }),
      ...(options.triggers === undefined ? {} : { triggers: options.triggers }),
      ...harnessFeatureOptionsOf(options),
    };
  }
}

/** The agent's options for what the harness learned after 0.1.10, as the harness client takes them. */
function harnessFeatureOptionsOf(options: AntigravityAgentOptions): Partial<ConversationConfig> {
  const picked: Partial<ConversationConfig> = {};
  const keys = ["agentBehavior", "budget", "compaction", "skills", "rules", "runCommand", "runWorkflowExecutionMode", "workspaceContainment", "maxSubagentDepth", "allowedSubagents"] as const;
  for (const key of keys) if (options[key] !== undefined) Object.assign(picked, { [key]: options[key] });
  return picked;
}

function defaultThreadStore(options: AntigravityAgentOptions, logger: AntigravityAgentLogger): ThreadStore {
  const maxThreads = options.sessions?.maxRememberedThreads;
  const storeLogger = { warn: (details: Record<string, unknown>, message: string) => logger.warn?.(details, message) };
  if (options.saveDir === undefined) return new MemoryThreadStore(maxThreads === undefined ? {} : { maxThreads });
  return new FileThreadStore({ directory: options.saveDir, logger: storeLogger, ...(maxThreads === undefined ? {} : { maxThreads }) });
}

/** The harness client owns the bounds of its waits; checked here so a bad value fails the constructor, not a run. */
function assertHarnessTimings(timings: NonNullable<AntigravityAgentOptions["harnessTimings"]>): void {
  try {
    validateConversationConfig({ builtinTools: [], timings });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^invalid conversation config: /, "") : String(error);
    throw new AgentError("CONFIG_INVALID", `Invalid agent option harnessTimings: ${detail}`, { cause: error });
  }
}
