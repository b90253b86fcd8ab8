import WebSocket from "ws";
import { HarnessError } from "../errors/harness-error.js";
import { abortReason, type Logger, silentLogger, sleep, throwIfAborted } from "@ag-ui-antigravity/foundation";

export interface ConnectWebSocketOptions {
  port: number;
  harnessToken: string;
  logger: Logger;
  signal?: AbortSignal | undefined;
  stderrTail: () => string[];
  /** Attempts, each trying localhost then 127.0.0.1 (default 5). */
  attempts?: number;
  /** Backoff before attempt n+1 is `baseDelayMs * 2^n` (default 100 ms). */
  baseDelayMs?: number;
  /** Bound on one connection attempt (default 5 s). */
  attemptTimeoutMs?: number;
  /** Largest inbound message (default 256 MiB: large tool outputs are legitimate, unbounded is not). */
  maxPayloadBytes?: number;
}

export const DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
const HOSTS = ["localhost", "127.0.0.1"] as const;

function openOnce(url: string, options: ConnectWebSocketOptions): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      headers: { "x-goog-api-key": options.harnessToken },
      maxPayload: options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
      perMessageDeflate: false,
      handshakeTimeout: options.attemptTimeoutMs ?? 5_000,
    });
    const cleanup = (): void => {
      socket.off("open", onOpen);
      socket.off("error", onError);
      socket.off("unexpected-response", onUnexpectedResponse);
      options.signal?.removeEventListener("abort", onAbort);
    };
    // Terminating a socket that is still connecting emits one more 'error'; it is expected, not a crash.
    const abandon = (): void => {
      socket.on("error", () => undefined);
      socket.terminate();
    };
    const onOpen = (): void => {
      cleanup();
      resolve(socket);
    };
    const onError = (error: Error): void => {
      cleanup();
      abandon();
      reject(error);
    };
    const onUnexpectedResponse = (_request: unknown, response: { statusCode?: number }): void => {
      cleanup();
      abandon();
      reject(new Error(`WebSocket upgrade refused with HTTP ${String(response.statusCode)}`));
    };
    const onAbort = (): void => {
      cleanup();
      abandon();
      reject(abortReason(options.signal as AbortSignal));
    };
    socket.on("open", onOpen);
    socket.on("error", onError);
    socket.on("unexpected-response", onUnexpectedResponse);
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Connects to the harness's WebSocket with its per-process token. The harness may write its
 * OutputConfig before it listens, so failures are retried with backoff; `localhost` can resolve
 * to an address the harness did not bind, so each attempt also tries 127.0.0.1.
 */
export async function connectHarnessWebSocket(options: ConnectWebSocketOptions): Promise<WebSocket> {
  const attempts = options.attempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const failures: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    for (const host of HOSTS) {
      throwIfAborted(options.signal);
      try {
        return await openOnce(`ws://${host}:${options.port}/`, options);
      } catch (error) {
        if (options.signal?.aborted) throw abortReason(options.signal);
        failures.push(`${host}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    options.logger.debug({ attempt: attempt + 1, port: options.port }, "harness WebSocket not reachable yet; retrying");
    if (attempt < attempts - 1) await sleep(baseDelayMs * 2 ** attempt, options.signal);
  }
  const tail = options.stderrTail();
  throw new HarnessError("CONNECTION_CLOSED", `could not connect to the harness WebSocket on port ${options.port} after ${attempts} attempts (${failures.slice(-2).join("; ")})`, {
    stderrTail: tail,
  });
}

/**
 * Proves the harness is alive by the one exchange its protocol promises: a WebSocket upgrade with
 * the process token, closed (1000) as soon as it opens, before any config. Nothing else about the
 * port (a plain HTTP answer, a status code) is promised (docs/protocol.md, "Assumptions and how we hedge them").
 * One attempt per host, no retries: the caller bounds it with `signal`.
 */
export async function probeHarnessWebSocket(options: Omit<ConnectWebSocketOptions, "attempts" | "baseDelayMs" | "logger" | "stderrTail">): Promise<void> {
  const failures: string[] = [];
  for (const host of HOSTS) {
    throwIfAborted(options.signal);
    let socket: WebSocket;
    try {
      socket = await openOnce(`ws://${host}:${options.port}/`, { ...options, logger: silentLogger, stderrTail: () => [] });
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      failures.push(`${host}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    socket.on("error", () => undefined);
    // A peer that never answers the close is dropped after a moment; the probe itself has succeeded.
    const dropLater = setTimeout(() => socket.terminate(), 1_000);
    socket.once("close", () => clearTimeout(dropLater));
    socket.close(1000, "liveness probe");
    return;
  }
  throw new HarnessError("CONNECTION_CLOSED", `the harness WebSocket on port ${options.port} did not accept an upgrade (${failures.join("; ")})`);
}
