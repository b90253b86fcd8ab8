import { ownershipDigest } from "./ownership-digest.js";
import { DEFAULT_OWNERSHIP_TTL_MS, type OwnershipKey, type ThreadClaim, type ThreadOwnershipStats, type ThreadOwnershipStore } from "./thread-ownership-store.js";

/**
 * The one method the store needs from a Redis client. A connected `redis` (node-redis) client is one
 * as it is; for `ioredis`, pass `{ sendCommand: ([command, ...args]) => client.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

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

  constructor(options: RedisOwnershipStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.keyPrefix ?? "ag-ui";
    this.#ttlMs = options.ttlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
  }

  async claim(key: OwnershipKey, ownerId: string): Promise<ThreadClaim> {
    const reply = await this.#send(["EVAL", claimScript, "1", this.#keyOf(key), ownerId, String(this.#ttlMs)]);
    if (reply === "claimed" || reply === "owned" || reply === "refused") return reply;
    throw new Error(`unexpected reply to a thread claim: ${String(reply)}`);
  }

  async release(key: OwnershipKey, ownerId: string): Promise<void> {
    await this.#send(["EVAL", releaseScript, "1", this.#keyOf(key), ownerId]);
  }

  async ownerOf(key: OwnershipKey): Promise<string | undefined> {
    const owner = await this.#send(["GET", this.#keyOf(key)]);
    return typeof owner === "string" ? owner : undefined;
  }

  stats(): ThreadOwnershipStats {
    return { kind: "redis", refusedFull: 0 };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #keyOf(key: OwnershipKey): string {
    const digest = ownershipDigest(key.agentId, key.threadId);
    return `${this.#prefix}:owner:${digest.agent}:${digest.thread}`;
  }

  async #send(args: string[]): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0] ?? ""} within ${this.#commandTimeoutMs} ms`)), this.#commandTimeoutMs);
    });
    try {
      return await Promise.race([this.#client.sendCommand(args), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
