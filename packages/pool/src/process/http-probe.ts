import { request } from "node:http";

/**
 * Resolves when something answers HTTP on `localhost:port`, whatever the status: a harness whose
 * event loop is wedged accepts the TCP connection (the kernel does that) but never answers, which is
 * what this tells apart. Rejects on a refused connection, an abort, or a closed socket.
 */
export function probeHttp(port: number, options: { signal: AbortSignal; host?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = request({
      host: options.host ?? "localhost",
      port,
      path: "/",
      method: "GET",
      headers: { connection: "close" },
      signal: options.signal,
      agent: false,
    });
    probe.once("response", (response) => {
      response.resume();
      response.once("end", () => resolve());
      response.once("error", () => resolve());
    });
    probe.once("error", (error) => reject(options.signal.aborted ? options.signal.reason : error));
    probe.end();
  });
}
