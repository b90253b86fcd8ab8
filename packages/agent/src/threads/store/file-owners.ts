import { appendFile, mkdir, readFile, stat, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createFileOnce, type ThreadClaim } from "@ag-ui-antigravity/foundation";
import { z } from "zod/v4";
import { safeJson } from "./record-policy.js";
import { removeFile } from "./remove-file.js";
import { threadDigest } from "./thread-digest.js";

const ownerFileSchema = z.object({ version: z.literal(1), agentId: z.string(), thread: z.string(), owner: z.string().min(1) });

/** A thread's owner file, as read: live, absent, or stale (expired, torn, or not this thread's). */
export type OwnerFileState = { state: "live"; owner: string } | { state: "absent" } | { state: "stale" };

/** The suffix of a thread's owner file, beside its record (`<thread digest>.owner`). */
export const OWNER_FILE_SUFFIX = ".owner";
/** Where an agent's owner indexes live, beside its records: one `<owner digest>.txt` per owner, listing their threads. */
export const OWNER_INDEX_DIRECTORY = "owners";

/**
 * The owners of the file store's threads: one small file per owned thread, next to its record,
 * created once and never rewritten, so a claim is atomic across every process on the save dir (the
 * file is written under a temporary name and `link()`ed into place, which fails when one exists: two
 * claimers cannot both win, and no reader sees half a file). An owner is alive as long as its thread
 * is: its file's time, refreshed by each use, or the record's last write, within the time to live.
 * Each owner also has an append-only index of the threads they claimed, for their thread list.
 */
export class FileOwners {
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: { ttlMs: number; now: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#now = options.now;
  }

  /** Reads the owner file at `path` for (agent, thread); `recordUpdatedAt` keeps an owner alive while its thread is written. */
  async read(path: string, agentId: string, threadDigestValue: string, recordUpdatedAt: number | undefined): Promise<OwnerFileState> {
    let text: string;
    let modified: number;
    try {
      [text, modified] = await Promise.all([readFile(path, "utf8"), stat(path).then((stats) => stats.mtimeMs)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return { state: "absent" };
      throw error;
    }
    const parsed = ownerFileSchema.safeParse(safeJson(text));
    if (!parsed.success || parsed.data.agentId !== agentId || parsed.data.thread !== threadDigestValue) return { state: "stale" };
    if (this.#now() - Math.max(modified, recordUpdatedAt ?? 0) > this.#ttlMs) return { state: "stale" };
    return { state: "live", owner: parsed.data.owner };
  }

  /**
   * Claims the thread whose owner file is `path`. `retire` removes a stale thread whole (record,
   * transcript, owner): a new owner never inherits the conversation of a thread that expired.
   */
  async claim(
    path: string,
    names: { agentId: string; thread: string },
    owner: string,
    recordUpdatedAt: () => Promise<number | undefined>,
    retire: () => Promise<void>,
  ): Promise<ThreadClaim> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await this.read(path, names.agentId, names.thread, await recordUpdatedAt());
      if (current.state === "live") {
        if (current.owner !== owner) return "refused";
        // The file's time is the ownership's last use: a thread in use does not expire.
        const now = new Date(this.#now());
        await utimes(path, now, now).catch(() => undefined);
        return "owned";
      }
      if (current.state === "stale") await retire();
      if (await this.#create(path, names, owner)) {
        await this.#index(path, owner, names.thread);
        return "claimed";
      }
    }
    throw new Error("the thread's owner file kept changing under concurrent claims");
  }

  /** Removes the owner file when it names `owner`. */
  async release(path: string, names: { agentId: string; thread: string }, owner: string): Promise<void> {
    const current = await this.read(path, names.agentId, names.thread, undefined);
    if (current.state === "live" && current.owner === owner) await removeFile(path);
  }

  /** The thread digests `owner` claimed under the agent directory `directory`, newest claim last, each once. */
  async indexed(directory: string, owner: string): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(indexPath(directory, owner), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const seen = new Set<string>();
    for (const line of text.split("\n")) {
      if (line.length === 0) continue;
      seen.delete(line);
      seen.add(line);
    }
    return [...seen];
  }

  /** Creates the owner file unless one exists. */
  #create(path: string, names: { agentId: string; thread: string }, owner: string): Promise<boolean> {
    return createFileOnce(path, JSON.stringify({ version: 1, agentId: names.agentId, thread: names.thread, owner }), { mode: 0o600 });
  }

  /** Notes a claimed thread in its owner's index (appended: a line is written whole or not at all). */
  async #index(ownerFile: string, owner: string, thread: string): Promise<void> {
    const path = indexPath(dirname(ownerFile), owner);
    await mkdir(dirname(path), { recursive: true });
    await appendFile(path, `${thread}\n`, { mode: 0o600 });
  }
}

/** An owner's index file: named by a digest of the owner, never by the owner (client-chosen text). */
function indexPath(agentDirectory: string, owner: string): string {
  return join(agentDirectory, OWNER_INDEX_DIRECTORY, `${threadDigest(`owner:${owner}`)}.txt`);
}
