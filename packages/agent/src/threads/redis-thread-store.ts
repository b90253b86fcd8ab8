import { randomUUID } from "node:crypto";
import { Lifetime, sendRedisCommand, type RedisCommandClient } from "@ag-ui-antigravity/foundation";
import { RetryingWriter } from "./retrying-writer.js";
import { type StoredThread, ThreadRecordPolicy } from "./stored-thread.js";
import { threadNames } from "./thread-digest.js";
import { type LeaseOutcome, type ThreadKey, type ThreadLeases, type ThreadRecord, type ThreadRecordInput, type ThreadStore, type ThreadStoreCommonOptions, type ThreadStoreLogger, type ThreadStoreStats, threadStoreClosed } from "./thread-store.js";

export interface RedisThreadStoreOptions extends ThreadStoreCommonOptions {
  /** A connected client (see `RedisCommandClient`). The store never connects or quits it. */
  client: RedisCommandClient;
  /** Prefix of every key. Default `ag-ui`. */
  keyPrefix?: string;
  /**
   * This replica's id; turns on per-thread leases and this replica's heartbeat. Default: a random
   * id. Leases are only used when the agent is told to (see the agent's `replicaId` option).
   */
  replicaId?: string;
  /** A replica that has not sent a heartbeat for this long is dead and its leases void. Default 5 s (a heartbeat every third of it). */
  replicaTtlMs?: number;
  /**
   * A command not answered within this time fails (a write is then retried with the next change).
   * Default 2 s. Create the client with `disableOfflineQueue: true` too, so commands fail at once
   * while Redis is away instead of queueing.
   */
  commandTimeoutMs?: number;
}

// The lease is taken unless a *live* other replica holds it: the holder's heartbeat key must exist.
const acquireLeaseScript = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. holder) == 1 then
  return {0, holder}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if holder and holder ~= ARGV[1] then return {1, holder} end
return {1, ''}
`;
const releaseLeaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const leaseHolderScript = `
local holder = redis.call('GET', KEYS[1])
if holder and redis.call('EXISTS', ARGV[1] .. holder) == 1 then return holder end
return false
`;

/**
 * The thread map in Redis, shared by replicas: one key per (agent, thread) holding the record as
 * JSON, with the thread's time to live as the key's TTL. Writes that fail (Redis away) are kept and
 * retried with the next change, like the file store's. With `leases`, each thread also has a lease
 * naming the replica that holds its live session.
 */
export class RedisThreadStore implements ThreadStore {
  readonly leases: ThreadLeases;
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #policy: ThreadRecordPolicy;
  readonly #logger: ThreadStoreLogger;
  readonly #writer: RetryingWriter<StoredThread>;
  readonly #replicaId: string;
  readonly #replicaTtlMs: number;
  readonly #commandTimeoutMs: number;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #commands = 0;
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
    this.#replicaTtlMs = options.replicaTtlMs ?? 5_000;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
    this.#writer = new RetryingWriter<StoredThread>({
      write: async (redisKey, change) => {
        if (change === null) await this.#send(["DEL", redisKey]);
        else await this.#send(["SET", redisKey, JSON.stringify(change), "PX", String(this.#policy.ttlMs)]);
      },
      onFailure: (error) =>
        this.#logger.warn?.({ error, pendingWrites: this.#writer.pending }, "the thread map could not be written to Redis; retrying with the next change"),
    });
    this.leases = {
      replicaId: this.#replicaId,
      acquire: (key) => this.#acquireLease(key),
      release: (key) => this.#releaseLease(key),
      holder: (key) => this.#leaseHolder(key),
    };
  }

  /** Commands sent so far (for the "Redis round trips per run" figure). */
  get commandsSent(): number {
    return this.#commands;
  }

  async get(key: ThreadKey): Promise<ThreadRecord | undefined> {
    const redisKey = this.#threadKey(key);
    const pending = this.#writer.peek(redisKey);
    if (pending !== undefined) return pending === null ? undefined : this.#policy.read(JSON.stringify(pending), key);
    const text = await this.#send(["GET", redisKey]);
    return typeof text === "string" ? this.#policy.read(text, key) : undefined;
  }

  async set(key: ThreadKey, record: ThreadRecordInput): Promise<void> {
    await this.#writer.submit(this.#threadKey(key), this.#policy.stored(key, record));
  }

  async delete(key: ThreadKey): Promise<void> {
    await this.#writer.submit(this.#threadKey(key), null);
  }

  /** One PING, within the command deadline; rejects when Redis does not answer it. */
  async ping(): Promise<void> {
    await this.#send(["PING"]);
  }

  stats(): ThreadStoreStats {
    return { kind: "redis", writeFailures: this.#writer.failures, pendingWrites: this.#writer.pending, droppedWrites: this.#writer.dropped, commands: this.#commands };
  }

  /** Sends this replica's heartbeat now and keeps sending it until `close()`; leases need it. Idempotent. */
  async startHeartbeat(): Promise<void> {
    if (this.#heartbeat !== undefined || this.#lifetime.isClosing) return;
    const beat = (): Promise<unknown> => this.#send(["SET", this.#replicaKey(this.#replicaId), String(this.#policy.now()), "PX", String(this.#replicaTtlMs)]);
    this.#heartbeat = setInterval(() => {
      beat().catch((error: unknown) => this.#logger.warn?.({ error }, "the replica heartbeat could not be sent to Redis"));
    }, Math.max(100, Math.floor(this.#replicaTtlMs / 3)));
    this.#heartbeat.unref();
    await beat();
  }

  /** A last write attempt; stops the heartbeat and removes it, so this replica's leases are void at once. Idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(threadStoreClosed, async () => {
      await this.#writer.flush();
      if (this.#heartbeat !== undefined) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
        await this.#send(["DEL", this.#replicaKey(this.#replicaId)]).catch(() => undefined);
      }
    });
  }

  async #acquireLease(key: ThreadKey): Promise<LeaseOutcome> {
    await this.startHeartbeat();
    const reply = await this.#send(["EVAL", acquireLeaseScript, "1", this.#leaseKey(key), this.#replicaId, String(this.#policy.ttlMs), this.#replicaKey("")]);
    const [acquired, holder] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (acquired === 1) return typeof holder === "string" && holder.length > 0 ? { acquired: true, previousHolder: holder } : { acquired: true };
    return { acquired: false, holder: String(holder) };
  }

  async #releaseLease(key: ThreadKey): Promise<void> {
    try {
      await this.#send(["EVAL", releaseLeaseScript, "1", this.#leaseKey(key), this.#replicaId]);
    } catch (error) {
      this.#logger.warn?.({ error }, "a thread lease could not be released in Redis; it lapses with this replica's heartbeat");
    }
  }

  async #leaseHolder(key: ThreadKey): Promise<string | undefined> {
    const holder = await this.#send(["EVAL", leaseHolderScript, "1", this.#leaseKey(key), this.#replicaKey("")]);
    return typeof holder === "string" ? holder : undefined;
  }

  #send(args: string[]): Promise<unknown> {
    this.#commands += 1;
    return sendRedisCommand(this.#client, args, this.#commandTimeoutMs);
  }

  #threadKey(key: ThreadKey): string {
    return this.#keyOf("thread", key);
  }

  #leaseKey(key: ThreadKey): string {
    return this.#keyOf("lease", key);
  }

  #keyOf(kind: "thread" | "lease", key: ThreadKey): string {
    const names = threadNames(key);
    return `${this.#prefix}:${kind}:${names.agent}:${names.thread}`;
  }

  #replicaKey(replicaId: string): string {
    return `${this.#prefix}:replica:${replicaId}`;
  }
}
