/**
 * The one method the Redis stores (the agent's thread store, the Express binding's ownership store)
 * need from a client: send a command, get its reply. A connected `redis` (node-redis) client is one
 * as it is; for `ioredis`, pass `{ sendCommand: ([command, ...args]) => client.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  /** Sends one command (`["HGET", key, field]`) and resolves with Redis's reply, or rejects when Redis cannot be reached. */
  sendCommand(args: string[]): Promise<unknown>;
}
