import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod/v4";

/** What a thread needs to continue after its live session is gone (swept, evicted, server restarted). */
export interface ThreadRecord {
  conversationId: string;
  /** User messages already forwarded to the conversation, so a cold resume does not send them again. */
  forwarded: Array<{ id: string; text: string }>;
  /** The tool contract the conversation was built with. */
  toolSignature: string;
  updatedAt: number;
}

const storedThreadsSchema = z.object({
  version: z.literal(1),
  threads: z.record(
    z.string(),
    z.object({
      conversationId: z.string(),
      forwarded: z.array(z.object({ id: z.string(), text: z.string() })),
      toolSignature: z.string(),
      updatedAt: z.number(),
    }),
  ),
});

export interface ThreadStoreOptions {
  /** Directory the map is persisted in (the agent's save dir). Without it the map lives in memory only. */
  directory?: string;
  /** Threads remembered at most; the least recently updated are forgotten first. Default 10 000. */
  maxThreads?: number;
  /** A thread not updated for this long is forgotten. Default 30 days. */
  ttlMs?: number;
  /** Forwarded message ids kept per thread (the newest). Default 500. */
  maxForwardedPerThread?: number;
  now?: () => number;
}

/**
 * The thread → conversation map. Bounded (LRU + TTL) so 10 000 throw-away threads cannot grow it
 * without limit, and persisted (atomically, write-then-rename) so a restarted server resumes its
 * threads from the harness's save dir.
 */
export class ThreadStore {
  readonly #records = new Map<string, ThreadRecord>();
  readonly #options: Required<Omit<ThreadStoreOptions, "directory">> & { directory?: string };
  #loaded: Promise<void> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(options: ThreadStoreOptions = {}) {
    this.#options = {
      maxThreads: options.maxThreads ?? 10_000,
      ttlMs: options.ttlMs ?? 30 * 24 * 60 * 60_000,
      maxForwardedPerThread: options.maxForwardedPerThread ?? 500,
      now: options.now ?? Date.now,
      ...(options.directory === undefined ? {} : { directory: options.directory }),
    };
  }

  get size(): number {
    return this.#records.size;
  }

  async get(threadId: string): Promise<ThreadRecord | undefined> {
    await this.#load();
    const record = this.#records.get(threadId);
    if (record === undefined) return undefined;
    if (this.#options.now() - record.updatedAt > this.#options.ttlMs) {
      this.#records.delete(threadId);
      return undefined;
    }
    return record;
  }

  async set(threadId: string, record: Omit<ThreadRecord, "updatedAt">): Promise<void> {
    await this.#load();
    this.#records.delete(threadId);
    this.#records.set(threadId, {
      ...record,
      forwarded: record.forwarded.slice(-this.#options.maxForwardedPerThread),
      updatedAt: this.#options.now(),
    });
    while (this.#records.size > this.#options.maxThreads) {
      const oldest = this.#records.keys().next().value;
      if (oldest === undefined) break;
      this.#records.delete(oldest);
    }
    await this.#persist();
  }

  async delete(threadId: string): Promise<void> {
    await this.#load();
    if (this.#records.delete(threadId)) await this.#persist();
  }

  #path(): string | undefined {
    return this.#options.directory === undefined ? undefined : join(this.#options.directory, "ag-ui-threads.json");
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const path = this.#path();
      if (path === undefined) return;
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        return;
      }
      try {
        const stored = storedThreadsSchema.parse(JSON.parse(text));
        const entries = Object.entries(stored.threads).sort(([, left], [, right]) => left.updatedAt - right.updatedAt);
        for (const [threadId, record] of entries) this.#records.set(threadId, record);
      } catch {
        // A corrupt map only costs cold resumes; the conversations themselves are intact.
      }
    })();
    return this.#loaded;
  }

  /** Writes are serialised and coalesced: a burst of updates costs at most two writes. */
  #persist(): Promise<void> {
    const path = this.#path();
    if (path === undefined) return Promise.resolve();
    if (this.#dirty) return this.#writing;
    this.#dirty = true;
    this.#writing = this.#writing.then(async () => {
      this.#dirty = false;
      const stored = { version: 1 as const, threads: Object.fromEntries(this.#records) };
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(stored));
      await rename(temporary, path);
    });
    return this.#writing;
  }
}
