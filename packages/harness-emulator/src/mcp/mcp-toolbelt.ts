import type { EmulatorLogger } from "../logging/logger.js";
import { McpConnection, type McpCallOutcome, type McpToolInfo } from "./mcp-connection.js";
import { readMcpServerConfigs, type McpServerConfig } from "./mcp-server-config.js";

/** A server that could not be loaded; its message is the harness's trajectory error text. */
export class McpLoadFailure extends Error {
  readonly serverName: string;

  constructor(serverName: string, reason: string) {
    // The harness's wording, which the Python SDK's tests assert.
    super(`MCP load failed for ${serverName}: ${reason}`);
    this.name = "McpLoadFailure";
    this.serverName = serverName;
  }
}

/**
 * The MCP servers of one conversation. Servers are loaded at the start of each turn: those already
 * connected stay, those not yet connected (or whose connection dropped, e.g. a crash) are started
 * again, and the first that fails ends the turn. `close()` stops every server it started.
 */
export class McpToolbelt {
  readonly #rawConfig: unknown;
  readonly #logger: EmulatorLogger;
  readonly #connections = new Map<string, McpConnection>();
  #closed = false;

  constructor(options: { config: unknown; logger: EmulatorLogger }) {
    this.#rawConfig = options.config;
    this.#logger = options.logger;
  }

  /** Loads every configured server that is not connected; throws McpLoadFailure naming the first that fails. */
  async load(options: { signal: AbortSignal }): Promise<void> {
    const { servers, invalid } = readMcpServerConfigs(this.#rawConfig);
    for (const server of servers) {
      options.signal.throwIfAborted();
      if (this.#closed) return;
      const existing = this.#connections.get(server.name);
      if (existing?.alive === true) continue;
      if (existing !== undefined) {
        this.#connections.delete(server.name);
        this.#logger.warn(`MCP server ${server.name}: the connection was lost; starting it again`);
      }
      await this.#open(server, options.signal);
    }
    if (invalid !== undefined) throw new McpLoadFailure(invalid.name, invalid.reason);
  }

  async #open(server: McpServerConfig, signal: AbortSignal): Promise<void> {
    let connection: McpConnection;
    try {
      connection = await McpConnection.open(server, { signal });
    } catch (error) {
      signal.throwIfAborted();
      const reason = error instanceof Error ? error.message : String(error);
      this.#logger.error(`MCP server ${server.name} failed to load: ${reason}`);
      throw new McpLoadFailure(server.name, reason);
    }
    if (this.#closed) {
      await connection.close().catch(() => undefined);
      return;
    }
    this.#connections.set(server.name, connection);
    this.#logger.info(`MCP server ${server.name} loaded: ${connection.tools.map((tool) => tool.name).join(", ") || "(no tools)"}`);
  }

  /** Every tool of the loaded servers, in configuration order. */
  get tools(): McpToolInfo[] {
    return [...this.#connections.values()].flatMap((connection) => connection.tools);
  }

  /** A tool by name, optionally restricted to one server. */
  find(toolName: string, serverName?: string): McpToolInfo | undefined {
    return this.tools.find((tool) => tool.name === toolName && (serverName === undefined || serverName === "" || tool.serverName === serverName));
  }

  async call(tool: McpToolInfo, args: Record<string, unknown>, options: { signal: AbortSignal }): Promise<McpCallOutcome> {
    const connection = this.#connections.get(tool.serverName);
    if (connection === undefined || !connection.alive) throw new Error(`MCP server ${tool.serverName} is not connected`);
    return connection.call(tool.name, args, options);
  }

  /** Stops every server. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(connections.map((connection) => connection.close().catch((error: unknown) => this.#logger.warn(`MCP server ${connection.name}: close failed: ${String(error)}`))));
  }
}
