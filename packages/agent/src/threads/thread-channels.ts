import { ThreadChannel, type ThreadChannelOptions } from "./thread-channel.js";

/**
 * One `ThreadChannel` per thread, bounded: past `maxThreads`, the least recently used channel with
 * nothing in flight is dropped (its transcript with it; a later `connect` on that thread then gets
 * an empty stream, and the client keeps what it holds).
 */
export class ThreadChannels {
  readonly #channels = new Map<string, ThreadChannel>();
  readonly #maxThreads: number;
  readonly #channelOptions: ThreadChannelOptions;

  constructor(options: ThreadChannelOptions & { maxThreads: number }) {
    this.#maxThreads = options.maxThreads;
    this.#channelOptions = options;
  }

  get size(): number {
    return this.#channels.size;
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

  /** The thread's channel, created when it has none. */
  get(threadId: string): ThreadChannel {
    const existing = this.peek(threadId);
    if (existing !== undefined) return existing;
    const channel = new ThreadChannel(threadId, this.#channelOptions);
    this.#channels.set(threadId, channel);
    this.#evict();
    return channel;
  }

  close(): void {
    for (const channel of this.#channels.values()) channel.close();
    this.#channels.clear();
  }

  #evict(): void {
    if (this.#channels.size <= this.#maxThreads) return;
    for (const [threadId, channel] of this.#channels) {
      if (this.#channels.size <= this.#maxThreads) return;
      if (channel.active) continue;
      channel.close();
      this.#channels.delete(threadId);
    }
  }
}
