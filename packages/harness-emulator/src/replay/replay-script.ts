import { readFileSync } from "node:fs";
import { parseRecording, type Recording, type RecordingFrame } from "@ag-ui-antigravity/harness/protocol";
import { EmulatorError } from "../errors/emulator-error.js";

/**
 * A recording loaded for replay: the WebSocket frames of each connection, in order. The nth
 * connection a client opens plays the recording's nth connection; the stdio handshake is not
 * replayed (the emulator answers it with its own port and key).
 */
export class ReplayScript {
  readonly source: string;
  readonly recording: Recording;
  readonly #connections: RecordingFrame[][];
  #claimed = 0;

  private constructor(source: string, recording: Recording) {
    this.source = source;
    this.recording = recording;
    const byConnection = new Map<number, RecordingFrame[]>();
    for (const frame of recording.frames) {
      if (frame.channel !== "ws" || frame.connection === undefined) continue;
      const frames = byConnection.get(frame.connection) ?? [];
      frames.push(frame);
      byConnection.set(frame.connection, frames);
    }
    this.#connections = [...byConnection.entries()].sort(([left], [right]) => left - right).map(([, frames]) => frames);
  }

  /** Reads and validates a recording file; a bad file is a start-up error, not a later surprise. */
  static load(path: string): ReplayScript {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new EmulatorError("REPLAY_INVALID", `cannot read the recording ${path}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return new ReplayScript(path, parseRecording(text));
    } catch (error) {
      throw new EmulatorError("REPLAY_INVALID", `invalid recording ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The frames of the next connection, with its number; undefined once the recording has no more. */
  claimConnection(): { connection: number; frames: readonly RecordingFrame[] } | undefined {
    const frames = this.#connections[this.#claimed];
    if (frames === undefined) return undefined;
    this.#claimed += 1;
    return { connection: this.#claimed, frames };
  }

  get connectionCount(): number {
    return this.#connections.length;
  }
}
