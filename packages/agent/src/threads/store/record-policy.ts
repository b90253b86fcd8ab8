import { z } from "zod/v4";
import {
  DEFAULT_MAX_FORWARDED_PER_THREAD,
  DEFAULT_MAX_STORED_TRANSCRIPT_BYTES,
  DEFAULT_THREAD_TTL_MS,
  type StoredTranscript,
  type ThreadKey,
  type ThreadRecord,
  type ThreadRecordInput,
  type ThreadStoreCommonOptions,
  type ThreadSummary,
} from "./thread-store.js";
import { threadNames } from "./thread-digest.js";

/** Longest thread id a record keeps (for its thread list); a longer id is client input never listed. */
export const MAX_LISTED_THREAD_ID_LENGTH = 512;
/** Characters of a thread's first user message a record keeps for its thread list. */
export const MAX_SUMMARY_TEXT_LENGTH = 200;

const summarySchema = z.object({ threadId: z.string().optional(), firstUserMessage: z.string().optional() });

/**
 * The persisted form of a thread's record (a file, a Redis hash field). Version 2 (before owners,
 * summaries and records without a conversation) still reads.
 */
export const storedThreadSchema = z.union([
  z.object({
    version: z.literal(3),
    agentId: z.string(),
    /** Digest of the thread id: a record found under the wrong name is never used. */
    thread: z.string(),
    conversationId: z.string().min(1).optional(),
    forwarded: z.array(z.object({ id: z.string(), digest: z.string() })),
    toolSignature: z.string(),
    summary: summarySchema.optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
  z.object({
    version: z.literal(2),
    agentId: z.string(),
    thread: z.string(),
    conversationId: z.string().min(1),
    forwarded: z.array(z.object({ id: z.string(), digest: z.string() })),
    toolSignature: z.string(),
    updatedAt: z.number(),
  }),
]);

/** A record as it is written (always the newest version). */
export interface StoredThread {
  version: 3;
  agentId: string;
  thread: string;
  conversationId?: string;
  forwarded: ThreadRecord["forwarded"];
  toolSignature: string;
  summary?: ThreadSummary;
  createdAt: number;
  updatedAt: number;
}

const storedTranscriptSchema = z.object({
  version: z.literal(1),
  agentId: z.string(),
  thread: z.string(),
  messages: z.array(z.record(z.string(), z.unknown())),
  state: z.unknown().optional(),
  omittedMessages: z.number().int().nonnegative(),
  updatedAt: z.number(),
});

/**
 * How every store shapes, stamps, bounds and ages a thread's record and transcript, from the
 * options all stores take (`ttlMs`, `maxForwardedPerThread`, `maxTranscriptBytes`, `now`): the one
 * definition of a record, in memory and persisted.
 */
export class ThreadRecordPolicy {
  readonly ttlMs: number;
  readonly maxForwarded: number;
  readonly maxTranscriptBytes: number;
  readonly now: () => number;

  constructor(options: ThreadStoreCommonOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_THREAD_TTL_MS;
    this.maxForwarded = options.maxForwardedPerThread ?? DEFAULT_MAX_FORWARDED_PER_THREAD;
    this.maxTranscriptBytes = options.maxTranscriptBytes ?? DEFAULT_MAX_STORED_TRANSCRIPT_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** The record a `set` keeps over `previous`: the newest forwarded fingerprints only, stamped now; the owner kept. */
  record(input: ThreadRecordInput, previous: ThreadRecord | undefined): ThreadRecord {
    const now = this.now();
    const summary = boundedSummary(input.summary ?? previous?.summary);
    return {
      conversationId: input.conversationId,
      forwarded: input.forwarded.slice(-this.maxForwarded).map(({ id, digest }) => ({ id, digest })),
      toolSignature: input.toolSignature,
      ...(previous?.owner === undefined ? {} : { owner: previous.owner }),
      ...(summary === undefined ? {} : { summary }),
      createdAt: input.createdAt ?? previous?.createdAt ?? now,
      updatedAt: now,
    };
  }

  /** Whether a record last updated at `updatedAt` has outlived the time to live. */
  expired(updatedAt: number): boolean {
    return this.now() - updatedAt > this.ttlMs;
  }

  /**
   * The persisted form of a `set`: the record named by its agent and its thread's digest, its
   * forwarded fingerprints the caller's own (the newest, not copied one by one: a store that encodes
   * them field by field, stored-thread-text.ts, never hands them out).
   */
  stored(key: ThreadKey, input: ThreadRecordInput): StoredThread {
    const forwarded = input.forwarded.length > this.maxForwarded ? input.forwarded.slice(-this.maxForwarded) : input.forwarded;
    const now = this.now();
    const summary = boundedSummary(input.summary);
    return {
      version: 3,
      agentId: key.agentId,
      thread: threadNames(key).thread,
      conversationId: input.conversationId,
      forwarded,
      toolSignature: input.toolSignature,
      ...(summary === undefined ? {} : { summary }),
      createdAt: input.createdAt ?? now,
      updatedAt: now,
    };
  }

  /**
   * The record in `text` if it parses and belongs to exactly this (agent, thread) and has not
   * expired; undefined otherwise (a torn, foreign or stale record only costs a cold start). The
   * owner is the store's to add (it is kept apart where it must be claimed atomically).
   */
  read(text: string, key: ThreadKey): ThreadRecord | undefined {
    return this.readAs(text, key.agentId, threadNames(key).thread);
  }

  /** `read` for a thread known by its digest only (a thread list names threads by digest). */
  readAs(text: string, agentId: string, thread: string): ThreadRecord | undefined {
    const parsed = storedThreadSchema.safeParse(safeJson(text));
    if (!parsed.success) return undefined;
    const stored = parsed.data;
    if (stored.agentId !== agentId || stored.thread !== thread) return undefined;
    if (this.expired(stored.updatedAt)) return undefined;
    const summary = stored.version === 3 ? stored.summary : undefined;
    return {
      ...(stored.conversationId === undefined ? {} : { conversationId: stored.conversationId }),
      forwarded: stored.forwarded,
      toolSignature: stored.toolSignature,
      ...(summary === undefined ? {} : { summary: withoutUndefined(summary) }),
      createdAt: stored.version === 3 ? stored.createdAt : stored.updatedAt,
      updatedAt: stored.updatedAt,
    };
  }

  /**
   * The transcript as a store keeps it: its newest messages within `maxTranscriptBytes` (the
   * state dropped when it alone outgrows them), the older ones counted as omitted.
   */
  boundedTranscript(transcript: StoredTranscript): StoredTranscript {
    const sizes = transcript.messages.map((message) => JSON.stringify(message).length);
    let stateSize = transcript.state === undefined ? 0 : JSON.stringify(transcript.state).length;
    let total = sizes.reduce((sum, size) => sum + size, stateSize);
    let dropped = 0;
    while (total > this.maxTranscriptBytes && dropped < sizes.length) {
      total -= sizes[dropped] ?? 0;
      dropped += 1;
    }
    let state = transcript.state;
    if (total > this.maxTranscriptBytes) {
      total -= stateSize;
      stateSize = 0;
      state = undefined;
    }
    return {
      messages: dropped === 0 ? transcript.messages : transcript.messages.slice(dropped),
      ...(state === undefined ? {} : { state }),
      omittedMessages: transcript.omittedMessages + dropped,
    };
  }

  /** The JSON a store writes for a transcript (bounded first by the caller). */
  storedTranscriptText(key: ThreadKey, transcript: StoredTranscript): string {
    return JSON.stringify({ version: 1, agentId: key.agentId, thread: threadNames(key).thread, ...transcript, updatedAt: this.now() });
  }

  /** The transcript in `text` if it parses, belongs to this (agent, thread) and has not expired. */
  readTranscript(text: string, key: ThreadKey): StoredTranscript | undefined {
    const parsed = storedTranscriptSchema.safeParse(safeJson(text));
    if (!parsed.success) return undefined;
    const stored = parsed.data;
    if (stored.agentId !== key.agentId || stored.thread !== threadNames(key).thread || this.expired(stored.updatedAt)) return undefined;
    return {
      messages: stored.messages as unknown as StoredTranscript["messages"],
      ...(stored.state === undefined ? {} : { state: stored.state }),
      omittedMessages: stored.omittedMessages,
    };
  }
}

/** A summary within its bounds: an id too long to list is not kept, the first message is cut. */
export function boundedSummary(summary: ThreadSummary | undefined): ThreadSummary | undefined {
  if (summary === undefined) return undefined;
  const threadId = summary.threadId !== undefined && summary.threadId.length <= MAX_LISTED_THREAD_ID_LENGTH ? summary.threadId : undefined;
  const firstUserMessage = summary.firstUserMessage === undefined ? undefined : ownCopy(summary.firstUserMessage.slice(0, MAX_SUMMARY_TEXT_LENGTH));
  if (threadId === undefined && firstUserMessage === undefined) return undefined;
  return { ...(threadId === undefined ? {} : { threadId }), ...(firstUserMessage === undefined ? {} : { firstUserMessage }) };
}

function withoutUndefined(summary: { threadId?: string | undefined; firstUserMessage?: string | undefined }): ThreadSummary {
  return { ...(summary.threadId === undefined ? {} : { threadId: summary.threadId }), ...(summary.firstUserMessage === undefined ? {} : { firstUserMessage: summary.firstUserMessage }) };
}

/**
 * A string that holds only its own characters. V8 may keep a cut of a string as a view of the whole
 * one: the 200 characters kept of a 900 kB first message would keep the 900 kB alive as long as the
 * thread's session lives.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
