import type { ServerResponse } from "node:http";

/** One MCP client of the HTTP server: its open responses, and how to end it. */
export interface HttpClient {
  /** Ends the client's transport and its MCP server (and with it the sessions it opened and did not keep). */
  close(): Promise<void>;
}

interface Tracked {
  readonly client: HttpClient;
  /** Requests of the client whose response is still open (an SSE GET stream, a POST in flight). */
  openResponses: number;
  /** When its last response closed; meaningless while one is open. */
  idleSince: number;
}

/**
 * The HTTP server's MCP clients, by `Mcp-Session-Id`. A client with no open response is idle (the
 * SDK's `client.close()` aborts its streams but sends no DELETE): it is closed after
 * `idleTimeoutMs`, or sooner when a new client needs its place at `maxClients`. A client with a
 * request in flight or a stream open is never taken. The owner (`serveHttp`) closes it.
 */
export class HttpClients {
  readonly #clients = new Map<string, Tracked>();
  readonly #maxClients: number;
  readonly #idleTimeoutMs: number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: { maxClients: number; idleTimeoutMs: number }) {
    this.#maxClients = options.maxClients;
    this.#idleTimeoutMs = options.idleTimeoutMs;
    // Half the timeout at most apart (between 50 ms and a minute), so a client outlives it by at most half.
    this.#sweeper = setInterval(() => this.#expire(), Math.min(60_000, Math.max(50, Math.floor(options.idleTimeoutMs / 2))));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#clients.size;
  }

  get(sessionId: string): HttpClient | undefined {
    return this.#clients.get(sessionId)?.client;
  }

  /** A new client's initialize request may proceed: there is room, or an idle client was let go for it. */
  makeRoom(): boolean {
    if (this.#clients.size < this.#maxClients) return true;
    let oldest: [string, Tracked] | undefined;
    for (const entry of this.#clients) {
      if (entry[1].openResponses > 0) continue;
      if (oldest === undefined || entry[1].idleSince < oldest[1].idleSince) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#end(oldest[0], oldest[1]);
    return true;
  }

  /** Records a client once its transport has a session id; `response` is the initialize request's. */
  add(sessionId: string, client: HttpClient, response: ServerResponse): void {
    this.#clients.set(sessionId, { client, openResponses: 0, idleSince: Date.now() });
    this.track(sessionId, response);
  }

  /** Counts `response` as open for the client until it closes. */
  track(sessionId: string, response: ServerResponse): void {
    const tracked = this.#clients.get(sessionId);
    if (tracked === undefined || response.writableFinished || response.destroyed) return;
    tracked.openResponses += 1;
    response.once("close", () => {
      tracked.openResponses -= 1;
      tracked.idleSince = Date.now();
    });
  }

  /** Forgets a client whose transport closed (a DELETE, or `close()`). */
  delete(sessionId: string): void {
    this.#clients.delete(sessionId);
  }

  /** Stops the sweeper and hands back every client for its owner to close. */
  drain(): HttpClient[] {
    clearInterval(this.#sweeper);
    const clients = [...this.#clients.values()].map((tracked) => tracked.client);
    this.#clients.clear();
    return clients;
  }

  #expire(): void {
    const now = Date.now();
    for (const [sessionId, tracked] of this.#clients) {
      if (tracked.openResponses === 0 && now - tracked.idleSince >= this.#idleTimeoutMs) this.#end(sessionId, tracked);
    }
  }

  #end(sessionId: string, tracked: Tracked): void {
    this.#clients.delete(sessionId);
    void tracked.client.close().catch(() => undefined);
  }
}
