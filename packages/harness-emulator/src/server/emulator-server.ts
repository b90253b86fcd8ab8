import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { Conversation } from "../conversation/conversation.js";
import type { ProcessControl } from "../conversation/turn-context.js";
import { createIdSource } from "../ids/id-source.js";
import { readKnobs } from "../knobs/emulator-knobs.js";
import type { EmulatorLogger } from "../logging/logger.js";
import type { ConversationStore } from "../persistence/conversation-store.js";
import { ReplayConversation } from "../replay/replay-conversation.js";
import type { ReplayScript } from "../replay/replay-script.js";
import type { VersionProfile } from "../version/version-profile.js";

/** Inbound frames above this are refused; tool results of several MiB are normal (the SDK tests 5 MiB). */
const maxPayloadBytes = 64 * 1024 * 1024;
/** How long shutdown waits for MCP servers to stop; the whole shutdown is bounded at 1.5 s. */
const mcpStopBoundMs = 1_000;

export interface EmulatorServerOptions {
  bindAddress: string;
  port: number;
  apiKey: string;
  logger: EmulatorLogger;
  env: Record<string, string | undefined>;
  store: ConversationStore;
  processControl: ProcessControl;
  commandEnv: Record<string, string>;
  deterministicIds: boolean;
  /** The harness release this process plays. */
  profile: VersionProfile;
  /** Play this recording to every connection instead of running scenarios. */
  replay?: { script: ReplayScript; ignore: readonly string[]; timing: boolean } | undefined;
}

/** What the server needs of a connection, scripted or replayed. */
interface ServedConnection {
  readonly closed: Promise<void>;
  terminate(): void;
}

function keyMatches(expected: string, presented: string | string[] | undefined): boolean {
  if (typeof presented !== "string") return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(presented);
  return left.length === right.length && timingSafeEqual(left, right);
}

function refuse(socket: Duplex, status: number, statusText: string, reason: string): void {
  const body = JSON.stringify({ error: reason });
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Answers each ping after `delayMs`, as a slower harness would; the timers end with the socket. */
function answerPingsLate(webSocket: WebSocket, delayMs: number): void {
  const timers = new Set<NodeJS.Timeout>();
  webSocket.on("ping", (data) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (webSocket.readyState === webSocket.OPEN) webSocket.pong(data);
    }, delayMs);
    timers.add(timer);
  });
  webSocket.once("close", () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
}

/** The WebSocket endpoint: authenticates upgrades and gives every connection its own Conversation. */
export class EmulatorServer {
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly conversations = new Set<ServedConnection>();
  #port = 0;
  #closing: Promise<void> | undefined;

  private constructor(options: EmulatorServerOptions) {
    const { pongDelayMs } = readKnobs(options.env);
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes, autoPong: pongDelayMs === 0 });
    const { plainHttp } = readKnobs(options.env);
    this.#http = createServer((request, response) => {
      // Whether the real harness answers a plain request at all is not known (docs/protocol.md,
      // "Assumptions and how we hedge them"); the knob plays each possibility. A silent request is ended by close().
      if (plainHttp === "silent") return;
      if (plainHttp === "reset") {
        request.socket.destroy();
        return;
      }
      response.writeHead(426, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "WebSocket upgrade required" }));
    });
    const cascadeIds = createIdSource({ deterministic: options.deterministicIds });
    this.#http.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on("error", () => socket.destroy());
      if (this.#closing !== undefined) {
        refuse(socket, 503, "Service Unavailable", "harness is shutting down");
        return;
      }
      if (!keyMatches(options.apiKey, request.headers["x-goog-api-key"])) {
        const why = request.headers["x-goog-api-key"] === undefined ? "missing x-goog-api-key header" : "wrong x-goog-api-key";
        options.logger.warn(`refused WebSocket upgrade from ${request.socket.remoteAddress ?? "?"}: ${why}`);
        refuse(socket, 401, "Unauthorized", why);
        return;
      }
      this.#wss.handleUpgrade(request, socket, head, (webSocket) => {
        if (pongDelayMs > 0) answerPingsLate(webSocket, pongDelayMs);
        if (options.replay !== undefined) {
          this.#replayOnFirstFrame(webSocket, options);
          return;
        }
        const conversation = new Conversation({
          socket: webSocket,
          logger: options.logger,
          env: options.env,
          store: options.store,
          cascadeIds,
          processControl: options.processControl,
          commandEnv: options.commandEnv,
          profile: options.profile,
        });
        this.conversations.add(conversation);
        void conversation.closed.then(() => this.conversations.delete(conversation));
      });
    });
  }

  /**
   * A replayed connection claims its part of the recording at its first frame, not at the upgrade:
   * one that says nothing (a client's liveness probe) plays no part of it.
   */
  #replayOnFirstFrame(webSocket: WebSocket, options: EmulatorServerOptions): void {
    const waiting: ServedConnection = {
      closed: new Promise<void>((resolve) => webSocket.once("close", () => resolve())),
      terminate: () => webSocket.terminate(),
    };
    this.conversations.add(waiting);
    void waiting.closed.then(() => this.conversations.delete(waiting));
    webSocket.once("message", (data, isBinary) => {
      this.conversations.delete(waiting);
      const replayed = this.#replay(webSocket, options);
      if (replayed === undefined) return;
      this.conversations.add(replayed);
      void replayed.closed.then(() => this.conversations.delete(replayed));
      webSocket.emit("message", data, isBinary);
    });
  }

  #replay(webSocket: WebSocket, options: EmulatorServerOptions): ReplayConversation | undefined {
    const replay = options.replay;
    if (replay === undefined) return undefined;
    const claimed = replay.script.claimConnection();
    if (claimed === undefined) {
      const reason = `replay diverged: the recording has only ${replay.script.connectionCount} connection(s)`;
      options.logger.error(`${reason} (${replay.script.source})`);
      webSocket.close(1011, reason);
      return undefined;
    }
    return new ReplayConversation({
      socket: webSocket,
      logger: options.logger,
      connection: claimed.connection,
      frames: claimed.frames,
      source: replay.script.source,
      ignore: replay.ignore,
      timing: replay.timing,
    });
  }

  static async start(options: EmulatorServerOptions): Promise<EmulatorServer> {
    const server = new EmulatorServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#http.once("error", reject);
      server.#http.listen({ host: options.bindAddress, port: options.port }, () => {
        server.#http.off("error", reject);
        resolve();
      });
    });
    server.#port = (server.#http.address() as AddressInfo).port;
    return server;
  }

  get port(): number {
    return this.#port;
  }

  /** Persists and closes every conversation, then stops listening. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const closing = [...this.conversations].map((conversation) => conversation.closed);
      for (const conversation of this.conversations) conversation.terminate();
      this.#wss.close();
      // MCP servers the conversations started get a bounded moment to stop (stdin end, then signals).
      await Promise.race([Promise.all(closing), new Promise((resolve) => setTimeout(resolve, mcpStopBoundMs).unref())]);
      await new Promise<void>((resolve) => {
        this.#http.close(() => resolve());
        this.#http.closeAllConnections();
      });
    })();
    return this.#closing;
  }
}
