import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface EphemeralServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly server: Server;
  /** Stops listening and destroys every open connection (streams included), then resolves. */
  close(): Promise<void>;
}

/**
 * Serves `listener` (an Express app is one) on 127.0.0.1 at a port the OS picks, so parallel test
 * files never collide. Always `close()` it in `afterEach`/`finally`.
 */
export async function listenOnEphemeralPort(listener: RequestListener): Promise<EphemeralServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // Open streams would keep close() waiting forever; a test server owes them nothing.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
