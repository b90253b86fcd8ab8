import { linkSignals } from "@ag-ui-antigravity/foundation";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "./mcp-server-config.js";

/**
 * The MCP SDK's client, loaded on the first MCP server a conversation configures: importing it took
 * a third of a second at start-up, paid by every emulator process (a crowd of new threads starts
 * one per 8 conversations) although most conversations configure no MCP server.
 */
let mcpSdk: Promise<McpSdk> | undefined;

interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  getDefaultEnvironment: typeof getDefaultEnvironment;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
}

function loadMcpSdk(): Promise<McpSdk> {
  mcpSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([client, stdio, streamableHttp]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
  }));
  return mcpSdk;
}

/** A tool one MCP server offers, as the model sees it. */
export interface McpToolInfo {
  serverName: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call produced: the text the model reads, and whether the server flagged it an error. */
export interface McpCallOutcome {
  text: string;
  isError: boolean;
}

/** The harness identifies itself to MCP servers; this is the emulator's name for that. */
const clientInfo = { name: "localharness-emulator", version: "0.1.0" };

/** Start-up (spawn or connect, initialize, tools/list) is bounded; a server that never answers fails to load. */
const loadTimeoutMs = 30_000;
/** What the SDK's streamable HTTP client reports when a server went away in the middle of an answer. */
const lostStreamPattern = /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts)/;
/** Per call when the config gives no `timeoutSeconds`. */
const defaultCallTimeoutMs = 60_000;

/**
 * One live MCP server of one conversation, reached with the MCP SDK's own client over stdio (the
 * emulator starts the command as its child, inside the process group that a client's stop of the
 * harness kills) or streamable HTTP. `alive` turns false when the transport closes, e.g. the server crashed.
 */
export class McpConnection {
  readonly name: string;
  readonly tools: readonly McpToolInfo[];
  readonly #client: Client;
  readonly #callTimeoutMs: number;
  #alive = true;

  private constructor(name: string, client: Client, tools: McpToolInfo[], callTimeoutMs: number) {
    this.name = name;
    this.#client = client;
    this.tools = tools;
    this.#callTimeoutMs = callTimeoutMs;
    client.onclose = () => {
      this.#alive = false;
    };
    client.onerror = (error) => {
      // A streamable HTTP response that breaks before its result leaves the request pending
      // forever in the SDK's client; closing the client rejects every pending request instead.
      if (lostStreamPattern.test(error.message)) void this.close().catch(() => undefined);
    };
  }

  get alive(): boolean {
    return this.#alive;
  }

  /** Connects, initializes and lists the tools the config lets through; throws with the reason on any failure. */
  static async open(config: McpServerConfig, options: { signal: AbortSignal }): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const transport = createTransport(sdk, config);
    const client = new sdk.Client(clientInfo, { capabilities: {} });
    // Linked, not AbortSignal.any: the conversation's signal outlives many loads (linkSignals).
    const link = linkSignals([options.signal, AbortSignal.timeout(loadTimeoutMs)]);
    const signal = link.signal;
    try {
      await client.connect(transport, { signal, timeout: loadTimeoutMs });
      const listed: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { signal, timeout: loadTimeoutMs });
        for (const tool of page.tools) {
          listed.push({ serverName: config.name, name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema as Record<string, unknown> });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined && listed.length < 10_000);
      const timeoutSeconds = config.timeoutSeconds ?? 0;
      return new McpConnection(config.name, client, listed.filter((tool) => isToolEnabled(tool.name, config)), timeoutSeconds > 0 ? timeoutSeconds * 1000 : defaultCallTimeoutMs);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    } finally {
      link.unlink();
    }
  }

  /** Calls a tool; a protocol or transport failure (a crashed server, a timeout) throws. */
  async call(toolName: string, args: Record<string, unknown>, options: { signal: AbortSignal }): Promise<McpCallOutcome> {
    const result = await this.#client.callTool({ name: toolName, arguments: args }, undefined, {
      signal: options.signal,
      timeout: this.#callTimeoutMs,
      resetTimeoutOnProgress: true,
    });
    return { text: renderContent(result), isError: result.isError === true };
  }

  /** Closes the client; a stdio server gets stdin closed, then SIGTERM, then SIGKILL (the SDK's ladder). */
  async close(): Promise<void> {
    this.#alive = false;
    await this.#client.close();
  }
}

function createTransport(sdk: McpSdk, config: McpServerConfig): Transport {
  if (config.stdio !== undefined && config.http !== undefined) throw new Error("both stdio and http are set");
  if (config.stdio !== undefined) {
    const command = config.stdio.command ?? "";
    if (command.trim() === "") throw new Error("no command to start");
    // The server's stderr joins the emulator's: diagnostics never reach stdout, which carries the handshake.
    return new sdk.StdioClientTransport({ command, args: config.stdio.args ?? [], env: { ...sdk.getDefaultEnvironment(), ...config.stdio.env }, stderr: "inherit" });
  }
  if (config.http !== undefined) {
    const url = URL.parse(config.http.url ?? "");
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) throw new Error(`invalid URL "${config.http.url ?? ""}"`);
    return new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers: config.http.headers ?? {} } });
  }
  throw new Error("neither stdio nor http is set");
}

/** `enabledTools` (when non-empty) lists the only tools offered; `disabledTools` removes some. */
function isToolEnabled(name: string, config: McpServerConfig): boolean {
  const enabled = config.enabledTools ?? [];
  if (enabled.length > 0 && !enabled.includes(name)) return false;
  return !(config.disabledTools ?? []).includes(name);
}

/** Text parts as they are; other parts named by kind; structured content when there is no text. */
function renderContent(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string; mimeType?: string; resource?: { uri?: string; text?: string } }[]) : [];
  const pieces = content.map((part) => {
    if (part.type === "text") return part.text ?? "";
    if (part.type === "resource") return part.resource?.text ?? `[resource ${part.resource?.uri ?? ""}]`;
    return `[${part.type}${part.mimeType === undefined ? "" : ` ${part.mimeType}`}]`;
  });
  const text = pieces.join("\n");
  if (text === "" && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return text;
}
