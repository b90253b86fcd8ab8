import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname, join } from "node:path";
import { RECORDING_FORMAT, type RecordingConversation, type RecordingFrame, type RecordingHeader } from "../protocol/recording.js";
import type { HarnessLogger } from "./logger.js";

/** The header fields the process knows at spawn time. */
export interface WireRecorderHeader {
  client: { language: string; version: string };
  /** `protocol`: the harness release the client spoke, so a replay can speak it again. */
  harness: { binary: string; version: string; protocol: string };
}

/**
 * Writes a session to a JSONL file (ANTIGRAVITY_WIRE_RECORD): the header, then every frame in the
 * order it crossed the wire. The caller redacts; the recorder only numbers, times and writes. The
 * harness process owns it and closes it at its own close.
 */
export class WireRecorder {
  readonly #stream: WriteStream;
  readonly #startedAt = Date.now();
  readonly #logger: HarnessLogger;
  #frames = 0;
  #connections = 0;
  #failed = false;
  #closing: Promise<void> | undefined;

  constructor(path: string, header: WireRecorderHeader, logger: HarnessLogger) {
    this.#logger = logger;
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch {
      // createWriteStream reports the same failure as an 'error' event, handled below.
    }
    this.#stream = createWriteStream(path, { flags: "w" });
    this.#stream.on("error", (error) => {
      if (!this.#failed) logger.warn({ path, error: error.message }, "the wire recording could not be written; recording stops");
      this.#failed = true;
    });
    const line: RecordingHeader = { type: "header", format: RECORDING_FORMAT, recordedAt: new Date(this.#startedAt).toISOString(), ...header };
    this.#write(line);
  }

  /** Hands out the connection number of the next WebSocket (1, 2, ...). */
  nextConnection(): number {
    this.#connections += 1;
    return this.#connections;
  }

  conversation(connection: number, config: Record<string, unknown>): void {
    const line: RecordingConversation = { type: "conversation", connection, config };
    this.#write(line);
  }

  frame(frame: { channel: RecordingFrame["channel"]; direction: RecordingFrame["direction"]; connection?: number; conversationId?: string; messageKey: string; message: unknown }): void {
    this.#frames += 1;
    const line: RecordingFrame = { type: "frame", seq: this.#frames, atMs: Date.now() - this.#startedAt, ...frame };
    this.#write(line);
  }

  /** Flushes and closes the file. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      if (this.#stream.closed) {
        resolve();
        return;
      }
      this.#stream.end(() => resolve());
      this.#stream.once("error", () => resolve());
    });
    return this.#closing;
  }

  #write(line: object): void {
    if (this.#failed || this.#closing !== undefined) return;
    try {
      this.#stream.write(`${JSON.stringify(line)}\n`);
    } catch (error) {
      this.#failed = true;
      this.#logger.warn({ error: String(error) }, "the wire recording could not be written; recording stops");
    }
  }
}

let recordingsStarted = 0;

/** A recording target ending in "/" is a directory: each process records to its own file in it. */
export function recordingFile(target: string | undefined): string | undefined {
  if (target === undefined || !target.endsWith("/")) return target;
  recordingsStarted += 1;
  return join(target, `session-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}-${recordingsStarted}.jsonl`);
}

