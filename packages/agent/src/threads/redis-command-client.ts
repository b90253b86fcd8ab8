/**
 * The one method the Redis stores need from a client: send a command, get its reply. A connected
 * `redis` (node-redis) client is one as it is; for `ioredis`, pass
 * `{ sendCommand: ([command, ...args]) => client.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}
