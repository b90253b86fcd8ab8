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

/** The names a store gives a thread, one segment each: its agent's, and its own (a file name, a key part). */
export function threadNames(key: ThreadKey): { agent: string; thread: string } {
  return { agent: agentDigest(key.agentId), thread: threadDigest(key.threadId) };
}

/** One string naming (agent, thread), for in-memory maps. */
export function threadKeyDigest(key: ThreadKey): string {
  const names = threadNames(key);
  return `${names.agent}/${names.thread}`;
}
