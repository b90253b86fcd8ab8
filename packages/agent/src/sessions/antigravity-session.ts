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
import { ThreadRecordWriter, type ThreadRecordWrite } from "./thread-record-writer.js";

/** Hook notes of harness-started turns a session keeps until their relay reads them; the oldest go first past it. */
const MAX_BACKGROUND_NOTES = 1_000;

const NO_SUBAGENT_ENDS: readonly SubagentEnd[] = Object.freeze([]);

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
  /** The history the thread's last run brought, checked: the next run's check builds on it. */
  readonly checkedHistory = new CheckedHistory();
  /** User messages forwarded to the conversation, oldest first. */
  #forwarded: ForwardedMessage[];
  /** Set when a run met a dead harness: the next run rebuilds the session. */
  #harnessLost = false;
  /** Set when the harness resumed this thread's conversation without its history. */
  #historyLost = false;
  /** Subagents that ended since the run loop last looked. */
  #subagentEnds: SubagentEnd[] = [];
  /** Turns the harness started by itself (triggers) since the thread's last client run. */
  #triggerTurnsSinceClientRun = 0;
  /** What the thread's list shows of it (its id, its first user message): set by its first prompt, kept in its record. */
  #summary: ThreadSummary | undefined;
  /** The lease this session holds its thread by, when the store has leases (an adopted spare gets its thread's). */
  #threadLease: LeaseToken | undefined;
  readonly #createdAt: number | undefined;
  /** Scheduled turns waiting: `schedule` calls that ran, less the turns the harness started since (see `scheduleLimits`). */
  #pendingSchedules = 0;
  /** Hook notes of turns the harness started itself, for the relay of those turns (`takeBackgroundNotes`). */
  readonly #backgroundNotes: HookNote[] = [];
  readonly #environment: SessionEnvironment;
  #conversationLease: PoolLease<Conversation> | undefined;
  #stopBackgroundTurns: (() => void) | undefined;
  #conversationId: string | undefined;
  /** The offer to give the conversation back to the pool while no run uses it (see `offerToPool`). */
  #reclaim: (() => boolean) | undefined;
  #closed = false;
  #threadKey: ThreadKey;
  #spare: { workspace: string | undefined } | undefined;
  /** Writes the thread's record, without holding up the turns that change it. */
  readonly #record: ThreadRecordWriter;

  constructor(identity: SessionIdentity, seed: SessionSeed, environment: SessionEnvironment) {
    this.identity = identity;
    this.#threadKey = environment.threadKey;
    this.#spare = seed.spare;
    this.#environment = environment;
    this.toolSignature = seed.toolSignature;
    this.#forwarded = [...seed.forwarded];
    this.#conversationId = seed.conversationId;
    this.#summary = seed.summary;
    this.#createdAt = seed.createdAt;
    this.#threadLease = seed.lease;
    this.#record = new ThreadRecordWriter({
      store: environment.threadStore,
      warn: (details, message) => environment.warn(details, message),
      threadId: () => this.threadId,
      forwarded: () => this.#forwarded,
      conversationId: () => this.conversationId,
      describe: (forwarded) => this.#recordOf(forwarded),
    });
    this.bridge = new HitlBridge({
      ...environment.bridgeOptions,
      // An approval of a built-in or MCP call names the card the client holds for it (one id for both);
      // the bridge does not ask about its own tools.
      toolCallIdOf: (call) =>
        call.trajectoryId === undefined || call.stepIndex === undefined
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

  /** User messages forwarded to the conversation, oldest first. */
  get forwarded(): readonly ForwardedMessage[] {
    return this.#forwarded;
  }

  /** The harness took a turn's prompt: `forwarded` is what the thread has forwarded now (recorded by `rememberInBackground`). */
  confirmForwarded(forwarded: ForwardedMessage[]): void {
    this.#forwarded = forwarded;
  }

  /** Whether a run met a dead harness: the next run rebuilds the session. */
  get harnessLost(): boolean {
    return this.#harnessLost;
  }

  /** A run met a dead harness (or the conversation's process went away): the next run rebuilds the session. */
  markHarnessLost(): void {
    this.#harnessLost = true;
  }

  /**
   * Whether the harness resumed this thread's conversation without its history since the last
   * ask: the run that asks rebuilds it from the client's transcript, so the flag is cleared.
   */
  takeHistoryLost(): boolean {
    const lost = this.#historyLost;
    this.#historyLost = false;
    return lost;
  }

  /** Subagents that ended since the last call, oldest first (for the run loop to translate). */
  takeSubagentEnds(): readonly SubagentEnd[] {
    return this.#subagentEnds.length === 0 ? NO_SUBAGENT_ENDS : this.#subagentEnds.splice(0);
  }

  /** One more turn the harness started by itself; returns how many since the thread's last client run. */
  countTriggerTurn(): number {
    this.#triggerTurnsSinceClientRun += 1;
    return this.#triggerTurnsSinceClientRun;
  }

  /** A client ran the thread: its trigger turns count from zero again. */
  resetTriggerTurns(): void {
    this.#triggerTurnsSinceClientRun = 0;
  }

  /** What the thread's list shows of it (its id, its first user message), kept in its record. */
  get summary(): ThreadSummary | undefined {
    return this.#summary;
  }

  /** Names the thread by its first prompt; a thread already named keeps its name. */
  nameThread(summary: () => ThreadSummary | undefined): void {
    this.#summary ??= summary();
  }

  /** The lease this session holds its thread by, when the store has leases (an adopted spare gets its thread's). */
  get lease(): LeaseToken | undefined {
    return this.#threadLease;
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
    return this.#conversationLease?.conversation;
  }

  get conversationId(): string | undefined {
    return this.#conversationLease?.conversation.id ?? this.#conversationId;
  }

  /**
   * The harness conversation, opened on first use with this run's client tools. A thread that
   * had a conversation before (swept, evicted, rebuilt, restarted) resumes it by id.
   */
  async openConversation(tools: readonly Tool[], options: { signal?: AbortSignal }): Promise<Conversation> {
    if (this.#conversationLease !== undefined) return this.#conversationLease.conversation;
    const pieces = this.bridge.harnessPieces(tools);
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
    this.#conversationLease = lease;
    this.#environment.onConversationOpened(lease.conversation);
    lease.setReclaimable(this.#reclaim);
    this.#stopBackgroundTurns = lease.conversation.onTriggerTurn((turn) => {
      // A turn the harness starts itself may be a scheduled one coming due: one fewer waits.
      if (this.#pendingSchedules > 0) this.#pendingSchedules -= 1;
      this.#environment.onBackgroundTurn(this, turn);
    });
    // The session learns that its harness died from the lease, not from the next failing send.
    lease.signal.addEventListener(
      "abort",
      () => {
        if (!this.#closed) this.#harnessLost = true;
      },
      { once: true },
    );
    const resumedId = this.#conversationId;
    this.#conversationId = lease.conversation.id;
    if (this.#historyLost) {
      this.#record.recordConversation();
      return lease.conversation;
    }
    // A resumed conversation that comes back empty although messages were forwarded lost its
    // history upstream (the harness died before persisting): the next prompt must carry it again.
    if (resumedId !== undefined && lease.conversation.history.length === 0 && this.#forwarded.length > 0) {
      this.#historyLost = true;
      this.#environment.warn({ threadId: this.threadId, conversationId: lease.conversation.id }, "the harness lost this thread's history; rebuilding it from the client's transcript");
    }
    if (lease.conversation.history.length > 0 || this.#forwarded.length > 0) {
      this.#environment.warn({ threadId: this.threadId, conversationId: lease.conversation.id, historySteps: lease.conversation.history.length }, "thread resumed its conversation");
    }
    if (resumedId === undefined && this.#forwarded.length === 0) this.#record.awaitPrompt();
    else this.#record.recordConversation();
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
      if (this.#forwarded.length > 0) this.#historyLost = true;
      return lease;
    }
  }

  /** Scheduled turns waiting: `schedule` calls that ran, less the turns the harness started since. */
  get pendingSchedules(): number {
    return this.#pendingSchedules;
  }

  /** A `schedule` call ran (the observer hooks saw it succeed): one more turn waits to come due. */
  noteScheduled(): void {
    this.#pendingSchedules += 1;
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
    const conversation = this.#conversationLease?.conversation;
    if (conversation === undefined) throw new Error("the conversation is not open");
    const input: UserInputPart[] = context.preamble === undefined ? parts : [{ text: context.preamble }, ...parts];
    const turn = conversation.send(input, { signal: context.signal });
    // A subagent's end is a trajectory state, not a step: it is queued for the run loop to translate.
    turn.onSubagentEnd((end) => void this.#subagentEnds.push(end));
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
    this.#conversationLease?.setReclaimable(reclaim);
  }

  /** Whether the pool would give this session a conversation now, without waiting for room (a spare: without taking a thread's). */
  hasConversationRoom(): boolean {
    return this.#conversationLease !== undefined || this.#environment.pool.hasRoomFor(this.#environment.partition, { reclaim: this.#spare === undefined });
  }

  /** Tells the pool whether this conversation waits on a human (placement packs parked ones). */
  markParked(parked: boolean): void {
    this.#conversationLease?.setParked(parked);
  }

  /** Drops the conversation (not the thread): the next `openConversation` resumes or starts anew. */
  async dropConversation(options: { forgetId: boolean }): Promise<void> {
    const lease = this.#conversationLease;
    this.#conversationLease = undefined;
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
    this.#threadLease = lease;
    this.identity.threadId = threadId;
    this.identity.workspace = workspace;
    this.#threadKey = { agentId: this.#threadKey.agentId, threadId };
    // A spare's conversation is new and has nothing forwarded: it is recorded with the first prompt.
    this.#record.awaitPrompt();
  }

  /** A turn's prompt was just handed to the harness; a new conversation is first recorded now (see `ThreadRecordWriter.recordPrompt`). */
  recordPrompt(forwarded: ForwardedMessage[]): void {
    this.#record.recordPrompt(forwarded);
  }

  /** Resolves once the records written since the conversation was opened or adopted are stored; never rejects. */
  recorded(): Promise<void> {
    return this.#record.recorded();
  }

  /** Records the thread in the persisted thread map, so it can resume after its session is gone. */
  remember(forwarded?: ForwardedMessage[]): Promise<void> {
    return this.#record.remember(forwarded);
  }

  /** `remember()` without waiting for the write, once the current tick's work is done (see `ThreadRecordWriter`). */
  rememberInBackground(): void {
    this.#record.rememberInBackground();
  }

  /** What the thread's record says with `forwarded`; nothing while there is no conversation id, or for a spare. */
  #recordOf(forwarded: ForwardedMessage[]): ThreadRecordWrite | undefined {
    const conversationId = this.conversationId;
    if (conversationId === undefined || this.#spare !== undefined) return undefined;
    return {
      key: this.#threadKey,
      record: {
        conversationId,
        forwarded,
        toolSignature: this.toolSignature,
        ...(this.#summary === undefined ? {} : { summary: this.#summary }),
        ...(this.#createdAt === undefined ? {} : { createdAt: this.#createdAt }),
      },
      lease: this.#threadLease,
    };
  }

  async close(reason: SessionCloseReason): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // The record below is the latest: a write still due at the end of the tick would only repeat it.
    this.#record.cancelPending();
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
      await this.#conversationLease?.release();
    } catch (error) {
      this.#environment.warn({ threadId: this.threadId, reason, error }, "closing the conversation failed");
    }
    this.#conversationLease = undefined;
    await bridgeClosed;
    // A spare no thread took leaves no workspace behind, and holds no thread.
    if (this.#spare !== undefined) {
      if (this.#spare.workspace !== undefined) await rm(this.#spare.workspace, { recursive: true, force: true }).catch(() => undefined);
      return;
    }
    // The live session is gone from this replica: another may take the thread now.
    if (this.#threadLease !== undefined) await this.#environment.threadStore.leases?.release(this.#threadKey, this.#threadLease);
  }
}

export type { RunAgentInput };

/** An open the harness answered with a refusal (not the pool closing, not the caller giving up). */
function isRefusedOpen(error: unknown): boolean {
  return PoolError.isInstance(error) && error.code === "OPEN_FAILED";
}
