import type { ListedThread, ThreadClaim, TranscriptMessage } from "@ag-ui-antigravity/foundation";
import { AgentError } from "../errors/agent-error.js";
import { boundedMessageId, type ForwardedMessage, textDigest } from "../input/message-fingerprint.js";
import { contentText } from "../input/prompt-parts.js";
import type { LeaseToken, StoredTranscript, ThreadKey, ThreadStore } from "./store/thread-store.js";
import type { ThreadChannels } from "./replay/thread-channels.js";

/** How long after a run ends its thread's transcript is written: runs that end together make one write. */
const TRANSCRIPT_WRITE_DELAY_MS = 250;
/** Threads one thread list gives at most. */
export const MAX_LISTED_THREADS = 200;

export interface ThreadRecordKeeperOptions {
  store: ThreadStore;
  /** The agent's id (fixed on first use: agent-identity.ts). */
  agentId(): string;
  channels: ThreadChannels;
  /** The lease the thread's live session holds, if it has one: the transcript write is fenced by it. */
  leaseOf(threadId: string): LeaseToken | undefined;
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * The agent's side of its threads' records that the HTTP binding asks for (`ThreadRecords`: owners,
 * thread lists, the transcript proof of `connect`), and the transcripts it keeps in the thread store
 * so that `connect` gives a thread back after the process that served it is gone. One owner for all
 * of it: the record it reads and writes is the thread store's, the same record the sessions write.
 */
export class ThreadRecordKeeper {
  readonly #options: ThreadRecordKeeperOptions;
  /** Transcript writes due, per thread. */
  readonly #due = new Map<string, NodeJS.Timeout>();
  readonly #writing = new Set<Promise<void>>();
  #closed = false;

  constructor(options: ThreadRecordKeeperOptions) {
    this.#options = options;
  }

  claim(threadId: string, owner: string): Promise<ThreadClaim> {
    const key = this.#key(threadId);
    return this.#read(() => this.#options.store.claim(key, owner));
  }

  releaseClaim(threadId: string, owner: string): Promise<void> {
    const key = this.#key(threadId);
    return this.#read(() => this.#options.store.releaseClaim(key, owner));
  }

  async owner(threadId: string): Promise<string | undefined> {
    const key = this.#key(threadId);
    return (await this.#read(() => this.#options.store.get(key)))?.owner;
  }

  async list(owner: string, options: { limit: number }): Promise<ListedThread[]> {
    const limit = Math.max(1, Math.min(MAX_LISTED_THREADS, Math.floor(options.limit)));
    const agentId = this.#options.agentId();
    const listings = await this.#read(() => this.#options.store.listByOwner(agentId, owner, { limit }));
    return listings.map((listing) => ({
      threadId: listing.threadId,
      lastActivityAt: new Date(listing.lastActivityAt).toISOString(),
      ...(listing.firstUserMessage === undefined ? {} : { firstUserMessage: listing.firstUserMessage }),
    }));
  }

  /**
   * Whether `messages` show the thread's newest user message (by its bounded id and its text): the
   * one in the run this process saw last, or the newest the thread's record says was forwarded. A
   * thread known nowhere has nothing to show, and is shown nothing (true).
   */
  async showsTranscript(threadId: string, messages: readonly TranscriptMessage[]): Promise<boolean> {
    const fromRun = this.#options.channels.peek(threadId)?.latestUserMessage;
    const key = this.#key(threadId);
    const fromRecord = (await this.#read(() => this.#options.store.get(key)))?.forwarded.at(-1);
    const proofs = [fromRun, fromRecord].filter((proof): proof is ForwardedMessage => proof !== undefined);
    if (proofs.length === 0) return true;
    return messages.some((message) => {
      if (message.role !== "user" || typeof message.id !== "string") return false;
      const id = boundedMessageId(message.id);
      const candidates = proofs.filter((proof) => proof.id === id);
      if (candidates.length === 0) return false;
      const digest = textDigest(contentText(message.content as Parameters<typeof contentText>[0]));
      return candidates.some((proof) => proof.digest === digest);
    });
  }

  /** The transcript the store kept of a thread (undefined when it keeps none, or the store cannot be read: `connect` then has nothing to add). */
  async transcript(threadId: string): Promise<StoredTranscript | undefined> {
    if (!this.#options.store.keepsTranscripts) return undefined;
    try {
      return await this.#options.store.getTranscript(this.#key(threadId));
    } catch (error) {
      this.#options.warn({ threadId, error }, "the thread's transcript could not be read from the thread store; connect sends what this process holds");
      return undefined;
    }
  }

  /**
   * Writes the thread's transcript shortly after a run of it ended (a store that keeps transcripts
   * only): applied and written off the run's path, once for runs that end together.
   */
  scheduleTranscript(threadId: string): void {
    if (this.#closed || !this.#options.store.keepsTranscripts || this.#due.has(threadId)) return;
    const timer = setTimeout(() => {
      this.#due.delete(threadId);
      this.#track(this.#writeTranscript(threadId));
    }, TRANSCRIPT_WRITE_DELAY_MS);
    timer.unref();
    this.#due.set(threadId, timer);
  }

  /** Writes every transcript that is due now, and waits for the writes in progress (the agent is closing). Never rejects. */
  async flush(): Promise<void> {
    this.#closed = true;
    const due = [...this.#due.keys()];
    for (const timer of this.#due.values()) clearTimeout(timer);
    this.#due.clear();
    for (const threadId of due) this.#track(this.#writeTranscript(threadId));
    await Promise.all([...this.#writing]);
  }

  async #writeTranscript(threadId: string): Promise<void> {
    const channel = this.#options.channels.peek(threadId);
    // A run in flight ends with a write of its own.
    if (channel === undefined || channel.current !== undefined) return;
    await channel.transcript.settled();
    if (!channel.transcript.known || channel.current !== undefined) return;
    const view = channel.transcript.view;
    const lease = this.#options.leaseOf(threadId);
    await this.#options.store.setTranscript(
      this.#key(threadId),
      { messages: view.messages, ...(view.state === undefined ? {} : { state: view.state }), omittedMessages: view.omitted?.messages ?? 0 },
      lease === undefined ? {} : { lease },
    );
  }

  #track(write: Promise<void>): void {
    const tracked = write.catch((error: unknown) => this.#options.warn({ error }, "a thread's transcript could not be written to the thread store"));
    this.#writing.add(tracked);
    void tracked.finally(() => this.#writing.delete(tracked));
  }

  #key(threadId: string): ThreadKey {
    return { agentId: this.#options.agentId(), threadId };
  }

  /** A store that cannot be read is refused with a clear code (the binding answers 503). */
  async #read<Result>(read: () => Promise<Result>): Promise<Result> {
    try {
      return await read();
    } catch (error) {
      throw new AgentError("THREAD_STORE_UNAVAILABLE", "The thread store cannot be reached; try again shortly.", { cause: error });
    }
  }
}
