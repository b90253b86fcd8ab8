import { rm } from "node:fs/promises";
import type { RunAgentInput, Tool } from "@ag-ui/client";
import type { ConversationConfig, Conversation, SubagentEnd, UserInputPart } from "@ag-ui-antigravity/harness";
import { HitlBridge } from "@ag-ui-antigravity/hitl";
import { PoolError, type PoolLease } from "@ag-ui-antigravity/pool";
import { StepTranslator } from "@ag-ui-antigravity/translator";
import { randomUUID } from "node:crypto";
import type { HookNote } from "../hooks/hook-notes.js";
import { withObservers } from "../hooks/observer-hooks.js";
import type { ForwardedMessage } from "../input/message-fingerprint.js";
import { CheckedHistory } from "../input/history-limits.js";
import type { SessionCloseReason, ManagedSession } from "./session-manager.js";
import type { LeaseToken, ThreadKey, ThreadSummary } from "../threads/store/thread-store.js";
import type { SessionEnvironment, SessionIdentity, SessionSeed } from "./session-environment.js";

/** Hook notes of harness-started turns a session keeps until their relay reads them; the oldest go first past it. */
const MAX_BACKGROUND_NOTES = 1_000;

/**
 * One thread's live state: the harness conversation (a pool lease), the human-in-the-loop bridge
 * whose parked promises outlive a run, and the translator whose memory spans the turn. Runs use it
 * one at a time (the session manager's per-thread lock).
 */
export class AntigravitySession implements ManagedSession {
  /** Read by the server tools' handlers at call time, so a spare's tools serve the thread that adopts it. */
  readonly identity: SessionIdentity;
  readonly bridge: HitlBridge;
  readonly translator: StepTranslator;
  readonly toolSignature: string;
  /** User messages forwarded to the conversation, oldest first. */
  forwarded: ForwardedMessage[];
  /** The history the thread's last run brought, checked: the next run's check builds on it. */
  readonly checkedHistory = new CheckedHistory();
  /** Set when a run met a dead harness: the next run rebuilds the session. */
  harnessLost = false;
  /** Set when the harness resumed this thread's conversation without its history. */
  historyLost = false;
  /** Subagents that ended since the run loop last looked. */
  readonly subagentEnds: SubagentEnd[] = [];
  /** Host tools the bridge reports itself; their mirror steps are not translated again. */
  hostToolNames: ReadonlySet<string> = new Set();
  /** Turns the harness started by itself (triggers) since the thread's last client run. */
  triggerTurnsSinceClientRun = 0;
  /** What the thread's list shows of it (its id, its first user message): set by its first prompt, kept in its record. */
  summary: ThreadSummary | undefined;
  /** The lease this session holds its thread by, when the store has leases (an adopted spare gets its thread's). */
  lease: LeaseToken | undefined;
  readonly #createdAt: number | undefined;
  /** Scheduled turns waiting: `schedule` calls that ran, less the turns the harness started since (see `scheduleLimits`). */
  pendingSchedules = 0;
  /** Hook notes of turns the harness started itself, for the relay of those turns (`takeBackgroundNotes`). */
  readonly #backgroundNotes: HookNote[] = [];
  readonly #environment: SessionEnvironment;
  #lease: PoolLease<Conversation> | undefined;
  #stopBackgroundTurns: (() => void) | undefined;
  #conversationId: string | undefined;
  /** The offer to give the conversation back to the pool while no run uses it (see `offerToPool`). */
  #reclaim: (() => boolean) | undefined;
  #closed = false;
  #threadKey: ThreadKey;
  #spare: { workspace: string | undefined } | undefined;
  /**
   * The write recording the thread's conversation when it was opened or adopted (see `adopt`,
   * `openConversation`): the turn starts without waiting for it, but does not end before it.
   */
  #conversationRecord: Promise<void> | undefined;
  /** The record `rememberInBackground` asked for, due at the end of the tick. */
  #rememberSoon: NodeJS.Immediate | undefined;
  /**
   * A conversation opened new for a thread that forwarded nothing yet: its first record waits for
   * the first prompt (`recordPrompt`), so a new thread's first turn writes one record, not two.
   */
  #recordAwaitsPrompt = false;
  /** What the last record submitted to the store held: a record that would say the same is not written again. */
  #submitted: { conversationId: string; forwarded: readonly ForwardedMessage[] } | undefined;

  constructor(identity: SessionIdentity, seed: SessionSeed, environment: SessionEnvironment) {
    this.identity = identity;
    this.#threadKey = environment.threadKey;
    this.#spare = seed.spare;
    this.#environment = environment;
    this.toolSignature = seed.toolSignature;
    this.forwarded = [...seed.forwarded];
    this.#conversationId = seed.conversationId;
    this.summary = seed.summary;
    this.#createdAt = seed.createdAt;
    this.lease = seed.lease;
    this.bridge = new HitlBridge({
      ...environment.bridgeOptions,
      // An approval of a built-in or MCP call names the card the client holds for it (one id for both).
      toolCallIdOf: (call) =>
        call.trajectoryId === undefined || call.stepIndex === undefined || this.hostToolNames.has(call.toolName)
          ? undefined
          : this.translator.callIdForStep({ trajectoryId: call.trajectoryId, stepIndex: call.stepIndex, toolCallId: call.callId ?? randomUUID() }),
    });
    this.translator = new StepTranslator({
      structuredOutput: environment.structuredOutputAs,
      structuredOutputKey: environment.structuredOutputKey,
      usage: { provider: "google-antigravity", model: environment.model },
      subagents: environment.subagents,
      onUnmatchedSubagent: (unmatched) =>
        environment.warn(
          { threadId: this.threadId, ...unmatched },
          "a subagent ran alongside others and the harness did not say which invoke_subagent call started it; it is shown on its own",
        ),
    });
  }

  get threadId(): string {
    return this.identity.threadId;
  }

  get isParked(): boolean {
    return this.bridge.hasParked;
  }

  /** Whether a harness turn is in progress (possibly parked across runs). */
  get hasTurn(): boolean {
    return this.bridge.hasTurn;
  }

  get conversation(): Conversation | undefined {
    return this.#lease?.conversation;
  }

  get conversationId(): string | undefined {
    return this.#lease?.conversation.id ?? this.#conversationId;
  }

  /**
   * The harness conversation, opened on first use with this run's client tools. A thread that
   * had a conversation before (swept, evicted, rebuilt, restarted) resumes it by id.
   */
  async openConversation(tools: readonly Tool[], options: { signal?: AbortSignal }): Promise<Conversation> {
    if (this.#lease !== undefined) return this.#lease.conversation;
    const pieces = this.bridge.harnessPieces(tools);
    this.hostToolNames = pieces.hostToolNames;
    const base = this.#environment.baseConfig;
    const workspace = await this.#environment.workspaceFor(this.threadId);
    const workspaces = [...(base.workspaces ?? []), ...(workspace === undefined ? [] : [workspace])];
    const config: ConversationConfig = {
      ...base,
      ...(workspaces.length > 0 ? { workspaces } : {}),
      customTools: pieces.customTools,
      hooks: withObservers({ ...base.hooks, ...pieces.hooks }, this.#environment.observers, this),
    };
    const lease = await this.#acquire(config, options.signal);
    this.#lease = lease;
    this.#environment.onConversationOpened(lease.conversation);
    lease.setReclaimable(this.#reclaim);
    this.#stopBackgroundTurns = lease.conversation.onTriggerTurn((turn) => {
      // A turn the harness starts itself may be a scheduled one coming due: one fewer waits.
      if (this.pendingSchedules > 0) this.pendingSchedules -= 1;
      this.#environment.onBackgroundTurn(this, turn);
    });
    // The session learns that its harness died from the lease, not from the next failing send.
    lease.signal.addEventListener(
      "abort",
      () => {
        if (!this.#closed) this.harnessLost = true;
      },
      { once: true },
    );
    const resumedId = this.#conversationId;
    this.#conversationId = lease.conversation.id;
    if (this.historyLost) {
      this.#recordConversation();
      return lease.conversation;
    }
    // A resumed conversation that comes back empty although messages were forwarded lost its
    // history upstream (the harness died before persisting): the next prompt must carry it again.
    if (resumedId !== undefined && lease.conversation.history.length === 0 && this.forwarded.length > 0) {
      this.historyLost = true;
      this.#environment.warn({ threadId: this.threadId, conversationId: lease.conversation.id }, "the harness lost this thread's history; rebuilding it from the client's transcript");
    }
    if (lease.conversation.history.length > 0 || this.forwarded.length > 0) {
      this.#environment.warn({ threadId: this.threadId, conversationId: lease.conversation.id, historySteps: lease.conversation.history.length }, "thread resumed its conversation");
    }
    if (resumedId === undefined && this.forwarded.length === 0) this.#recordAwaitsPrompt = true;
    else this.#recordConversation();
    return lease.conversation;
  }

  /**
   * Leases the conversation, resuming the thread's earlier one by id when there is one. A harness
   * that no longer has that id may start it empty (caught after the open, by the empty history) or
   * refuse the open (docs/protocol.md, "Assumptions and how we hedge them"): then a new conversation is opened and
   * the thread's history is rebuilt from the client's transcript, as when the history is lost.
   */
  async #acquire(config: ConversationConfig, signal: AbortSignal | undefined): Promise<PoolLease<Conversation>> {
    const pool = this.#environment.pool;
    const partition = this.#environment.partition;
    // A spare is opened ahead of need: it never takes the slot of a thread's conversation.
    const signalOption = { ...(signal === undefined ? {} : { signal }), ...(this.#spare === undefined ? {} : { reclaim: false }) };
    const resumedId = this.#conversationId;
    if (resumedId === undefined) return pool.acquire({ config, partition, ...signalOption });
    try {
      return await pool.acquire({ config: { ...config, conversationId: resumedId, continuation: "create-or-resume" }, partition, ...signalOption });
    } catch (error) {
      if (!isRefusedOpen(error) || signal?.aborted === true) throw error;
      this.#environment.warn(
        { threadId: this.threadId, conversationId: resumedId, error },
        "the harness refused to resume this thread's conversation; opening a new one and rebuilding the history from the client's transcript",
      );
      const lease = await pool.acquire({ config, partition, ...signalOption });
      this.#conversationId = undefined;
      if (this.forwarded.length > 0) this.historyLost = true;
      return lease;
    }
  }

  /**
   * Delivers a hook note to whoever relays the turn it came from: the client's run (through the
   * bridge, in order with the turn's steps) while the bridge holds a turn, else the relay of a turn
   * the harness started itself (`takeBackgroundNotes`).
   */
  relay(note: HookNote): void {
    if (this.bridge.hasTurn) {
      this.bridge.relay(note);
      return;
    }
    if (this.#backgroundNotes.length >= MAX_BACKGROUND_NOTES) this.#backgroundNotes.shift();
    this.#backgroundNotes.push(note);
  }

  /** The hook notes of a turn the harness started itself, oldest first; the queue is emptied. */
  takeBackgroundNotes(): HookNote[] {
    return this.#backgroundNotes.splice(0);
  }

  warn(details: Record<string, unknown>, message: string): void {
    this.#environment.warn(details, message);
  }

  /** Starts a harness turn; what the HITL bridge calls when it starts queued input. */
  startTurn(parts: UserInputPart[], context: { preamble: string | undefined; signal: AbortSignal }) {
    const conversation = this.#lease?.conversation;
    if (conversation === undefined) throw new Error("the conversation is not open");
    const input: UserInputPart[] = context.preamble === undefined ? parts : [{ text: context.preamble }, ...parts];
    const turn = conversation.send(input, { signal: context.signal });
    // A subagent's end is a trajectory state, not a step: it is queued for the run loop to translate.
    turn.onSubagentEnd((end) => void this.subagentEnds.push(end));
    return turn;
  }

  /**
   * Offers the conversation back to the pool while no run uses it (`reclaim` closes the session and
   * says whether it did), or withdraws the offer (`undefined`) while a run does: under the pool's
   * process cap, another thread's new conversation then takes this one's slot, and this thread's
   * next run resumes its conversation by id.
   */
  offerToPool(reclaim: (() => boolean) | undefined): void {
    this.#reclaim = reclaim;
    this.#lease?.setReclaimable(reclaim);
  }

  /** Whether the pool would give this session a conversation now, without waiting for room (a spare: without taking a thread's). */
  hasConversationRoom(): boolean {
    return this.#lease !== undefined || this.#environment.pool.hasRoomFor(this.#environment.partition, { reclaim: this.#spare === undefined });
  }

  /** Tells the pool whether this conversation waits on a human (placement packs parked ones). */
  markParked(parked: boolean): void {
    this.#lease?.setParked(parked);
  }

  /** Drops the conversation (not the thread): the next `openConversation` resumes or starts anew. */
  async dropConversation(options: { forgetId: boolean }): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    this.#stopBackgroundTurns?.();
    this.#stopBackgroundTurns = undefined;
    if (options.forgetId) this.#conversationId = undefined;
    await lease?.release();
  }

  /**
   * A spare becomes a new thread's session: its conversation (already open) and tools now serve
   * `threadId`, working in `workspace`, and the thread is recorded for a later resume.
   */
  adopt(threadId: string, workspace: string | undefined, lease: LeaseToken | undefined): void {
    this.#spare = undefined;
    this.lease = lease;
    this.identity.threadId = threadId;
    this.identity.workspace = workspace;
    this.#threadKey = { agentId: this.#threadKey.agentId, threadId };
    // A spare's conversation is new and has nothing forwarded: it is recorded with the first prompt.
    this.#recordAwaitsPrompt = true;
  }

  /**
   * Told that a turn's prompt has just been handed to the harness, with what `forwarded` becomes
   * once the harness takes it. A conversation opened new for this thread (nothing to lose yet) is
   * first recorded now, already holding the prompt, while the harness works on it; the turn does
   * not end before this write did (`recorded()`), and the write its first step would ask for is
   * then the same record and is skipped. Recording the prompt before the harness confirmed it is
   * safe only on a new conversation: if a kill -9 lands before the harness keeps it, the resumed
   * conversation comes back empty while the record says something was forwarded, which
   * `openConversation` already treats as a lost history and rebuilds from the client's transcript.
   */
  recordPrompt(forwarded: ForwardedMessage[]): void {
    if (!this.#recordAwaitsPrompt) return;
    this.#recordAwaitsPrompt = false;
    this.#recordConversation(forwarded);
  }

  /**
   * Records the thread's (new or resumed) conversation without holding up the turn that follows:
   * waiting for the disk (or Redis) before sending the prompt cost a new thread's first turn the
   * store's round trips, and a crowd of new threads queued them all behind each other's writes.
   * Submitted now, before the turn can submit its own record: the store writes one thread's changes
   * in submission order, so this one never lands over the turn's. The turn does not end before this
   * write did (`recorded()`): a thread whose client saw its turn finish resumes after a kill -9.
   */
  #recordConversation(forwarded = this.forwarded): void {
    const previous = this.#conversationRecord;
    const written = this.remember(forwarded).catch((error: unknown) =>
      this.#environment.warn({ threadId: this.threadId, error }, "could not record the thread for a later resume"),
    );
    this.#conversationRecord = previous === undefined ? written : Promise.all([previous, written]).then(() => undefined);
  }

  /**
   * Resolves once the records written since the conversation was opened or adopted are stored
   * (that one, and the turn's, which holds the prompt it forwarded); at once when there are none.
   * Awaited before a run finishes, so it waits for the disk on a conversation's first finished run
   * only: later turns' records do not hold up their streams. Never rejects.
   */
  async recorded(): Promise<void> {
    // A run that handed no prompt over still leaves its new conversation recorded.
    if (this.#recordAwaitsPrompt) {
      this.#recordAwaitsPrompt = false;
      this.#recordConversation();
    }
    const record = this.#conversationRecord;
    if (record === undefined) return;
    await record;
    if (this.#conversationRecord === record) this.#conversationRecord = undefined;
  }

  /** Records the thread in the persisted thread map, so it can resume after its session is gone. */
  async remember(forwarded: ForwardedMessage[] = this.forwarded): Promise<void> {
    const conversationId = this.conversationId;
    if (conversationId === undefined || this.#spare !== undefined) return;
    this.#submitted = { conversationId, forwarded };
    await this.#environment.threadStore.set(
      this.#threadKey,
      {
        conversationId,
        forwarded,
        toolSignature: this.toolSignature,
        ...(this.summary === undefined ? {} : { summary: this.summary }),
        ...(this.#createdAt === undefined ? {} : { createdAt: this.#createdAt }),
      },
      this.lease === undefined ? {} : { lease: this.lease },
    );
  }

  /**
   * `remember()` without waiting for the write, and only once the current tick's work is done: a
   * turn asks at its first step, and a warm turn's events (often all read in that same tick) go
   * to the client first. Asks within one tick make one write; a store that rejects is logged.
   * Except on a conversation's first turn (its open's record not yet waited for): the record that
   * holds the prompt it forwarded is then written at once, and `recorded()` waits for it too, or a
   * client that saw that turn finish could resume, after a kill -9, a record that never forwarded
   * anything (a harness that lost the conversation's history would then go unnoticed). A record
   * the store was already given (`recordPrompt`'s) is not written again.
   */
  rememberInBackground(): void {
    if (this.#submitted !== undefined && this.#submitted.forwarded === this.forwarded && this.#submitted.conversationId === this.conversationId) return;
    if (this.#conversationRecord !== undefined) {
      this.#recordConversation();
      return;
    }
    this.#rememberSoon ??= setImmediate(this.#rememberNow);
  }

  readonly #rememberNow = (): void => {
    this.#rememberSoon = undefined;
    this.remember().catch((error: unknown) => this.#environment.warn({ threadId: this.threadId, error }, "could not record the thread for a later resume"));
  };

  async close(reason: SessionCloseReason): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // The record below is the latest: a write still due at the end of the tick would only repeat it.
    clearImmediate(this.#rememberSoon);
    this.#rememberSoon = undefined;
    this.#stopBackgroundTurns?.();
    this.#stopBackgroundTurns = undefined;
    // Parked callers are released at once; the halted turn drains while the conversation closes below.
    const bridgeClosed = this.bridge.close();
    try {
      await this.remember();
    } catch (error) {
      this.#environment.warn({ threadId: this.threadId, error }, "could not record the thread for a later resume");
    }
    try {
      await this.#lease?.release();
    } catch (error) {
      this.#environment.warn({ threadId: this.threadId, reason, error }, "closing the conversation failed");
    }
    this.#lease = undefined;
    await bridgeClosed;
    // A spare no thread took leaves no workspace behind, and holds no thread.
    if (this.#spare !== undefined) {
      if (this.#spare.workspace !== undefined) await rm(this.#spare.workspace, { recursive: true, force: true }).catch(() => undefined);
      return;
    }
    // The live session is gone from this replica: another may take the thread now.
    if (this.lease !== undefined) await this.#environment.threadStore.leases?.release(this.#threadKey, this.lease);
  }
}

export type { RunAgentInput };

/** An open the harness answered with a refusal (not the pool closing, not the caller giving up). */
function isRefusedOpen(error: unknown): boolean {
  return PoolError.isInstance(error) && error.code === "OPEN_FAILED";
}
