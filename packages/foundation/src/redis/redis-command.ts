/**
 * The one method the Redis stores (the agent's thread store, the Express binding's ownership store)
 * need from a client: send a command, get its reply. A connected `redis` (node-redis) client is one
 * as it is; for `ioredis`, pass `{ sendCommand: ([command, ...args]) => client.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  /** Sends one command (`["HGET", key, field]`) and resolves with Redis's reply, or rejects when Redis cannot be reached. */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Sends one command and rejects when no reply came within `timeoutMs`: a client created with
 * `disableOfflineQueue` fails at once while Redis is away, but a connection that hangs would
 * otherwise hold the caller (a run, a write) forever.
 */
export async function sendRedisCommand(client: RedisCommandClient, args: string[], timeoutMs: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0] ?? ""} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([client.sendCommand(args), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
