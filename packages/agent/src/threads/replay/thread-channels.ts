import { ReplayBudget } from "./replay-budget.js";
import { ThreadChannel, type ThreadChannelOptions } from "./thread-channel.js";

export interface ThreadChannelsOptions extends Omit<ThreadChannelOptions, "replayBudget" | "onTranscriptResize"> {
  /** Threads with a channel; past it, the least recently used idle channel is dropped. */
  maxThreads: number;
  /** Characters all transcripts hold together; past it, the least recently used are evicted. */
  maxTotalTranscriptBytes: number;
  /** Characters all ended runs kept for their grace period hold together. */
  maxTotalGraceBytes: number;
}

/**
 * One `ThreadChannel` per thread, bounded three ways: past `maxThreads`, the least recently used
 * channel with nothing in flight is dropped (its transcript with it; a later `connect` on that
 * thread then gets an empty stream, and the client keeps what it holds), and a run that needs a
 * channel when every other one is in use takes the place of one kept only by an ended run's replay
 * window, else of one kept only by `stayOpen` streams (they end, and their clients connect again),
 * so neither a burst of short runs nor followers can switch `connect` off for new threads; past
 * `maxTotalTranscriptBytes`, the least recently used transcripts lose their messages (a later
 * snapshot says so); past `maxTotalGraceBytes`, the runs that ended first stop being replayable.
 */
export class ThreadChannels {
  readonly #channels = new Map<string, ThreadChannel>();
  readonly #options: ThreadChannelsOptions;
  readonly #channelOptions: ThreadChannelOptions;
  #transcriptBytes = 0;
  #evicting = false;

  constructor(options: ThreadChannelsOptions) {
    this.#options = options;
    this.#channelOptions = {
      ...options,
      replayBudget: new ReplayBudget(options.maxTotalGraceBytes),
      onTranscriptResize: (delta) => {
        this.#transcriptBytes += delta;
        if (delta > 0) this.#evictTranscripts();
      },
    };
  }

  get size(): number {
    return this.#channels.size;
  }

  /** Characters the transcripts hold together, and the ended runs kept for replay. */
  get heldBytes(): { transcripts: number; replay: number } {
    return { transcripts: this.#transcriptBytes, replay: this.#channelOptions.replayBudget.usedBytes };
  }

  /** The thread's channel, if it has one; marks it as recently used. */
  peek(threadId: string): ThreadChannel | undefined {
    const channel = this.#channels.get(threadId);
    if (channel !== undefined) {
      this.#channels.delete(threadId);
      this.#channels.set(threadId, channel);
    }
    return channel;
  }

  /**
   * The thread's channel, created when it has none. A run's (`forRun`) is never the one dropped to
   * stay within `maxThreads`; a follower's may be, when every other channel is in use.
   */
  get(threadId: string, options: { forRun?: boolean } = {}): ThreadChannel {
    const existing = this.peek(threadId);
    if (existing !== undefined) return existing;
    const channel = new ThreadChannel(threadId, this.#channelOptions);
    this.#channels.set(threadId, channel);
    this.#evict(options.forRun === true ? channel : undefined);
    return channel;
  }

  close(): void {
    for (const channel of this.#channels.values()) channel.close();
    this.#channels.clear();
  }

  /**
   * Least recently used first. `keep` (a run's new channel) stays: for it, a channel kept only by a
   * replay window goes if need be, then one kept only by followers; only runs in flight can hold
   * more channels than `maxThreads`, and no more than there are runs.
   */
  #evict(keep: ThreadChannel | undefined): void {
    const over = (): boolean => this.#channels.size > this.#options.maxThreads;
    const dropWhere = (droppable: (channel: ThreadChannel) => boolean): void => {
      for (const [threadId, channel] of this.#channels) {
        if (!over()) return;
        if (channel !== keep && droppable(channel)) this.#drop(threadId, channel);
      }
    };
    dropWhere((channel) => !channel.active);
    if (keep === undefined) return;
    dropWhere((channel) => channel.replayOnly);
    dropWhere((channel) => channel.followedOnly);
  }

  #drop(threadId: string, channel: ThreadChannel): void {
    channel.close();
    this.#channels.delete(threadId);
  }

  /** Least recently used first; the transcript that just grew may go too, when it alone is too much. */
  #evictTranscripts(): void {
    if (this.#evicting) return;
    this.#evicting = true;
    try {
      for (const channel of this.#channels.values()) {
        if (this.#transcriptBytes <= this.#options.maxTotalTranscriptBytes) return;
        channel.transcript.evict();
      }
    } finally {
      this.#evicting = false;
    }
  }
}
