import { randomUUID } from "node:crypto";
import { link, readFile, rename, stat, unlink, utimes } from "node:fs/promises";
import { join } from "node:path";
import { createFileOnce, Lifetime } from "@ag-ui-antigravity/foundation";
import { z } from "zod/v4";
import { ownershipDigest } from "./ownership-digest.js";
import { DEFAULT_OWNERSHIP_TTL_MS, type OwnershipKey, type ThreadClaim, type ThreadOwnershipStats, type ThreadOwnershipStore, ownershipStoreClosed } from "./thread-ownership-store.js";

/** Where a `FileOwnershipStore` keeps owners (a directory), and for how long. */
export interface FileOwnershipStoreOptions {
  /** Owners live under `<directory>/ag-ui-owners/<agent>/<thread digest>.json` (the agents' save dir fits). */
  directory: string;
  /** An owned thread without a run of its owner for this long (by the file's mtime) may be claimed anew. Default 30 days. */
  ttlMs?: number;
}

const ownerFileSchema = z.object({ version: z.literal(1), agentId: z.string(), thread: z.string(), owner: z.string().min(1) });

/**
 * Ownership on disk, one file per (agent, thread), for one machine: it survives restarts and is
 * shared by every process on the save dir. A claim creates the file with `link()`, which fails if
 * it exists, so two processes claiming the same thread at once cannot both win; the file is
 * complete before it appears (written under a unique temporary name first).
 */
export class FileOwnershipStore implements ThreadOwnershipStore {
  readonly #root: string;
  readonly #ttlMs: number;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished. */
  readonly closed = this.#lifetime.closed;

  constructor(options: FileOwnershipStoreOptions) {
    this.#root = join(options.directory, "ag-ui-owners");
    this.#ttlMs = options.ttlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
  }

  /**
   * Never `full`. `owned` touches the file's mtime (the TTL starts again); an expired or corrupt
   * file is moved aside and the thread claimed anew. Rejects on a file-system error, or when the
   * file kept changing under concurrent claimers for 5 attempts.
   */
  async claim(key: OwnershipKey, ownerId: string): Promise<ThreadClaim> {
    const path = this.#pathOf(key);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await this.#read(path, key);
      if (current.state === "live") {
        if (current.owner !== ownerId) return "refused";
        // The mtime is the entry's last use: a thread in use does not expire.
        await utimes(path, new Date(), new Date()).catch(() => undefined);
        return "owned";
      }
      if (current.state === "stale" && !(await this.#retire(path, key))) continue;
      if (await this.#create(path, key, ownerId)) return "claimed";
    }
    throw new Error("the thread's owner file kept changing under concurrent claims");
  }

  /** Deletes the owner file if `ownerId` owns the thread; another owner's file is left alone. */
  async release(key: OwnershipKey, ownerId: string): Promise<void> {
    const path = this.#pathOf(key);
    const current = await this.#read(path, key);
    if (current.state === "live" && current.owner === ownerId) await unlink(path).catch(() => undefined);
  }

  /** The owner in the thread's file, or undefined when there is none, it expired, or it is not a valid owner file. Does not refresh the TTL. */
  async ownerOf(key: OwnershipKey): Promise<string | undefined> {
    const current = await this.#read(this.#pathOf(key), key);
    return current.state === "live" ? current.owner : undefined;
  }

  /** `kind: "file"` and no `owners` (counting would read the whole directory); `refusedFull` is always 0. */
  stats(): ThreadOwnershipStats {
    return { kind: "file", refusedFull: 0 };
  }

  /** Nothing to write or stop: every claim is on disk when it resolves; idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(ownershipStoreClosed);
  }

  /** `live` (an owner within its TTL), `absent`, or `stale` (expired, or not a valid owner file of this key). */
  async #read(path: string, key: OwnershipKey): Promise<{ state: "live"; owner: string } | { state: "absent" | "stale" }> {
    let text: string;
    let modified: number;
    try {
      [text, modified] = await Promise.all([readFile(path, "utf8"), stat(path).then((stats) => stats.mtimeMs)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "absent" };
      throw error;
    }
    const parsed = ownerFileSchema.safeParse(safeJson(text));
    const digest = ownershipDigest(key.agentId, key.threadId);
    if (!parsed.success || parsed.data.agentId !== key.agentId || parsed.data.thread !== digest.thread) return { state: "stale" };
    if (Date.now() - modified > this.#ttlMs) return { state: "stale" };
    return { state: "live", owner: parsed.data.owner };
  }

  /** Moves a stale file out of the way. False when what was moved turned out to be a fresh claim (put back). */
  async #retire(path: string, key: OwnershipKey): Promise<boolean> {
    const retired = `${path}.${randomUUID()}.retired`;
    try {
      await rename(path, retired);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
      throw error;
    }
    // Between our read and the rename another claimer may have replaced the stale file with its own.
    const moved = await this.#read(retired, key);
    if (moved.state === "live") {
      await link(retired, path).catch(() => undefined);
      await unlink(retired).catch(() => undefined);
      return false;
    }
    await unlink(retired).catch(() => undefined);
    return true;
  }

  /** Creates the owner file unless one exists. */
  #create(path: string, key: OwnershipKey, ownerId: string): Promise<boolean> {
    const digest = ownershipDigest(key.agentId, key.threadId);
    return createFileOnce(path, JSON.stringify({ version: 1, agentId: key.agentId, thread: digest.thread, owner: ownerId }));
  }

  #pathOf(key: OwnershipKey): string {
    const digest = ownershipDigest(key.agentId, key.threadId);
    return join(this.#root, digest.agent, `${digest.thread}.json`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
