import type { ForwardedMessage } from "../input/message-fingerprint.js";
import type { LeaseToken, ThreadKey, ThreadRecordInput, ThreadStore } from "../threads/store/thread-store.js";

/** What a session's thread record says now, or undefined while there is nothing to record (no conversation yet, a spare). */
export interface ThreadRecordWrite {
  key: ThreadKey;
  record: ThreadRecordInput;
  lease: LeaseToken | undefined;
}

export interface ThreadRecordWriterOptions {
  store: ThreadStore;
  warn(details: Record<string, unknown>, message: string): void;
  threadId(): string;
  /** User messages the thread has forwarded to its conversation now. */
  forwarded(): ForwardedMessage[];
  conversationId(): string | undefined;
  /** The record to write with `forwarded`, or undefined when there is nothing to record. */
  describe(forwarded: ForwardedMessage[]): ThreadRecordWrite | undefined;
}

/**
 * Writes one session's thread record (conversation id, forwarded messages, summary) so the thread
 * can resume after its session is gone, without holding up the turns that change it: when a
 * conversation opens or is adopted, when its first prompt is handed over, and in the background
 * after each turn's first step. The session owns one; the writes of a thread go in order.
 */
export class ThreadRecordWriter {
  readonly #options: ThreadRecordWriterOptions;
  /**
   * The write recording the thread's conversation when it was opened or adopted: the turn starts
   * without waiting for it, but does not end before it (`recorded()`).
   */
  #conversationRecord: Promise<void> | undefined;
  /** The record `rememberInBackground` asked for, due at the end of the tick. */
  #rememberSoon: NodeJS.Immediate | undefined;
  /**
   * A conversation opened new for a thread that forwarded nothing yet: its first record waits for
   * the first prompt (`recordPrompt`), so a new thread's first turn writes one record, not two.
   */
  #awaitsPrompt = false;
  /** What the last record submitted to the store held: a record that would say the same is not written again. */
  #submitted: { conversationId: string; forwarded: readonly ForwardedMessage[] } | undefined;

  constructor(options: ThreadRecordWriterOptions) {
    this.#options = options;
  }

  /** The conversation is new and nothing was forwarded yet: its record waits for the first prompt (`recordPrompt`). */
  awaitPrompt(): void {
    this.#awaitsPrompt = true;
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
    if (!this.#awaitsPrompt) return;
    this.#awaitsPrompt = false;
    this.recordConversation(forwarded);
  }

  /**
   * Records the thread's (new or resumed) conversation without holding up the turn that follows:
   * waiting for the disk (or Redis) before sending the prompt cost a new thread's first turn the
   * store's round trips, and a crowd of new threads queued them all behind each other's writes.
   * Submitted now, before the turn can submit its own record: the store writes one thread's changes
   * in submission order, so this one never lands over the turn's. The turn does not end before this
   * write did (`recorded()`): a thread whose client saw its turn finish resumes after a kill -9.
   */
  recordConversation(forwarded = this.#options.forwarded()): void {
    const previous = this.#conversationRecord;
    const written = this.remember(forwarded).catch((error: unknown) => this.#warnUnrecorded(error));
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
    if (this.#awaitsPrompt) {
      this.#awaitsPrompt = false;
      this.recordConversation();
    }
    const record = this.#conversationRecord;
    if (record === undefined) return;
    await record;
    if (this.#conversationRecord === record) this.#conversationRecord = undefined;
  }

  /** Records the thread in the persisted thread map, so it can resume after its session is gone. */
  async remember(forwarded: ForwardedMessage[] = this.#options.forwarded()): Promise<void> {
    const write = this.#options.describe(forwarded);
    if (write === undefined) return;
    this.#submitted = { conversationId: write.record.conversationId, forwarded };
    await this.#options.store.set(write.key, write.record, write.lease === undefined ? {} : { lease: write.lease });
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
    const submitted = this.#submitted;
    if (submitted !== undefined && submitted.forwarded === this.#options.forwarded() && submitted.conversationId === this.#options.conversationId()) return;
    if (this.#conversationRecord !== undefined) {
      this.recordConversation();
      return;
    }
    this.#rememberSoon ??= setImmediate(this.#rememberNow);
  }

  /** Drops the write due at the end of the tick (the session's close writes the latest record itself). */
  cancelPending(): void {
    clearImmediate(this.#rememberSoon);
    this.#rememberSoon = undefined;
  }

  readonly #rememberNow = (): void => {
    this.#rememberSoon = undefined;
    this.remember().catch((error: unknown) => this.#warnUnrecorded(error));
  };

  #warnUnrecorded(error: unknown): void {
    this.#options.warn({ threadId: this.#options.threadId(), error }, "could not record the thread for a later resume");
  }
}
