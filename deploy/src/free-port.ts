import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for the processes that cannot be told to
 * pick one themselves (Redis, HAProxy). Replicas pick their own (PORT=0).
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
