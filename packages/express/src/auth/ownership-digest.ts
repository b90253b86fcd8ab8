import { createHash } from "node:crypto";

/**
 * Storage names come from hashes, never from the ids: a thread id is client input (any length, any
 * characters) and must not name a file or a key pattern, nor make an entry grow with its length.
 */
export function ownershipDigest(agentId: string, threadId: string): { agent: string; thread: string } {
  const readable = agentId.replace(/[^a-zA-Z0-9_-]/g, "").slice(0, 32);
  const agentHash = createHash("sha256").update(agentId).digest("hex").slice(0, 16);
  return {
    agent: readable.length > 0 ? `${readable}-${agentHash}` : agentHash,
    thread: createHash("sha256").update(threadId).digest("base64url"),
  };
}
