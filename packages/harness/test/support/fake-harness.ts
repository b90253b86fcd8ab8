import { type Logger, shieldLogger } from "@ag-ui-antigravity/foundation";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { ConversationHost } from "../../src/conversation/conversation-host.js";
import { Redactor } from "../../src/observability/redactor.js";
import type { WireInspector } from "../../src/observability/wire-record.js";
import { WireTap } from "../../src/observability/wire-tap.js";
import { ProtocolSkewWatcher } from "../../src/process/protocol-skew.js";
import { HarnessDialect } from "../../src/protocol/dialect.js";
import { DriftRegistry } from "../../src/protocol/drift.js";
import { NEWEST_KNOWN_HARNESS_VERSION } from "../../src/protocol/harness-versions.js";

/** The text of a turn input: a 0.1.10 `userInput` string, or the joined text parts of a 0.1.11+ `userInput{parts}`. */
function turnText(input: unknown): unknown {
  if (typeof input !== "object" || input === null || !Array.isArray((input as { parts?: unknown }).parts)) return input;
  return (input as { parts: { text?: string }[] }).parts.map((part) => part.text ?? "").join("");
}

/** One client connection as the fake harness sees it: what the client sent, and a way to answer. */
export class FakeConnection {
  readonly received: Record<string, any>[] = [];
  readonly #waiters: { predicate: (message: Record<string, any>) => boolean; resolve: (message: Record<string, any>) => void }[] = [];
  readonly socket: WebSocket;
  readonly headers: Record<string, string | string[] | undefined>;

  constructor(socket: WebSocket, headers: Record<string, string | string[] | undefined>) {
    this.socket = socket;
    this.headers = headers;
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, any>;
      this.received.push(message);
      for (const waiter of [...this.#waiters]) {
        if (waiter.predicate(message)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  /**
   * The first message (already received or future) with the given top-level key. For `userInput`,
   * `where` sees the turn's text whatever the dialect (a 0.1.10 string, or the text of 0.1.11 parts).
   */
  next(key: string, options: { after?: number; where?: (body: any) => boolean } = {}): Promise<Record<string, any>> {
    const bodyOf = (message: Record<string, any>): unknown => (key === "userInput" ? turnText(message[key]) : message[key]);
    const matches = (message: Record<string, any>): boolean => key in message && (options.where === undefined || options.where(bodyOf(message)));
    const existing = this.received.slice(options.after ?? 0).find(matches);
    if (existing !== undefined) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fake harness: no ${key} arrived`)), 10_000);
      this.#waiters.push({
        predicate: matches,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  }

  count(key: string): number {
    return this.received.filter((message) => key in message).length;
  }
}

/** An in-process stand-in for the harness's WebSocket side, scripted by the test. */
export class FakeHarness {
  readonly token = "fake-harness-token-123456";
  readonly server: WebSocketServer;
  readonly connections: FakeConnection[] = [];
  readonly #connectionWaiters: ((connection: FakeConnection) => void)[] = [];
  readonly hostController = new AbortController();
  readonly drift = new DriftRegistry();
  readonly logged: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  readonly forgotten: object[] = [];

  private constructor(server: WebSocketServer) {
    this.server = server;
    server.on("connection", (socket, request) => {
      const connection = new FakeConnection(socket, request.headers);
      this.connections.push(connection);
      for (const waiter of this.#connectionWaiters.splice(0)) waiter(connection);
    });
  }

  static async start(): Promise<FakeHarness> {
    const server = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      verifyClient: (info: { req: { headers: Record<string, unknown> } }) => info.req.headers["x-goog-api-key"] === "fake-harness-token-123456",
    });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    return new FakeHarness(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  nextConnection(): Promise<FakeConnection> {
    const index = this.connections.length;
    return new Promise((resolve) => {
      const existing = this.connections[index];
      if (existing !== undefined) resolve(existing);
      else this.#connectionWaiters.push(resolve);
    });
  }

  get logger(): Logger {
    const record = (level: string) => (fields: Record<string, unknown>, message = "") =>
      this.logged.push({ level, message, fields });
    return shieldLogger({ debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") });
  }

  /** Recent frames sent through hosts of this harness, for protocol-skew tests (`skew.onStderrLine`). */
  readonly skew = new ProtocolSkewWatcher({ describe: () => "the fake harness's client" });

  host(
    options: { inspector?: WireInspector; configuredEnvironment?: Record<string, string>; stderr?: string[]; harnessVersion?: string } = {},
  ): ConversationHost {
    const logger = this.logger;
    const redactor = new Redactor();
    redactor.addSecret(this.token);
    return {
      port: this.port,
      harnessToken: this.token,
      logger,
      redactor,
      wireTap: new WireTap({ logger, redactor, inspector: options.inspector, loggerConfigured: true }),
      drift: this.drift,
      dialect: new HarnessDialect(options.harnessVersion ?? NEWEST_KNOWN_HARNESS_VERSION),
      noteSent: (text, onSkew) => this.skew.noteSent(text, onSkew),
      signal: this.hostController.signal,
      exited: new Promise(() => undefined),
      configuredEnvironment: options.configuredEnvironment ?? {},
      stderrTail: () => options.stderr ?? [],
      forgetConversation: (conversation) => {
        this.forgotten.push(conversation);
      },
    };
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Opens a conversation against the fake and completes the init exchange. */
export const INIT_RESPONSE = { initializeConversationResponse: { cascadeId: "c0ffee00c0ffee00c0ffee00c0ffee00" } };
export const MAIN = INIT_RESPONSE.initializeConversationResponse.cascadeId;

export function textStep(stepIndex: number, state: string, text: string, extra: Record<string, unknown> = {}): object {
  return {
    stepUpdate: { cascadeId: MAIN, trajectoryId: MAIN, stepIndex, state, source: "SOURCE_MODEL", target: "TARGET_USER", text, ...extra },
  };
}

export function idle(trajectoryId = MAIN, extra: Record<string, unknown> = {}): object {
  return { trajectoryStateUpdate: { trajectoryId, state: "STATE_FULLY_IDLE", ...extra } };
}
