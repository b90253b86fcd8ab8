import { Lifetime } from "@ag-ui-antigravity/foundation";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createAntigravityMcpServer } from "../mcp/create-mcp-server.js";
import type { SessionRegistry } from "../sessions/session-registry.js";

/** A running stdio MCP server. */
export interface StdioMcpServer {
  /** Aborted when the server starts closing: the client closed stdin, or `close()` was called. */
  readonly signal: AbortSignal;
  /** Resolves when the client closed stdin (or `close()` ran) and the server has closed. */
  readonly closed: Promise<void>;
  /** Closes the MCP server (not the registry). Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves one MCP client over this process's stdin/stdout. stdout then carries only MCP messages;
 * diagnostics must go to stderr. The registry stays open: its owner shuts it down.
 */
export async function serveStdio(registry: SessionRegistry, streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<StdioMcpServer> {
  const server = createAntigravityMcpServer(registry);
  const stdin = (streams.stdin ?? process.stdin) as NodeJS.ReadStream;
  const transport = new StdioServerTransport(stdin, (streams.stdout ?? process.stdout) as NodeJS.WriteStream);
  const lifetime = new Lifetime();
  const close = (): Promise<void> =>
    lifetime.close(
      () => new Error("The stdio MCP server was closed."),
      async () => {
        stdin.off("end", onEnd);
        await server.close();
      },
    );
  const onEnd = (): void => void close();
  // The SDK's stdio transport does not notice EOF; the client closing stdin is how it says goodbye.
  stdin.once("end", onEnd);
  transport.onclose = () => void close();
  await server.connect(transport);
  return { signal: lifetime.signal, closed: lifetime.closed, close };
}
