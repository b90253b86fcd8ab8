import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createAntigravityMcpServer } from "../mcp/create-mcp-server.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { BearerTokens } from "./bearer-tokens.js";
import { HttpClients } from "./http-clients.js";

/** Where `serveHttp` listens and how it treats its clients (address, port, path, limits, tokens, origins). */
export interface ServeHttpOptions {
  /** Default 127.0.0.1. Anything else exposes agent turns to the network: put authentication in front. */
  host?: string;
  /** Default 0 (the OS picks). */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /**
   * MCP client sessions at once. A new client takes the place of the one idle longest (no request
   * in flight, no stream open); when none is idle it gets HTTP 503 with Retry-After. Default 64.
   */
  maxClients?: number;
  /**
   * How long a client with no request in flight and no stream open is kept before its session is
   * closed (most clients close without the DELETE that would end it at once). Default 10 minutes.
   */
  clientIdleTimeoutMs?: number;
  /**
   * Bearer tokens (16+ characters each) a request must carry (`Authorization: Bearer <token>`), else
   * 401. The sessions opened with a token belong to it: every client presenting the same token sees
   * and reaches them, no other client does. Default none: any local client may connect, and each
   * one's sessions are its own.
   */
  authTokens?: readonly string[];
  /**
   * Origins (`https://app.example`) whose browser pages may call the server, besides its own. A
   * request with any other `Origin` header is refused (403), as the MCP transport rules require;
   * requests without one (MCP clients outside a browser) are not affected.
   */
  allowedOrigins?: readonly string[];
}

/** Default `clientIdleTimeoutMs`: 10 minutes. */
export const DEFAULT_CLIENT_IDLE_TIMEOUT_MS = 10 * 60_000;

/** A running streamable HTTP MCP server. */
export interface HttpMcpServer {
  /** `http://<host>:<port><path>`. */
  readonly url: string;
  /** MCP client sessions currently connected. */
  readonly clientCount: number;
  /** Aborted when `close()` starts. */
  readonly signal: AbortSignal;
  /** Resolves when `close()` has finished: every client session ended, the port closed. */
  readonly closed: Promise<void>;
  /** Ends every client session and stops listening. Idempotent. The registry stays open. */
  close(): Promise<void>;
}

/**
 * Serves MCP over streamable HTTP (stateful: one `Mcp-Session-Id` per client, SSE for streaming and
 * server-to-client requests such as elicitation). Every client gets its own MCP server object on the
 * same registry, so clients share the harness pool, and each sees only its own sessions (or its
 * token's, with `authTokens`) unless the registry shares them. Requests whose Host header is not
 * this server's address (DNS rebinding), or whose Origin is not allowed, are refused (403); bodies
 * over 4 MiB get 413 (the SDK's bound). Clients that went away without a DELETE expire (see
 * `HttpClients`).
 */
export async function serveHttp(registry: SessionRegistry, options: ServeHttpOptions = {}): Promise<HttpMcpServer> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const tokens = new BearerTokens(options.authTokens ?? []);
  const extraOrigins = checkedOrigins(options.allowedOrigins ?? []);
  const clients = new HttpClients({ maxClients: options.maxClients ?? 64, idleTimeoutMs: options.clientIdleTimeoutMs ?? DEFAULT_CLIENT_IDLE_TIMEOUT_MS });
  const transports = new Map<string, { transport: StreamableHTTPServerTransport; owner: string }>();
  let allowedHosts: string[] = [];
  let allowedOrigins = new Set<string>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://placeholder");
    if (url.pathname !== path) return refuse(response, 404, `Not found; the MCP endpoint is ${path}`);
    // A browser page of another site reaching a local server (MCP transport rules: validate Origin).
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return refuse(response, 403, "This Origin may not call this MCP server");
    const tokenOwner = tokens.ownerOf(request.headers.authorization);
    if (tokens.required && tokenOwner === undefined) return refuse(response, 401, "A bearer token is required (Authorization: Bearer <token>)", undefined, { "www-authenticate": "Bearer" });
    const header = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const known = transports.get(sessionId);
      // An Mcp-Session-Id presented with another token than it began with is no session of the caller's.
      if (known === undefined || (tokens.required && known.owner !== tokenOwner)) return refuse(response, 404, "Unknown or expired Mcp-Session-Id; initialize a new session");
      clients.track(sessionId, response);
      return known.transport.handleRequest(request, response);
    }
    if (request.method !== "POST") return refuse(response, 400, "Missing Mcp-Session-Id; start with an initialize POST");
    if (!clients.makeRoom()) return refuse(response, 503, `Too many MCP clients busy at once (limit ${options.maxClients ?? 64}); retry shortly`, 5);
    // A new client: the transport answers a non-initialize request with 400 itself, and is dropped.
    const owner = tokenOwner ?? `client:${randomUUID()}`;
    const server = createAntigravityMcpServer(registry, { owner });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        transports.set(id, { transport, owner });
        clients.add(id, { close: () => server.close() }, response);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      transports.delete(transport.sessionId);
      clients.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  allowedHosts = [`${shownHost}:${port}`, ...(host === "127.0.0.1" || host === "::1" ? [`localhost:${port}`] : [])];
  allowedOrigins = new Set([...allowedHosts.flatMap((allowed) => [`http://${allowed}`, `https://${allowed}`]), ...extraOrigins]);
  const lifetime = new Lifetime();
  return {
    url: `http://${shownHost}:${port}${path}`,
    get clientCount() {
      return clients.size;
    },
    signal: lifetime.signal,
    closed: lifetime.closed,
    close: () =>
      lifetime.close(
        () => new Error("The MCP HTTP server was closed."),
        async () => {
          await Promise.allSettled(clients.drain().map((client) => client.close()));
          transports.clear();
          await new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeAllConnections();
          });
        },
      ),
  };
}

/** A JSON-RPC error body, as MCP clients expect from a streamable HTTP endpoint. */
function refuse(response: ServerResponse, status: number, message: string, retryAfterSeconds?: number, headers: Record<string, string> = {}): void {
  response
    .writeHead(status, { "content-type": "application/json", ...headers, ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }) })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** Origins as `new URL(origin).origin` writes them; anything else is a configuration error. */
function checkedOrigins(origins: readonly string[]): string[] {
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin) throw new TypeError(`allowedOrigins: ${JSON.stringify(origin)} is not an origin such as https://app.example (scheme, host, port; no path)`);
  }
  return [...origins];
}
