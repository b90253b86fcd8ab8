import { z } from "zod";
import type { ThreadKey, ThreadRecord, ThreadRecordInput } from "./thread-store.js";
import { threadDigest } from "./thread-digest.js";

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

export function toStoredThread(key: ThreadKey, record: ThreadRecordInput, options: { now: number; maxForwarded: number }): StoredThread {
  return {
    version: 2,
    agentId: key.agentId,
    thread: threadDigest(key.threadId),
    conversationId: record.conversationId,
    forwarded: record.forwarded.slice(-options.maxForwarded).map(({ id, digest }) => ({ id, digest })),
    toolSignature: record.toolSignature,
    updatedAt: options.now,
  };
}

/**
 * The record in `text` if it parses and belongs to exactly this (agent, thread) and has not
 * expired; undefined otherwise (a torn, foreign or stale record only costs a cold start).
 */
export function readStoredThread(text: string, key: ThreadKey, options: { now: number; ttlMs: number }): ThreadRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = storedThreadSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const stored = parsed.data;
  if (stored.agentId !== key.agentId || stored.thread !== threadDigest(key.threadId)) return undefined;
  if (options.now - stored.updatedAt > options.ttlMs) return undefined;
  return { conversationId: stored.conversationId, forwarded: stored.forwarded, toolSignature: stored.toolSignature, updatedAt: stored.updatedAt };
}
