import type { RedisCommandClient } from "@ag-ui-antigravity/core";

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
