import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Lifetime, type ThreadClaim } from "@ag-ui-antigravity/foundation";
import { FileOwners, OWNER_FILE_SUFFIX } from "./file-owners.js";
import { removeFile, TEMPORARY_SUFFIX } from "./remove-file.js";
import { RetryingWriter, type PendingChange } from "./retrying-writer.js";
import { type StoredThread, ThreadRecordPolicy } from "./record-policy.js";
import { StoredThreadText } from "./stored-thread-text.js";
import { agentDigest, type ThreadNames, threadNames } from "./thread-digest.js";
import { SECOND_SLOT_SUFFIX, TwoSlotRecords } from "./two-slot-record.js";
import {
  type StoredTranscript,
  type ThreadKey,
  type ThreadListing,
  type ThreadRecord,
  type ThreadRecordInput,
  type ThreadStore,
  type ThreadStoreCommonOptions,
  type ThreadStoreLogger,
  type ThreadStoreStats,
  threadStoreClosed,
} from "./thread-store.js";

/** Where a `FileThreadStore` keeps threads (a directory) and how it bounds them. */
export interface FileThreadStoreOptions extends ThreadStoreCommonOptions {
  /**
   * The save dir. A thread lives under `<directory>/ag-ui-threads/<agent>/` as `<thread digest>.json`
   * (its record, in two slots: `.json` and `.json.1`), `.transcript.json` (its transcript, two slots
   * too) and `.owner` (its owner, written once).
   */
  directory: string;
  /** Threads kept per agent; past it the least recently updated are removed. Default 10 000. */
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
const RECORD_SUFFIX = ".json";
const TRANSCRIPT_SUFFIX = ".transcript.json";

/**
 * The embedded default: one record per (agent, thread), in files of its own (two-slot-record.ts: a
 * reader always gets the old record or the new one, never a torn one), so several agents and several
 * processes on one save dir never lose each other's entries; an update rewrites one thread, never
 * the whole map, so write time does not grow with the number of threads; reads always come from
 * disk, so a thread that moved to another process on the same machine resumes from what that
 * process wrote. The owner is a file of its own, created once (file-owners.ts): a claim is atomic
 * across processes. A restart changes nothing of a thread: its conversation, transcript and owner
 * are all here, and expire together.
 */
export class FileThreadStore implements ThreadStore {
  /** True: transcripts are files beside the records, so a `connect` after a restart gets its chat back. */
  readonly keepsTranscripts = true;
  readonly #root: string;
  readonly #maxThreads: number;
  readonly #policy: ThreadRecordPolicy;
  readonly #pruneEveryWrites: number;
  readonly #logger: ThreadStoreLogger;
  readonly #writer: RetryingWriter<StoredThread>;
  readonly #transcripts: RetryingWriter<string>;
  readonly #slots: TwoSlotRecords;
  readonly #text = new StoredThreadText({ maxRecords: maxOpenRecords });
  readonly #owners: FileOwners;
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
    this.#owners = new FileOwners({ ttlMs: this.#policy.ttlMs, now: this.#policy.now });
    this.#slots = new TwoSlotRecords({ maxRemembered: this.#maxThreads, maxOpenRecords });
    const onFailure = (error: unknown): void =>
      this.#logger.warn?.({ error, pendingWrites: this.#writer.pending + this.#transcripts.pending }, "the thread map could not be written; retrying with the next change");
    this.#writer = new RetryingWriter<StoredThread>({
      write: (path, change) => {
        if (change !== null) return this.#slots.write(path, this.#text.members(path, change));
        this.#text.forget(path);
        return this.#removeThread(path);
      },
      onFailure,
    });
    this.#transcripts = new RetryingWriter<string>({
      // The members of the transcript's JSON object (the slots add the braces and their serial).
      write: (path, change) => (change === null ? this.#slots.remove(path) : this.#slots.write(path, [Buffer.from(change.slice(1, -1))])),
      onFailure,
    });
  }

  /**
   * Reads the record from disk (a change not written yet answers first) and its owner from the owner
   * file; undefined when there is neither, or the record expired or is not this thread's. Rejects
   * when the directory cannot be read.
   */
  async get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    const path = this.#pathOf(key);
    const record = await this.#readRecord(key, path);
    const owner = await this.#owners.read(ownerPathOf(path), key.agentId, threadNames(key).thread, record?.updatedAt);
    if (owner.state !== "live") return record;
    const now = this.#policy.now();
    // A thread claimed by its owner before its first run opened a conversation.
    return { ...(record ?? { forwarded: [], toolSignature: "", createdAt: now, updatedAt: now }), owner: owner.owner };
  }

  /**
   * Writes the record's slot (the newest `maxForwardedPerThread` fingerprints, stamped now) and
   * resolves once written or failed; a failed write is kept and retried with the next change. The first
   * write, and every `pruneEveryWrites` writes, start a clean-up in the background. Takes no lease (one machine).
   */
  async set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    const names = threadNames(key);
    this.#agentsSeen.add(names.agent);
    await this.#writer.submit(this.#pathOfNames(names), this.#policy.stored(key, record));
    this.#writesSincePrune += 1;
    if (this.#rememberedThreads === undefined || this.#writesSincePrune >= this.#pruneEveryWrites) this.#pruneInBackground();
  }

  /** Reads the transcript from disk (a change not written yet answers first); undefined when none was kept or it expired. */
  async getTranscript(key: ThreadKey): Promise<StoredTranscript | undefined> {
    const path = transcriptPathOf(this.#pathOf(key));
    const pending = this.#transcripts.peek(path);
    const text = pending === undefined ? await this.#slots.read(path) : (pending ?? undefined);
    return text === undefined ? undefined : this.#policy.readTranscript(text, key);
  }

  /** Writes the transcript, cut to `maxTranscriptBytes` (the oldest messages first, then the state), and retries it like `set`. */
  async setTranscript(key: ThreadKey, transcript: StoredTranscript): Promise<void> {
    const path = transcriptPathOf(this.#pathOf(key));
    await this.#transcripts.submit(path, this.#policy.storedTranscriptText(key, this.#policy.boundedTranscript(transcript)));
  }

  /**
   * Creates the owner file once (atomic across processes on this save dir); a thread past its time
   * to live is removed whole before a new owner gets it, so nobody inherits an expired conversation.
   * Never `full`.
   */
  claim(key: ThreadKey, owner: string): Promise<ThreadClaim> {
    const names = threadNames(key);
    this.#agentsSeen.add(names.agent);
    const path = this.#pathOfNames(names);
    return this.#owners.claim(
      ownerPathOf(path),
      { agentId: key.agentId, thread: names.thread },
      owner,
      async () => (await this.#readRecord(key, path))?.updatedAt,
      () => this.#removeThread(path),
    );
  }

  /** Removes the owner file when it names `owner` and the thread has no conversation yet; otherwise does nothing. */
  async releaseClaim(key: ThreadKey, owner: string): Promise<void> {
    const path = this.#pathOf(key);
    if ((await this.#readRecord(key, path))?.conversationId !== undefined) return;
    await this.#owners.release(ownerPathOf(path), { agentId: key.agentId, thread: threadNames(key).thread }, owner);
  }

  /** Reads `owner`'s index of claims on agent `agentId` and each thread's files: those still theirs, with a record and a listable id, the most recently updated first, at most `limit`. */
  async listByOwner(agentId: string, owner: string, options: { limit: number }): Promise<ThreadListing[]> {
    const directory = join(this.#root, agentDigest(agentId));
    const listings: ThreadListing[] = [];
    for (const thread of await this.#owners.indexed(directory, owner)) {
      const path = join(directory, `${thread}${RECORD_SUFFIX}`);
      const current = await this.#owners.read(ownerPathOf(path), agentId, thread, undefined);
      if (current.state !== "live" || current.owner !== owner) continue;
      const text = await this.#slots.read(path);
      const record = text === undefined ? undefined : this.#policy.readAs(text, agentId, thread);
      const threadId = record?.summary?.threadId;
      if (record === undefined || threadId === undefined) continue;
      listings.push({ threadId, lastActivityAt: record.updatedAt, ...(record.summary?.firstUserMessage === undefined ? {} : { firstUserMessage: record.summary.firstUserMessage }) });
    }
    return listings.sort((left, right) => right.lastActivityAt - left.lastActivityAt).slice(0, options.limit);
  }

  /** Removes the thread's record and transcript files (retried like `set`); its owner file stays until it expires with `ttlMs`. */
  async delete(key: ThreadKey): Promise<void> {
    const path = this.#pathOf(key);
    await Promise.all([this.#writer.submit(path, null satisfies PendingChange<StoredThread>), this.#transcripts.submit(transcriptPathOf(path), null)]);
  }

  /** Kind `file`, the record and transcript writes that failed, wait or were dropped, and `rememberedThreads` as of the last clean-up. */
  stats(): ThreadStoreStats {
    return {
      kind: "file",
      ...(this.#rememberedThreads === undefined ? {} : { rememberedThreads: this.#rememberedThreads }),
      writeFailures: this.#writer.failures + this.#transcripts.failures,
      pendingWrites: this.#writer.pending + this.#transcripts.pending,
      droppedWrites: this.#writer.dropped + this.#transcripts.dropped,
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
      await Promise.all([this.#writer.flush(), this.#transcripts.flush()]);
      await this.#pruning;
      await this.#slots.close();
    });
  }

  async #readRecord(key: ThreadKey, path: string): Promise<ThreadRecord | undefined> {
    const pending = this.#writer.peek(path);
    if (pending !== undefined) return pending === null ? undefined : this.#policy.read(JSON.stringify(pending), key);
    const text = await this.#slots.read(path);
    return text === undefined ? undefined : this.#policy.read(text, key);
  }

  /** Removes every file of the thread whose record is at `path`: record, transcript, owner. */
  async #removeThread(path: string): Promise<void> {
    this.#text.forget(path);
    await Promise.all([this.#slots.remove(path), this.#slots.remove(transcriptPathOf(path)), removeFile(ownerPathOf(path))]);
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
    // A thread is its record, transcript and owner files: it was last used when the newest was written.
    const threads = new Map<string, { files: string[]; updatedAt: number }>();
    for (const name of names) {
      const path = join(directory, name);
      const stats = await stat(path).catch(() => undefined);
      // The owners' index directory, or a file gone meanwhile.
      if (stats === undefined || !stats.isFile()) continue;
      if (name.endsWith(TEMPORARY_SUFFIX)) {
        if (now - stats.mtimeMs > orphanAgeMs) await removeFile(path);
        continue;
      }
      const record = recordPathOfFile(path);
      const thread = threads.get(record);
      if (thread === undefined) threads.set(record, { files: [path], updatedAt: stats.mtimeMs });
      else {
        thread.files.push(path);
        thread.updatedAt = Math.max(thread.updatedAt, stats.mtimeMs);
      }
    }
    const removeThread = async (record: string, files: string[]): Promise<void> => {
      this.#text.forget(record);
      await Promise.all([this.#slots.forget(record), this.#slots.forget(transcriptPathOf(record))]);
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
      path = join(this.#root, names.agent, `${names.thread}${RECORD_SUFFIX}`);
      this.#paths.set(names, path);
    }
    return path;
  }
}

/** The record path (`<thread>.json`) a file of a thread belongs to: its record's slots, its transcript's, its owner. */
export function recordPathOfFile(path: string): string {
  const base = path.endsWith(SECOND_SLOT_SUFFIX) ? path.slice(0, -SECOND_SLOT_SUFFIX.length) : path;
  if (base.endsWith(TRANSCRIPT_SUFFIX)) return `${base.slice(0, -TRANSCRIPT_SUFFIX.length)}${RECORD_SUFFIX}`;
  if (base.endsWith(OWNER_FILE_SUFFIX)) return `${base.slice(0, -OWNER_FILE_SUFFIX.length)}${RECORD_SUFFIX}`;
  return base;
}

function transcriptPathOf(recordPath: string): string {
  return `${recordPath.slice(0, -RECORD_SUFFIX.length)}${TRANSCRIPT_SUFFIX}`;
}

function ownerPathOf(recordPath: string): string {
  return `${recordPath.slice(0, -RECORD_SUFFIX.length)}${OWNER_FILE_SUFFIX}`;
}

