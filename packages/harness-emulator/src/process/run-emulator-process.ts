import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import { decodeInputConfig, encodeFrame, encodeOutputConfig, FrameReader } from "@ag-ui-antigravity/harness/protocol";
import type { ProcessControl } from "../conversation/turn-context.js";
import { EmulatorError } from "../errors/emulator-error.js";
import { readKnobs } from "../knobs/emulator-knobs.js";
import type { EmulatorLogger } from "../logging/logger.js";
import { ConversationStore } from "../persistence/conversation-store.js";
import { ReplayScript } from "../replay/replay-script.js";
import { EmulatorServer } from "../server/emulator-server.js";
import { versionProfile } from "../version/version-profile.js";

/** Variables a command the emulator runs may inherit; the rest of the environment stays private: a command sees only what it needs. */
const inheritedVariables = ["PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TERM", "SHELL", "SYSTEMROOT"];

/** What `runEmulatorProcess` runs on: the stdio, logger and environment a harness process would have, and its exit. */
export interface EmulatorProcessOptions {
  /** Where the one InputConfig frame is read from; its EOF (or close) shuts the emulator down, as it does a harness. */
  stdin: Readable;
  /** Where the one OutputConfig frame is written; nothing else is ever written to it. */
  stdout: Writable;
  /** Receives the emulator's diagnostics (the binary's writes to stderr). */
  logger: EmulatorLogger;
  /**
   * The process environment: the `ANTIGRAVITY_EMULATOR_*` knobs are read from it (InputConfig's
   * `env` overrides them), and a command a scenario runs inherits only `PATH`, `HOME` and a few
   * other basics from it.
   */
  env: Record<string, string | undefined>;
  /** What the `process-exit` and `process-kill` fault actions call; an in-process host decides what they mean for it. */
  processControl: ProcessControl;
}

/** A running emulator: its port and key, and its owner's handle. */
export interface RunningEmulator {
  /** The WebSocket port it listens on: InputConfig's `port`, or an ephemeral one when that was 0 or absent. Also sent in OutputConfig. */
  readonly port: number;
  /** The random per-process key every WebSocket connection must send as `x-goog-api-key`. Also sent in OutputConfig. */
  readonly apiKey: string;
  /** Aborted when closing starts: stdin reached EOF, or `close()` was called. */
  readonly signal: AbortSignal;
  /**
   * Resolves when closing has finished: every conversation persisted and closed, their MCP servers
   * stopped (within a bound), the port closed and stdin no longer read.
   */
  readonly closed: Promise<void>;
  /** Starts closing (what EOF on stdin does) and resolves as `closed` does. Idempotent. */
  close(): Promise<void>;
}

/** Reads exactly one length-prefixed frame from stdin; keeps stdin flowing afterwards to see its EOF. */
function readInputFrame(stdin: Readable, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FrameReader();
    const cleanup = (): void => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const onData = (chunk: Buffer): void => {
      try {
        const frames = reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        const first = frames[0];
        if (first !== undefined) {
          cleanup();
          resolve(first);
        }
      } catch (error) {
        cleanup();
        reject(new EmulatorError("HANDSHAKE_FAILED", `invalid InputConfig frame: ${(error as Error).message}`, { cause: error }));
      }
    };
    const onEnd = (): void => {
      cleanup();
      reject(new EmulatorError("HANDSHAKE_FAILED", "stdin closed before a complete InputConfig frame arrived"));
    };
    const onAbort = (): void => {
      cleanup();
      reject(options.signal?.reason);
    };
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs the emulator the way localharness runs: InputConfig frame on stdin, OutputConfig frame on
 * stdout (and nothing else, ever), WebSocket server until stdin reaches EOF.
 */
export async function runEmulatorProcess(options: EmulatorProcessOptions): Promise<RunningEmulator> {
  const { stdin, stdout, logger } = options;
  const payload = await readInputFrame(stdin);
  let inputConfig;
  try {
    inputConfig = decodeInputConfig(payload);
  } catch (error) {
    throw new EmulatorError("HANDSHAKE_FAILED", `cannot decode InputConfig: ${(error as Error).message}`, { cause: error });
  }
  const env: Record<string, string | undefined> = { ...options.env, ...(inputConfig.env ?? {}) };
  const knobs = readKnobs(env);
  // One release for the whole process: the init frame is read by it before any scenario is known.
  const profile = versionProfile(knobs.harnessVersion);
  const storageDirectory =
    inputConfig.storageDirectory !== undefined && inputConfig.storageDirectory !== ""
      ? inputConfig.storageDirectory
      : mkdtempSync(join(tmpdir(), "localharness-emulator-"));
  const commandEnv: Record<string, string> = {};
  for (const name of inheritedVariables) {
    const value = options.env[name];
    if (value !== undefined) commandEnv[name] = value;
  }
  Object.assign(commandEnv, inputConfig.env ?? {});
  // A recording that cannot be read fails the start, loudly, before the client gets a port.
  const replay = knobs.replay === undefined ? undefined : { script: ReplayScript.load(knobs.replay), ignore: knobs.replayIgnore, timing: knobs.replayTiming };
  const apiKey = randomBytes(24).toString("base64url");
  const server = await EmulatorServer.start({
    bindAddress: inputConfig.bindAddress !== undefined && inputConfig.bindAddress !== "" ? inputConfig.bindAddress : "localhost",
    port: inputConfig.port ?? 0,
    apiKey,
    logger,
    env,
    store: new ConversationStore(storageDirectory),
    processControl: options.processControl,
    commandEnv,
    deterministicIds: knobs.deterministic,
    profile,
    replay,
  });
  const frame = encodeFrame(encodeOutputConfig({ port: server.port, apiKey }));
  await new Promise<void>((resolve, reject) => stdout.write(frame, (error) => (error ? reject(error) : resolve())));
  const client = inputConfig.clientInfo;
  logger.info(
    `listening on ${inputConfig.bindAddress || "localhost"}:${server.port}; storage ${storageDirectory}; harness ${profile.version}${knobs.strict ? "" : " (strictness off)"}; client ${client?.language ?? "?"} ${client?.version ?? "?"}`,
  );

  const lifetime = new Lifetime();
  const close = (): Promise<void> =>
    lifetime.close(
      () => new DOMException("The emulator was closed.", "AbortError"),
      async () => {
        stdin.off("end", onEnd);
        stdin.off("close", onEnd);
        logger.info(`shutting down: persisting ${server.conversations.size} conversation(s)`);
        await server.close();
        stdin.pause();
      },
    );
  const onEnd = (): void => void close();
  // EOF on stdin is the harness's shutdown signal.
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  stdin.resume();
  return { port: server.port, apiKey, signal: lifetime.signal, closed: lifetime.closed, close };
}
