import { createHash, randomUUID } from "node:crypto";
import { Lifetime, sendRedisCommand, type RedisCommandClient, type ThreadClaim } from "@ag-ui-antigravity/foundation";
import { RedisLeases } from "./redis-leases.js";
import { CLAIM_SCRIPT, LIST_SCRIPT, RELEASE_CLAIM_SCRIPT, WRITE_FIELD_SCRIPT } from "./redis-scripts.js";
import { RetryingWriter } from "./retrying-writer.js";
import { ThreadRecordPolicy } from "./record-policy.js";
import { threadNames } from "./thread-digest.js";
import {
  type LeaseToken,
  type StoredTranscript,
  type ThreadKey,
  type ThreadLeases,
  type ThreadListing,
  type ThreadRecord,
  type ThreadRecordInput,
  type ThreadStore,
  type ThreadStoreCommonOptions,
  type ThreadStoreLogger,
  type ThreadStoreStats,
  threadStoreClosed,
} from "./thread-store.js";

/**
 * The Redis client a `RedisThreadStore` writes through, its key prefix, and how it bounds and expires
 * threads.
 */
export interface RedisThreadStoreOptions extends ThreadStoreCommonOptions {
  /** A connected client (see `RedisCommandClient`). The store never connects or quits it. */
  client: RedisCommandClient;
  /** Prefix of every key. Default `ag-ui`. */
  keyPrefix?: string;
  /** This replica's id in the threads' leases (sent with its heartbeat). Default: a random id. */
  replicaId?: string;
  /** A replica that has not sent a heartbeat for this long is gone and its leases void. Default 5 s (a heartbeat every third of it). */
  replicaTtlMs?: number;
  /**
   * A command not answered within this time fails (a write is then retried with the next change).
   * Default 2 s. Create the client with `disableOfflineQueue: true` too, so commands fail at once
   * while Redis is away instead of queueing.
   */
  commandTimeoutMs?: number;
  /** Threads one owner's thread list keeps (the most recently active). Default 1 000. */
  maxListedThreadsPerOwner?: number;
}

/** One pending write: a field of a thread's record hash, and the lease it is fenced by. */
interface FieldWrite {
  readonly key: ThreadKey;
  readonly field: "record" | "transcript";
  readonly value: string;
  readonly lease: LeaseToken | undefined;
  readonly updatedAt: number;
}

/**
 * The thread records in Redis, shared by replicas: one hash per (agent, thread) holding the record,
 * the transcript, the owner and the lease (redis-scripts.ts), with the thread's time to live as the
 * key's TTL, so all of it expires together. Writes that fail (Redis away) are kept and retried with
 * the next change, like the file store's; a write fenced by a lease another replica took is refused
 * for good, and the lease's listeners hear of it. Leases, heartbeat and takeover: redis-leases.ts.
 */
export class RedisThreadStore implements ThreadStore {
  /** True: the transcript lives in the thread's hash, so a `connect` on any replica gets its chat back. */
  readonly keepsTranscripts = true;
  /** The threads' leases in this store's Redis: which replica holds a thread's live session; they need `startHeartbeat()`. */
  readonly leases: ThreadLeases;
  readonly #leases: RedisLeases;
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #policy: ThreadRecordPolicy;
  readonly #logger: ThreadStoreLogger;
  readonly #writer: RetryingWriter<FieldWrite>;
  readonly #replicaId: string;
  readonly #commandTimeoutMs: number;
  readonly #maxListed: number;
  #commands = 0;
  #staleWrites = 0;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished: pending writes attempted, the heartbeat stopped and removed. */
  readonly closed = this.#lifetime.closed;

  constructor(options: RedisThreadStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.keyPrefix ?? "ag-ui";
    this.#policy = new ThreadRecordPolicy(options);
    this.#logger = options.logger ?? {};
    this.#replicaId = options.replicaId ?? randomUUID();
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
    this.#maxListed = options.maxListedThreadsPerOwner ?? 1_000;
    this.#leases = new RedisLeases({
      replicaId: this.#replicaId,
      replicaTtlMs: options.replicaTtlMs ?? 5_000,
      threadTtlMs: this.#policy.ttlMs,
      send: (args) => this.#send(args),
      recordKey: (key) => this.#recordKey(key),
      replicaKey: (replicaId) => `${this.#prefix}:replica:${replicaId}`,
      isClosing: () => this.#lifetime.isClosing,
      now: this.#policy.now,
      logger: this.#logger,
    });
    this.leases = this.#leases;
    this.#writer = new RetryingWriter<FieldWrite>({
      write: async (name, change) => {
        if (change === null) {
          await this.#send(["DEL", name.slice(0, name.lastIndexOf("#"))]);
          return;
        }
        const names = threadNames(change.key);
        const written = await this.#send([
          "EVAL",
          WRITE_FIELD_SCRIPT,
          "1",
          this.#recordKey(change.key),
          change.field,
          change.value,
          String(this.#policy.ttlMs),
          change.lease === undefined ? "" : String(change.lease.fence),
          this.#replicaId,
          this.#ownerListPrefix(names.agent),
          names.thread,
          String(change.updatedAt),
        ]);
        if (written === 0 && change.lease !== undefined) {
          // Another replica took the thread: this write is stale for good, not to be retried.
          this.#staleWrites += 1;
          this.#leases.lost(change.key, change.lease);
        }
      },
      onFailure: (error) =>
        this.#logger.warn?.({ error, pendingWrites: this.#writer.pending }, "the thread map could not be written to Redis; retrying with the next change"),
    });
  }

  /** Commands sent so far (for the "Redis round trips per run" figure). */
  get commandsSent(): number {
    return this.#commands;
  }

  /**
   * One HMGET of the record and the owner (a change not written yet answers first); undefined when
   * the thread has neither (never written, expired with its key's TTL, deleted). Rejects when Redis
   * does not answer within `commandTimeoutMs`.
   */
  async get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    // A change not written yet (Redis away) is newer than what Redis holds, and answers without it.
    const pending = this.#writer.peek(this.#writeName(key, "record"));
    if (pending !== undefined && pending !== null) return this.#policy.read(pending.value, key);
    const [text, owner] = (await this.#send(["HMGET", this.#recordKey(key), "record", "owner"])) as [unknown, unknown];
    const record = typeof text === "string" ? this.#policy.read(text, key) : undefined;
    if (typeof owner !== "string") return record;
    const now = this.#policy.now();
    return { ...(record ?? { forwarded: [], toolSignature: "", createdAt: now, updatedAt: now }), owner };
  }

  /**
   * Writes the record field and renews the thread's TTL in one script. With `lease`, only while that
   * lease is still the thread's: a write fenced off by another replica is dropped for good and the
   * leases' `onLost` listeners hear of it. A failed write is kept and retried with the next change.
   */
  async set(key: ThreadKey, record: ThreadRecordInput, options: { lease?: LeaseToken } = {}): Promise<void> {
    const stored = this.#policy.stored(key, record);
    await this.#writer.submit(this.#writeName(key, "record"), { key, field: "record", value: JSON.stringify(stored), lease: options.lease, updatedAt: stored.updatedAt });
  }

  /** One HGET of the transcript field (a change not written yet answers first); undefined when none was kept. */
  async getTranscript(key: ThreadKey): Promise<StoredTranscript | undefined> {
    const text = this.#writer.peek(this.#writeName(key, "transcript"))?.value ?? (await this.#send(["HGET", this.#recordKey(key), "transcript"]));
    return typeof text === "string" ? this.#policy.readTranscript(text, key) : undefined;
  }

  /** Writes the transcript field, cut to `maxTranscriptBytes`, fenced by `lease` and retried like `set`. */
  async setTranscript(key: ThreadKey, transcript: StoredTranscript, options: { lease?: LeaseToken } = {}): Promise<void> {
    const value = this.#policy.storedTranscriptText(key, this.#policy.boundedTranscript(transcript));
    await this.#writer.submit(this.#writeName(key, "transcript"), { key, field: "transcript", value, lease: options.lease, updatedAt: this.#policy.now() });
  }

  /**
   * One script, atomic across replicas: sets the owner when there is none, renews the thread's TTL and
   * puts the thread first in the owner's list (kept to `maxListedThreadsPerOwner`). Never `full`.
   */
  async claim(key: ThreadKey, owner: string): Promise<ThreadClaim> {
    const names = threadNames(key);
    const reply = await this.#send(["EVAL", CLAIM_SCRIPT, "1", this.#recordKey(key), owner, String(this.#policy.ttlMs), this.#ownerListPrefix(names.agent), names.thread, String(this.#policy.now()), String(this.#maxListed)]);
    if (reply === "claimed" || reply === "owned" || reply === "refused") return reply;
    throw new Error(`unexpected reply to a thread claim: ${String(reply)}`);
  }

  /** One script: removes the owner (and the thread from the owner's list) when it is `owner` and the thread has no record yet. */
  async releaseClaim(key: ThreadKey, owner: string): Promise<void> {
    const names = threadNames(key);
    await this.#send(["EVAL", RELEASE_CLAIM_SCRIPT, "2", this.#recordKey(key), this.#ownerList(names.agent, owner), owner, names.thread]);
  }

  /** One script over `owner`'s list on agent `agentId`: the threads still theirs that have a record and a listable id, the most recently active first, at most `limit`. */
  async listByOwner(agentId: string, owner: string, options: { limit: number }): Promise<ThreadListing[]> {
    const agent = threadNames({ agentId, threadId: "" }).agent;
    const reply = await this.#send(["EVAL", LIST_SCRIPT, "1", this.#ownerList(agent, owner), String(options.limit), `${this.#prefix}:record:${agent}:`]);
    const found = Array.isArray(reply) ? (reply as unknown[]) : [];
    const listings: ThreadListing[] = [];
    for (let index = 0; index + 2 < found.length; index += 3) {
      const [thread, text, recordOwner] = [found[index], found[index + 1], found[index + 2]];
      if (typeof thread !== "string" || typeof text !== "string" || recordOwner !== owner) continue;
      const record = this.#policy.readAs(text, agentId, thread);
      const threadId = record?.summary?.threadId;
      if (record === undefined || threadId === undefined) continue;
      listings.push({ threadId, lastActivityAt: record.updatedAt, ...(record.summary?.firstUserMessage === undefined ? {} : { firstUserMessage: record.summary.firstUserMessage }) });
    }
    return listings;
  }

  /** Deletes the thread's hash: record, transcript, owner and lease at once (retried like `set`). */
  async delete(key: ThreadKey): Promise<void> {
    await this.#writer.submit(`${this.#recordKey(key)}#delete`, null);
  }

  /** One PING, within the command deadline; rejects when Redis does not answer it. */
  async ping(): Promise<void> {
    await this.#send(["PING"]);
  }

  /** Kind `redis`, the writes that failed, wait, were dropped or were refused as stale, and the commands sent; no thread count (it would take a scan). */
  stats(): ThreadStoreStats {
    return {
      kind: "redis",
      writeFailures: this.#writer.failures,
      pendingWrites: this.#writer.pending,
      droppedWrites: this.#writer.dropped,
      staleWritesRefused: this.#staleWrites,
      commands: this.#commands,
    };
  }

  /** Sends this replica's heartbeat now and keeps sending it until `close()`; leases need it. Idempotent. */
  startHeartbeat(): Promise<void> {
    return this.#leases.startHeartbeat();
  }

  /** A last write attempt; stops the heartbeat and removes it, so this replica's leases are void at once. Idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(threadStoreClosed, async () => {
      await this.#writer.flush();
      await this.#leases.stop();
    });
  }

  #send(args: string[]): Promise<unknown> {
    this.#commands += 1;
    return sendRedisCommand(this.#client, args, this.#commandTimeoutMs);
  }

  #recordKey(key: ThreadKey): string {
    const names = threadNames(key);
    return `${this.#prefix}:record:${names.agent}:${names.thread}`;
  }

  /** The writer's name for one field's pending change: the field's writes go in order, apart from the other field's. */
  #writeName(key: ThreadKey, field: FieldWrite["field"]): string {
    return `${this.#recordKey(key)}#${field}`;
  }

  #ownerListPrefix(agent: string): string {
    return `${this.#prefix}:owner-threads:${agent}:`;
  }

  #ownerList(agent: string, owner: string): string {
    return `${this.#ownerListPrefix(agent)}${sha1Hex(owner)}`;
  }
}

function sha1Hex(text: string): string {
  // The scripts name an owner's list by redis.sha1hex(owner): the same digest here.
  return createHash("sha1").update(text).digest("hex");
}
