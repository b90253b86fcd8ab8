import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import { removeFile, TEMPORARY_SUFFIX } from "./remove-file.js";
import { RetryingWriter, type PendingChange } from "./retrying-writer.js";
import { type StoredThread, ThreadRecordPolicy } from "./stored-thread.js";
import { StoredThreadText } from "./stored-thread-text.js";
import { type ThreadNames, threadNames } from "./thread-digest.js";
import { recordPathOfSlot, TwoSlotRecords } from "./two-slot-record.js";
import { type ThreadKey, type ThreadRecord, type ThreadRecordInput, type ThreadStore, type ThreadStoreCommonOptions, type ThreadStoreLogger, type ThreadStoreStats, threadStoreClosed } from "./thread-store.js";

export interface FileThreadStoreOptions extends ThreadStoreCommonOptions {
  /** The save dir. Threads live under `<directory>/ag-ui-threads/<agent>/<thread digest>.json` (and `.json.1`, its second slot). */
  directory: string;
  /** Threads kept per agent; past it the least recently updated files are removed. Default 10 000. */
  maxThreads?: number;
  /** Writes between two clean-ups of the agent's directory (expired, surplus and orphaned temporary files). Default 1 000. */
  pruneEveryWrites?: number;
}

/** A temporary file older than this was left by a writer that died mid-write. */
const orphanAgeMs = 60_000;
/**
 * Records whose slot files stay open, and whose encoded text is kept, between writes (the threads
 * written lately: at most twice as many descriptors, and a few kB each).
 */
const maxOpenRecords = 64;

/**
 * The embedded default: one small record per (agent, thread), in two slot files written in turn
 * (two-slot-record.ts: a reader always gets the old record or the new one, never a torn one). Each
 * thread has its own files, so several agents and several processes on one save dir never lose
 * each other's entries; an update rewrites one thread, never the whole map, so write time does not
 * grow with the number of threads; reads always come from disk, so a thread that moved to another
 * process on the same machine resumes from what that process wrote.
 */
export class FileThreadStore implements ThreadStore {
  readonly #root: string;
  readonly #maxThreads: number;
  readonly #policy: ThreadRecordPolicy;
  readonly #pruneEveryWrites: number;
  readonly #logger: ThreadStoreLogger;
  readonly #writer: RetryingWriter<StoredThread>;
  readonly #slots: TwoSlotRecords;
  readonly #text = new StoredThreadText({ maxRecords: maxOpenRecords });
  readonly #agentsSeen = new Set<string>();
  readonly #paths = new WeakMap<ThreadNames, string>();
  #writesSincePrune = 0;
  #pruning: Promise<void> | undefined;
  #rememberedThreads: number | undefined;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished: pending writes attempted, clean-up done. */
  readonly closed = this.#lifetime.closed;

  constructor(options: FileThreadStoreOptions) {
    this.#root = join(options.directory, "ag-ui-threads");
    this.#maxThreads = options.maxThreads ?? 10_000;
    this.#policy = new ThreadRecordPolicy(options);
    this.#pruneEveryWrites = options.pruneEveryWrites ?? 1_000;
    this.#logger = options.logger ?? {};
    this.#slots = new TwoSlotRecords({ maxRemembered: this.#maxThreads, maxOpenRecords });
    this.#writer = new RetryingWriter<StoredThread>({
      write: (path, change) => {
        if (change !== null) return this.#slots.write(path, this.#text.members(path, change));
        this.#text.forget(path);
        return this.#slots.remove(path);
      },
      onFailure: (error) =>
        this.#logger.warn?.({ error, pendingWrites: this.#writer.pending }, "the thread map could not be written; retrying with the next change"),
    });
  }

  async get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    const path = this.#pathOf(key);
    const pending = this.#writer.peek(path);
    if (pending !== undefined) return pending === null ? undefined : this.#policy.read(JSON.stringify(pending), key);
    const text = await this.#slots.read(path);
    return text === undefined ? undefined : this.#policy.read(text, key);
  }

  async set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    const names = threadNames(key);
    this.#agentsSeen.add(names.agent);
    await this.#writer.submit(this.#pathOfNames(names), this.#policy.storedView(key, record));
    this.#writesSincePrune += 1;
    if (this.#rememberedThreads === undefined || this.#writesSincePrune >= this.#pruneEveryWrites) this.#pruneInBackground();
  }

  async delete(key: ThreadKey): Promise<void> {
    await this.#writer.submit(this.#pathOf(key), null satisfies PendingChange<StoredThread>);
  }

  stats(): ThreadStoreStats {
    return {
      kind: "file",
      ...(this.#rememberedThreads === undefined ? {} : { rememberedThreads: this.#rememberedThreads }),
      writeFailures: this.#writer.failures,
      pendingWrites: this.#writer.pending,
      droppedWrites: this.#writer.dropped,
    };
  }

  /** Removes expired threads, the least recently updated beyond `maxThreads`, and temporary files of dead writers. */
  async prune(): Promise<void> {
    let total = 0;
    for (const agent of this.#agentsSeen) total += await this.#pruneAgent(join(this.#root, agent));
    this.#rememberedThreads = total;
  }

  /** A last attempt at pending writes; waits for a clean-up in progress, then closes the slot files it held open. Idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(threadStoreClosed, async () => {
      await this.#writer.flush();
      await this.#pruning;
      await this.#slots.close();
    });
  }

  #pruneInBackground(): void {
    if (this.#pruning !== undefined) return;
    this.#writesSincePrune = 0;
    this.#pruning = this.prune()
      .catch((error: unknown) => this.#logger.warn?.({ error }, "cleaning up the thread map failed"))
      .finally(() => {
        this.#pruning = undefined;
      });
  }

  async #pruneAgent(directory: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
    const now = this.#policy.now();
    // A thread's record is one or two slot files: it was last updated when its newer one was.
    const threads = new Map<string, { files: string[]; updatedAt: number }>();
    for (const name of names) {
      const path = join(directory, name);
      const modified = await stat(path).then((stats) => stats.mtimeMs, () => undefined);
      if (modified === undefined) continue;
      if (name.endsWith(TEMPORARY_SUFFIX)) {
        if (now - modified > orphanAgeMs) await removeFile(path);
        continue;
      }
      const record = recordPathOfSlot(path);
      const thread = threads.get(record);
      if (thread === undefined) threads.set(record, { files: [path], updatedAt: modified });
      else {
        thread.files.push(path);
        thread.updatedAt = Math.max(thread.updatedAt, modified);
      }
    }
    const removeThread = async (record: string, files: string[]): Promise<void> => {
      this.#text.forget(record);
      await this.#slots.forget(record);
      for (const file of files) await removeFile(file);
    };
    const kept: Array<{ record: string; files: string[]; updatedAt: number }> = [];
    for (const [record, thread] of threads) {
      if (now - thread.updatedAt > this.#policy.ttlMs) await removeThread(record, thread.files);
      else kept.push({ record, ...thread });
    }
    kept.sort((left, right) => left.updatedAt - right.updatedAt);
    const surplus = kept.length - this.#maxThreads;
    for (const thread of kept.slice(0, Math.max(0, surplus))) await removeThread(thread.record, thread.files);
    return Math.min(kept.length, this.#maxThreads);
  }

  #pathOf(key: ThreadKey): string {
    return this.#pathOfNames(threadNames(key));
  }

  /** Kept per names (which `threadNames` keeps for the threads used lately): a record is written every turn. */
  #pathOfNames(names: ThreadNames): string {
    let path = this.#paths.get(names);
    if (path === undefined) {
      path = join(this.#root, names.agent, `${names.thread}.json`);
      this.#paths.set(names, path);
    }
    return path;
  }
}
