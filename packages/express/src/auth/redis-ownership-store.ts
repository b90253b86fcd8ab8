import { Lifetime, sendRedisCommand, type RedisCommandClient } from "@ag-ui-antigravity/foundation";
import { ownershipDigest } from "./ownership-digest.js";
import { DEFAULT_OWNERSHIP_TTL_MS, type OwnershipKey, type ThreadClaim, type ThreadOwnershipStats, type ThreadOwnershipStore, ownershipStoreClosed } from "./thread-ownership-store.js";

/**
 * The Redis client a `RedisOwnershipStore` writes through, its key prefix, and how long an owner is
 * kept.
 */
export interface RedisOwnershipStoreOptions {
  /** A connected client (create it with `disableOfflineQueue: true`). The store never connects or quits it. */
  client: RedisCommandClient;
  /** Prefix of every key. Default `ag-ui`. */
  keyPrefix?: string;
  /** An owned thread without a run of its owner for this long is forgotten (the key's TTL). Default 30 days. */
  ttlMs?: number;
  /** A command not answered within this time fails (and the run is refused). Default 2 s. */
  commandTimeoutMs?: number;
}

// Claim, confirm (refreshing the TTL) or refuse, in one atomic step.
const claimScript = `
local owner = redis.call('GET', KEYS[1])
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 'claimed'
end
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 'owned'
end
return 'refused'
`;
const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Ownership in Redis, shared by replicas: one key per (agent, thread) holding the owner id, with a TTL. */
export class RedisOwnershipStore implements ThreadOwnershipStore {
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #commandTimeoutMs: number;
  readonly #lifetime = new Lifetime();
  /** Aborted when `close()` starts. */
  readonly signal = this.#lifetime.signal;
  /** Resolves when `close()` has finished. */
  readonly closed = this.#lifetime.closed;

  constructor(options: RedisOwnershipStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.keyPrefix ?? "ag-ui";
    this.#ttlMs = options.ttlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
  }

  /** One atomic script; never `full`. `owned` resets the key's TTL. Rejects when Redis errs or does not answer in `commandTimeoutMs`. */
  async claim(key: OwnershipKey, ownerId: string): Promise<ThreadClaim> {
    const reply = await this.#send(["EVAL", claimScript, "1", this.#keyOf(key), ownerId, String(this.#ttlMs)]);
    if (reply === "claimed" || reply === "owned" || reply === "refused") return reply;
    throw new Error(`unexpected reply to a thread claim: ${String(reply)}`);
  }

  /** Deletes the key atomically if `ownerId` still owns it; another owner's key is left alone. */
  async release(key: OwnershipKey, ownerId: string): Promise<void> {
    await this.#send(["EVAL", releaseScript, "1", this.#keyOf(key), ownerId]);
  }

  /** The owner the key holds, or undefined when it is absent (never claimed, or its TTL ran out). Does not refresh the TTL. */
  async ownerOf(key: OwnershipKey): Promise<string | undefined> {
    const owner = await this.#send(["GET", this.#keyOf(key)]);
    return typeof owner === "string" ? owner : undefined;
  }

  /** `kind: "redis"` and no `owners` (counting would scan the keyspace); `refusedFull` is always 0. */
  stats(): ThreadOwnershipStats {
    return { kind: "redis", refusedFull: 0 };
  }

  /** Nothing to stop: the client is the caller's to quit; idempotent. */
  close(): Promise<void> {
    return this.#lifetime.close(ownershipStoreClosed);
  }

  #keyOf(key: OwnershipKey): string {
    const digest = ownershipDigest(key.agentId, key.threadId);
    return `${this.#prefix}:owner:${digest.agent}:${digest.thread}`;
  }

  #send(args: string[]): Promise<unknown> {
    return sendRedisCommand(this.#client, args, this.#commandTimeoutMs);
  }
}
