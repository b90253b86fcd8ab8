// An ACP client for the tests: the ACP SDK's own client side, talking to the built executable over
// real stdio (a child process), recording every update and request it gets.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";

export const binPath = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
export const scenarioPath = fileURLToPath(new URL("./fixtures/acp-scenario.json", import.meta.url));

export interface AcpTestClient {
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  readonly initialized: InitializeResponse;
  /** Every session/update received, in order. */
  readonly updates: SessionNotification[];
  readonly permissionRequests: RequestPermissionRequest[];
  readonly elicitations: CreateElicitationRequest[];
  /** How the next permission requests are answered (default: allow once). */
  answerPermission: (request: RequestPermissionRequest) => RequestPermissionResponse;
  answerElicitation: (request: CreateElicitationRequest) => CreateElicitationResponse;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Closes stdin (how an editor says goodbye) and waits for the exit. */
  close(): Promise<number | null>;
}

export const allowOnce = (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId: "allow-once" } });
export const pick = (optionId: string) => (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });

/** A fresh state directory for one test. */
export function stateDirectory(): string {
  return mkdtempSync(join(tmpdir(), "acp-state-"));
}

/** Starts the server with `args` and connects and initializes an ACP client to it. */
export async function startAcpClient(args: readonly string[], options: { capabilities?: ClientCapabilities } = {}): Promise<AcpTestClient> {
  const child = spawn(process.execPath, [binPath, ...args], {
    env: { PATH: process.env["PATH"] ?? "", HOME: tmpdir() },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderrChunks: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderrChunks.push(chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const elicitations: CreateElicitationRequest[] = [];
  const state = {
    answerPermission: allowOnce as (request: RequestPermissionRequest) => RequestPermissionResponse,
    answerElicitation: ((): CreateElicitationResponse => ({ action: "decline" })) as (request: CreateElicitationRequest) => CreateElicitationResponse,
  };
  const app = client({ name: "acp-server-tests" })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return state.answerPermission(params);
    });
  if (options.capabilities?.elicitation?.form !== undefined) {
    app.onRequest(methods.client.elicitation.create, ({ params }) => {
      elicitations.push(params);
      return state.answerElicitation(params);
    });
  }
  const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const initialized = await connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: options.capabilities ?? {},
    clientInfo: { name: "acp-server-tests", version: "1.0.0" },
  });
  const testClient: AcpTestClient = {
    child,
    connection,
    initialized,
    updates,
    permissionRequests,
    elicitations,
    get answerPermission() {
      return state.answerPermission;
    },
    set answerPermission(answer) {
      state.answerPermission = answer;
    },
    get answerElicitation() {
      return state.answerElicitation;
    },
    set answerElicitation(answer) {
      state.answerElicitation = answer;
    },
    stderr: () => stderrChunks.join(""),
    exited,
    close: async () => {
      child.stdin?.end();
      return exited;
    },
  };
  return testClient;
}

/** The text of the message (or thought) chunks of one session, joined. */
export function chunkText(updates: readonly SessionNotification[], sessionId: string, kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk"): string {
  return updates
    .filter((notification) => notification.sessionId === sessionId && notification.update.sessionUpdate === kind)
    .map((notification) => {
      const update = notification.update as { content: { type: string; text?: string } };
      return update.content.type === "text" ? (update.content.text ?? "") : "";
    })
    .join("");
}

/** The updates of one session about tool calls, in order. */
export function toolUpdates(updates: readonly SessionNotification[], sessionId: string): SessionNotification["update"][] {
  return updates.filter((notification) => notification.sessionId === sessionId && (notification.update.sessionUpdate === "tool_call" || notification.update.sessionUpdate === "tool_call_update")).map((notification) => notification.update);
}

/** Waits until `condition` holds, polling (the server's stderr, a file); fails after `timeoutMs`. */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
