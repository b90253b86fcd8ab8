import { Readable, Writable } from "node:stream";
import { Lifetime, type Logger, shieldLogger } from "@ag-ui-antigravity/foundation";
import type { HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createAcpAgent } from "./acp/acp-agent.js";
import { validateAcpServerSettings, type AcpServerSettings } from "./server-settings.js";
import { AcpServerError } from "./sessions/acp-server-error.js";
import { SessionRegistry } from "./sessions/session-registry.js";

/** How to run an ACP server. */
export interface ServeAcpOptions {
  /** What every session is configured with (validated: a TypeError names each field at fault). */
  settings: AcpServerSettings;
  /** The harness executable: the real `localharness`, or the emulator's (`emulatorBinaryPath()`). */
  binaryPath: string;
  /** Where the client's messages come from (default `process.stdin`). */
  input?: NodeJS.ReadableStream | undefined;
  /** Where messages to the client go (default `process.stdout`); nothing else may be written to it. */
  output?: NodeJS.WritableStream | undefined;
  /** Diagnostics (pino's shape, any subset of levels); never written to `output`. */
  logger?: Logger | undefined;
  /** Extra harness pool settings (conversations per process, idle grace, …). */
  pool?: Omit<HarnessPoolSettings, "logger" | "signal" | "harness"> | undefined;
}

/** A running ACP server: one client connection, its sessions and their harness pool. */
export interface AcpServer {
  /** Aborted when the server starts closing: the client closed its end (stdin), or `close()` was called. */
  readonly signal: AbortSignal;
  /** Resolves when the server has closed: every session closed and every harness process stopped. */
  readonly closed: Promise<void>;
  /** Closes the connection, every session and the pool. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves one ACP client over a pair of streams (stdio by default), on a harness pool of its own.
 * The server closes when the client closes its end, and everything it started stops with it.
 *
 * @example
 * const server = await serveAcp({ settings, binaryPath: emulatorBinaryPath() });
 * await server.closed; // the editor closed stdin
 */
export async function serveAcp(options: ServeAcpOptions): Promise<AcpServer> {
  const settings = validateAcpServerSettings(options.settings);
  const logger = shieldLogger(options.logger);
  const registry = await SessionRegistry.open({ settings, binaryPath: options.binaryPath, logger, pool: options.pool });
  const input = (options.input ?? process.stdin) as Readable;
  const output = (options.output ?? process.stdout) as Writable;
  const stream = ndJsonStream(Writable.toWeb(output) as WritableStream<Uint8Array>, Readable.toWeb(input) as ReadableStream<Uint8Array>);
  const connection = createAcpAgent(registry, { logger }).connect(stream);
  const lifetime = new Lifetime();
  const close = (): Promise<void> =>
    lifetime.close(
      () => new AcpServerError("SERVER_CLOSED", "The ACP server was closed."),
      async () => {
        connection.close();
        await registry.close();
      },
    );
  void connection.closed.then(close, close);
  return { signal: lifetime.signal, closed: lifetime.closed, close };
}
