import { z } from "zod/v4";
import { DEFAULT_MAX_FORWARDED_PER_THREAD, DEFAULT_THREAD_TTL_MS, type ThreadKey, type ThreadRecord, type ThreadRecordInput, type ThreadStoreCommonOptions } from "./thread-store.js";
import { threadNames } from "./thread-digest.js";

/** The persisted form of one thread (a file, or a Redis value). */
export const storedThreadSchema = z.object({
  version: z.literal(2),
  agentId: z.string(),
  /** Digest of the thread id: a record found under the wrong name is never used. */
  thread: z.string(),
  conversationId: z.string().min(1),
  forwarded: z.array(z.object({ id: z.string(), digest: z.string() })),
  toolSignature: z.string(),
  updatedAt: z.number(),
});

export type StoredThread = z.infer<typeof storedThreadSchema>;

/**
 * How every store shapes, stamps and ages a thread's record, from the options all stores take
 * (`ttlMs`, `maxForwardedPerThread`, `now`): the one definition of a record, in memory and persisted.
 */
export class ThreadRecordPolicy {
  readonly ttlMs: number;
  readonly maxForwarded: number;
  readonly now: () => number;

  constructor(options: ThreadStoreCommonOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_THREAD_TTL_MS;
    this.maxForwarded = options.maxForwardedPerThread ?? DEFAULT_MAX_FORWARDED_PER_THREAD;
    this.now = options.now ?? Date.now;
  }

  /** The record a `set` keeps: the newest forwarded fingerprints only, stamped now. */
  record(input: ThreadRecordInput): ThreadRecord {
    return {
      conversationId: input.conversationId,
      forwarded: input.forwarded.slice(-this.maxForwarded).map(({ id, digest }) => ({ id, digest })),
      toolSignature: input.toolSignature,
      updatedAt: this.now(),
    };
  }

  /** Whether a record last updated at `updatedAt` has outlived the time to live. */
  expired(updatedAt: number): boolean {
    return this.now() - updatedAt > this.ttlMs;
  }

  /** The persisted form of a `set`: the record, named by its agent and its thread's digest. */
  stored(key: ThreadKey, input: ThreadRecordInput): StoredThread {
    return { version: 2, agentId: key.agentId, thread: threadNames(key).thread, ...this.record(input) };
  }

  /**
   * `stored`, its forwarded fingerprints the caller's own (the newest, not copied one by one): for a
   * store that encodes them field by field (stored-thread-text.ts) and never hands them out.
   */
  storedView(key: ThreadKey, input: ThreadRecordInput): StoredThread {
    const forwarded = input.forwarded.length > this.maxForwarded ? input.forwarded.slice(-this.maxForwarded) : input.forwarded;
    return { version: 2, agentId: key.agentId, thread: threadNames(key).thread, conversationId: input.conversationId, forwarded, toolSignature: input.toolSignature, updatedAt: this.now() };
  }

  /**
   * The record in `text` if it parses and belongs to exactly this (agent, thread) and has not
   * expired; undefined otherwise (a torn, foreign or stale record only costs a cold start).
   */
  read(text: string, key: ThreadKey): ThreadRecord | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = storedThreadSchema.safeParse(value);
    if (!parsed.success) return undefined;
    const stored = parsed.data;
    if (stored.agentId !== key.agentId || stored.thread !== threadNames(key).thread) return undefined;
    if (this.expired(stored.updatedAt)) return undefined;
    return { conversationId: stored.conversationId, forwarded: stored.forwarded, toolSignature: stored.toolSignature, updatedAt: stored.updatedAt };
  }
}
