import type { Logger } from "@ag-ui-antigravity/foundation";
import { constants, createWriteStream, mkdirSync, openSync, type WriteStream } from "node:fs";
import { dirname, join } from "node:path";
import { RECORDING_FORMAT, type RecordingConversation, type RecordingFrame, type RecordingHeader } from "../protocol/recording.js";

/** The header fields the process knows at spawn time. */
export interface WireRecorderHeader {
  client: { language: string; version: string };
  /** `protocol`: the harness release the client spoke, so a replay can speak it again. */
  harness: { binary: string; version: string; protocol: string };
}

/**
 * How a recording file is opened: created new (an existing file, or a symbolic link at the path,
 * fails the open instead of being overwritten or followed), readable by its owner only (0600: the
 * redaction is a safety net, the file still holds a whole session).
 */
const RECORDING_OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const RECORDING_FILE_MODE = 0o600;

/**
 * Writes a session to a JSONL file (ANTIGRAVITY_WIRE_RECORD): the header, then every frame in the
 * order it crossed the wire. The caller redacts; the recorder only numbers, times and writes. The
 * harness process owns it and closes it at its own close. A file that cannot be created (it exists,
 * a link is in its place, the directory is not writable) is warned about and nothing is recorded.
 */
export class WireRecorder {
  /** Undefined when the file could not be created: nothing is recorded. */
  readonly #stream: WriteStream | undefined;
  readonly #startedAt = Date.now();
  readonly #logger: Logger;
  #frames = 0;
  #connections = 0;
  #failed = false;
  #closing: Promise<void> | undefined;

  constructor(path: string, header: WireRecorderHeader, logger: Logger) {
    this.#logger = logger;
    this.#stream = createRecordingFile(path, logger);
    if (this.#stream === undefined) {
      this.#failed = true;
      return;
    }
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
      const stream = this.#stream;
      if (stream === undefined || stream.closed) {
        resolve();
        return;
      }
      stream.end(() => resolve());
      stream.once("error", () => resolve());
    });
    return this.#closing;
  }

  #write(line: object): void {
    if (this.#failed || this.#closing !== undefined || this.#stream === undefined) return;
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

/**
 * The recording's file, created new and private (`RECORDING_OPEN_FLAGS`, `RECORDING_FILE_MODE`);
 * undefined, with a warning that says why, when it cannot be.
 */
function createRecordingFile(path: string, logger: Logger): WriteStream | undefined {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch {
    // The open below fails too, and says why.
  }
  try {
    return createWriteStream(path, { fd: openSync(path, RECORDING_OPEN_FLAGS, RECORDING_FILE_MODE) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "EEXIST" ? "a file is already there" : code === "ELOOP" ? "a symbolic link is in its place" : (error as Error).message;
    logger.warn({ path, code }, `the wire recording was not started: ${reason} (a recording is only ever written to a new file)`);
    return undefined;
  }
}
