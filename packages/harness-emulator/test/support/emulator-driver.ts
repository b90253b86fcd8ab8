// A minimal raw driver for the emulator: spawns the BUILT binary, does the stdio handshake by hand
// and speaks JSON over a plain `ws` socket. It shares no code with the harness client on purpose.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkWireMessage, fromGenaiStruct, NEWEST_KNOWN_HARNESS_VERSION, type GenaiStruct } from "@ag-ui-antigravity/harness/protocol";
import { loadScaledMs } from "@ag-ui-antigravity/testing";
import WebSocket from "ws";
import { decodeRawOutputConfig, encodeRawInputConfig, frame, type RawInputConfig } from "./raw-protobuf.js";

const here = dirname(fileURLToPath(import.meta.url));
export const binPath = join(here, "..", "..", "dist", "bin.js");
export const scenarioDirectory = join(here, "..", "..", "..", "..", "fixtures", "scenarios");
export const protocolFixtureDirectory = join(here, "..", "..", "..", "..", "fixtures", "protocol");

export function scenarioModel(name: string): string {
  return `emulator:${join(scenarioDirectory, `${name}.json`)}`;
}

/** A config with one text model, selecting a test scenario through the model name. */
export function configFor(scenario: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { models: [{ name: scenarioModel(scenario), types: ["MODEL_TYPE_TEXT"] }], ...extra };
}

const liveChildren = new Set<ChildProcessWithoutNullStreams>();
const liveSockets = new Set<WebSocket>();

/**
 * Every frame any emulator sent that its own harness release could not have sent (a field or enum
 * name that release lacks, a wrong JSON type): a client of that release would refuse it, as the
 * 0.1.10 Python SDK refuses an unknown OutputEvent field. Each test file asserts there are none,
 * apart from the frames a fault action breaks on purpose.
 */
export const outboundViolations: { version: string; frame: string; issue: string }[] = [];

export interface EmulatorProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  apiKey: string;
  storageDirectory: string;
  stderr(): string;
  /** Everything written to stdout, including the OutputConfig frame. */
  stdout(): Buffer;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The harness release this emulator plays. */
  version: string;
  connect(options?: { apiKey?: string }): Promise<RawConversation>;
  /** Closes stdin (the shutdown signal) and waits for exit; SIGKILL after the bound. */
  stop(options?: { boundMs?: number }): Promise<{ code: number | null; signal: NodeJS.Signals | null; elapsedMs: number }>;
}

export async function spawnEmulator(options: { env?: Record<string, string>; input?: RawInputConfig; binary?: string } = {}): Promise<EmulatorProcess> {
  const binary = options.binary ?? binPath;
  if (!existsSync(binary)) throw new Error(`build the package first: ${binary} is missing`);
  const storageDirectory = options.input?.storageDirectory ?? mkdtempSync(join(tmpdir(), "emulator-test-"));
  const child = spawn(process.execPath, [binary], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0", ...options.env },
  });
  liveChildren.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    }),
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const stdoutChunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdoutChunks.push(chunk));
  child.stdin.on("error", () => undefined);
  child.stdin.write(frame(encodeRawInputConfig({ storageDirectory, ...options.input })));
  const output = await new Promise<{ port: number; apiKey: string }>((resolve, reject) => {
    // A hang guard: starting a node process takes over 10 s when a loaded 2-core machine runs other jobs.
    const deadlineMs = loadScaledMs(10_000, 3);
    const timer = setTimeout(() => reject(new Error(`no OutputConfig within ${deadlineMs} ms; stderr: ${stderr}`)), deadlineMs);
    const check = (): void => {
      const all = Buffer.concat(stdoutChunks);
      if (all.length < 4) return;
      const length = all.readUInt32LE(0);
      if (all.length < 4 + length) return;
      clearTimeout(timer);
      child.stdout.off("data", check);
      resolve(decodeRawOutputConfig(all.subarray(4, 4 + length)));
    };
    child.stdout.on("data", check);
    void exited.then(() => reject(new Error(`emulator exited before OutputConfig; stderr: ${stderr}`)));
  });
  const version = options.env?.["ANTIGRAVITY_EMULATOR_HARNESS_VERSION"] ?? NEWEST_KNOWN_HARNESS_VERSION;
  const emulator: EmulatorProcess = {
    version,
    child,
    port: output.port,
    apiKey: output.apiKey,
    storageDirectory,
    stderr: () => stderr,
    stdout: () => Buffer.concat(stdoutChunks),
    exited,
    connect: (connectOptions = {}) => RawConversation.open({ port: output.port, apiKey: connectOptions.apiKey ?? output.apiKey, version }),
    stop: async ({ boundMs = 5_000 } = {}) => {
      const started = Date.now();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), boundMs);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, elapsedMs: Date.now() - started };
    },
  };
  return emulator;
}

export type Message = Record<string, any>;

/** One WebSocket conversation: records every frame and lets a test wait for the next one it cares about. */
export class RawConversation {
  readonly socket: WebSocket;
  /** The harness release the emulator plays: what `say` sends and what every received frame is checked against. */
  readonly version: string;
  readonly messages: Message[] = [];
  readonly rawFrames: string[] = [];
  #cursor = 0;
  #waiters: (() => void)[] = [];
  closeEvent: { code: number; reason: string } | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(socket: WebSocket, version: string) {
    this.socket = socket;
    this.version = version;
    liveSockets.add(socket);
    socket.on("message", (data: Buffer) => {
      const text = data.toString("utf8");
      this.rawFrames.push(text);
      try {
        const message = JSON.parse(text) as Message;
        this.messages.push(message);
        for (const issue of checkWireMessage("OutputEvent", message, version)) outboundViolations.push({ version, frame: text.slice(0, 300), issue: issue.message });
      } catch {
        this.messages.push({ __unparseable: text });
      }
      this.#wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once("close", (code, reason) => {
        liveSockets.delete(socket);
        this.closeEvent = { code, reason: reason.toString("utf8") };
        this.#wake();
        resolve(this.closeEvent);
      }),
    );
  }

  static open(options: { port: number; apiKey: string; version: string }): Promise<RawConversation> {
    const socket = new WebSocket(`ws://localhost:${options.port}/`, { headers: { "x-goog-api-key": options.apiKey } });
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(new RawConversation(socket, options.version)));
      socket.once("unexpected-response", (_request, response) => {
        reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { statusCode: response.statusCode }));
        socket.terminate();
      });
      socket.once("error", reject);
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Sends a user message the way the played release takes it: plain text up to 0.1.10, `userInput{parts}` after. */
  say(text: string): void {
    this.send({ userInput: userInputFor(this.version, text) });
  }

  /** Sends the init event and returns the init response (which must be the very first frame). */
  async init(config: Record<string, unknown>): Promise<Message> {
    this.send({ config });
    const first = await this.next(() => true);
    return first;
  }

  /** The next message after the cursor that satisfies the predicate; moves the cursor past it. */
  async next(predicate: (message: Message) => boolean, options: { timeoutMs?: number } = {}): Promise<Message> {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    for (;;) {
      while (this.#cursor < this.messages.length) {
        const message = this.messages[this.#cursor++] as Message;
        if (predicate(message)) return message;
      }
      if (this.closeEvent !== undefined) throw new Error(`socket closed (${this.closeEvent.code} ${this.closeEvent.reason}) while waiting`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; received: ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the main trajectory's terminal state and returns every message of the turn. */
  async untilIdle(options: { timeoutMs?: number } = {}): Promise<Message[]> {
    const start = this.#cursor;
    await this.next(
      (message) => ["STATE_FULLY_IDLE", "STATE_IDLE", "STATE_CANCELLED"].includes(message["trajectoryStateUpdate"]?.state) && isMainUpdate(message, this.messages),
      options,
    );
    return this.messages.slice(start, this.#cursor);
  }

  /** Closes the socket politely, then makes sure it is gone. */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    else if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    await Promise.race([this.closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    this.socket.terminate();
  }
}

/** A `toolCall`'s arguments, whichever form the release sends: `argumentsJson` text, or the `arguments` Struct (0.1.17). */
export function toolCallArguments(toolCall: Message): Record<string, unknown> {
  if (typeof toolCall["argumentsJson"] === "string") return JSON.parse(toolCall["argumentsJson"]) as Record<string, unknown>;
  return fromGenaiStruct(toolCall["arguments"] as GenaiStruct | undefined);
}

/** A user message in the JSON shape of harness `version`. */
export function userInputFor(version: string, text: string): unknown {
  return ["0.1.8", "0.1.9", "0.1.10"].includes(version) ? text : { parts: [{ text }] };
}

/** True when a trajectory update concerns the conversation's main trajectory (its cascade id). */
function isMainUpdate(message: Message, all: Message[]): boolean {
  const cascadeId = all.find((entry) => entry["initializeConversationResponse"])?.["initializeConversationResponse"]?.cascadeId;
  return cascadeId === undefined || message["trajectoryStateUpdate"]?.trajectoryId === cascadeId;
}

export function payloadKind(message: Message): string {
  return Object.keys(message).find((key) => key !== "seqNum" && key !== "timestampMicros" && key !== "usageMetadata") ?? "(none)";
}

/** Kills whatever a test left behind and reports it, for the afterAll leak check. */
export async function reapLeaks(): Promise<{ children: number; sockets: number }> {
  const leaks = { children: liveChildren.size, sockets: liveSockets.size };
  for (const socket of liveSockets) socket.terminate();
  liveSockets.clear();
  const exits = [...liveChildren].map((child) => new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGKILL");
  }));
  await Promise.all(exits);
  return leaks;
}

/** Whether a process id is still alive. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the emulator's stderr contains the text: stderr and the socket are different pipes, so order between them is not guaranteed. */
export async function waitForStderr(emulator: EmulatorProcess, text: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (!emulator.stderr().includes(text)) {
    if (Date.now() > deadline) throw new Error(`stderr never contained ${JSON.stringify(text)}:\n${emulator.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
