import { createHash } from "node:crypto";
import type { ThreadKey } from "./thread-store.js";

/**
 * Storage names derived from a hash, never from the ids themselves: a thread id is client input
 * (any length, any characters) and must not name a file, a path or a Redis key pattern.
 */
export function threadDigest(threadId: string): string {
  return createHash("sha256").update(threadId).digest("base64url");
}

/** A short readable prefix of the agent id plus a hash of it, safe as a file or key segment. */
export function agentDigest(agentId: string): string {
  const readable = agentId.replace(/[^a-zA-Z0-9_-]/g, "").slice(0, 32);
  const hash = createHash("sha256").update(agentId).digest("hex").slice(0, 16);
  return readable.length > 0 ? `${readable}-${hash}` : hash;
}

/** The names a store gives a thread (see `threadNames`). */
export interface ThreadNames {
  readonly agent: string;
  readonly thread: string;
}

/** Names given lately, so a thread's every write does not hash its ids again; bounded, oldest forgotten first. */
const recentNames = new Map<string, ThreadNames>();
const maxRecentNames = 1_024;
const maxCachedIdLength = 256;

/** The names a store gives a thread, one segment each: its agent's, and its own (a file name, a key part). */
export function threadNames(key: ThreadKey): ThreadNames {
  // The agent id's length first: no two (agent, thread) pairs share a key. A long id (client input) is not kept.
  const cacheKey = key.threadId.length <= maxCachedIdLength ? `${key.agentId.length}:${key.agentId}${key.threadId}` : undefined;
  const known = cacheKey === undefined ? undefined : recentNames.get(cacheKey);
  if (known !== undefined) return known;
  const names = Object.freeze({ agent: agentDigest(key.agentId), thread: threadDigest(key.threadId) });
  if (cacheKey === undefined) return names;
  recentNames.set(cacheKey, names);
  if (recentNames.size > maxRecentNames) {
    const [oldest] = recentNames.keys();
    if (oldest !== undefined) recentNames.delete(oldest);
  }
  return names;
}

/** One string naming (agent, thread), for in-memory maps. */
export function threadKeyDigest(key: ThreadKey): string {
  const names = threadNames(key);
  return `${names.agent}/${names.thread}`;
}
