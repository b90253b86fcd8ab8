import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { AgentError } from "../errors/agent-error.js";

/**
 * The directory a thread works in under `workspaceRoot`. The name is derived from a hash of the
 * thread id, never from the id itself, so no thread id ("../../etc", "/", NUL bytes, 10 kB of
 * text) can name a path outside the root; a short readable prefix keeps directories recognisable.
 * With `agentId`, the hash covers the agent too: agents sharing a root never share a thread's
 * directory (thread ownership is per agent, so a sibling agent's thread of the same id may belong
 * to someone else).
 */
export function threadWorkspacePath(workspaceRoot: string, threadId: string, agentId?: string): string {
  const root = resolve(workspaceRoot);
  const readable = threadId.replace(/[^a-zA-Z0-9_-]/g, "").slice(0, 24);
  const digest = createHash("sha256")
    .update(agentId === undefined ? threadId : JSON.stringify([agentId, threadId]))
    .digest("hex")
    .slice(0, 16);
  const directory = join(root, readable.length > 0 ? `${readable}-${digest}` : digest);
  const fromRoot = relative(root, directory);
  if (fromRoot.startsWith("..") || isAbsolute(fromRoot)) {
    throw new AgentError("INVALID_INPUT", "The thread id does not map to a directory inside the workspace root.");
  }
  return directory;
}

/** Creates (if needed) and returns the thread's workspace directory. */
export async function ensureThreadWorkspace(workspaceRoot: string, threadId: string, agentId?: string): Promise<string> {
  const directory = threadWorkspacePath(workspaceRoot, threadId, agentId);
  await mkdir(directory, { recursive: true });
  return directory;
}
