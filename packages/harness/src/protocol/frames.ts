import { ProtocolError } from "./protocol-error.js";

/** genai-rs rejects handshake frames above 4 MiB before allocating; so do we. */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

const HEADER_BYTES = 4;

/**
 * Prefixes a payload with its length as a 4-byte little-endian uint32 (the stdio handshake framing).
 *
 * @example
 * child.stdin.write(encodeFrame(encodeInputConfig({ storageDirectory })));
 */
export function encodeFrame(payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(HEADER_BYTES + payload.length);
  new DataView(frame.buffer).setUint32(0, payload.length, true);
  frame.set(payload, HEADER_BYTES);
  return frame;
}

export interface FrameReaderOptions {
  /** Largest payload accepted; a header announcing more fails at once, before the body is buffered. */
  maxFrameBytes?: number;
}

/**
 * Reassembles length-prefixed frames from a byte stream that may split them anywhere
 * (a pipe delivers whatever chunks it likes).
 *
 * @example
 * const reader = new FrameReader({ maxFrameBytes: 1024 });
 * child.stdout.on("data", (chunk: Buffer) => {
 *   for (const payload of reader.push(chunk)) handle(decodeOutputConfig(payload));
 * });
 * child.stdout.on("end", () => reader.end());
 */
export class FrameReader {
  readonly #maxFrameBytes: number;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  /** Payload length of the frame being read, once its header is complete. */
  #announced: number | undefined;
  /** Bytes consumed before the buffer start, so errors can name a stream offset. */
  #consumed = 0;
  #failed = false;

  constructor(options: FrameReaderOptions = {}) {
    const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 0) {
      throw new RangeError(`maxFrameBytes must be a non-negative integer, got ${String(maxFrameBytes)}`);
    }
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Bytes received but not yet returned as part of a complete frame. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Adds bytes and returns the payloads of every frame they complete, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.#failed) {
      throw new ProtocolError("PROTOCOL_INVALID_FRAME", "FrameReader already failed; its stream cannot be resynchronised", {
        offset: this.#consumed,
      });
    }
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.#announced === undefined) {
        if (this.#buffered < HEADER_BYTES) break;
        const header = this.#take(HEADER_BYTES);
        const announced = new DataView(header.buffer, header.byteOffset, HEADER_BYTES).getUint32(0, true);
        if (announced > this.#maxFrameBytes) {
          this.#fail();
          throw new ProtocolError(
            "PROTOCOL_FRAME_TOO_LARGE",
            `frame header announces ${announced} bytes, more than the ${this.#maxFrameBytes}-byte bound`,
            { announcedLength: announced, maxFrameBytes: this.#maxFrameBytes, offset: this.#consumed - HEADER_BYTES },
          );
        }
        this.#announced = announced;
      }
      if (this.#buffered < this.#announced) break;
      frames.push(this.#take(this.#announced));
      this.#announced = undefined;
    }
    return frames;
  }

  /** Declares the stream finished; throws if it stopped inside a frame. */
  end(): void {
    if (this.#announced !== undefined || this.#buffered > 0) {
      const announced = this.#announced;
      const pending = this.#buffered;
      this.#fail();
      throw new ProtocolError(
        "PROTOCOL_INVALID_FRAME",
        announced === undefined
          ? `stream ended inside a frame header (${pending} of ${HEADER_BYTES} bytes)`
          : `stream ended inside a frame: ${pending} of ${announced} payload bytes received`,
        announced === undefined ? { offset: this.#consumed } : { offset: this.#consumed, announcedLength: announced },
      );
    }
  }

  /** A failed stream cannot be resynchronised; its bytes are dropped so a hostile peer cannot pin memory. */
  #fail(): void {
    this.#failed = true;
    this.#chunks = [];
    this.#buffered = 0;
    this.#announced = undefined;
  }

  /** Removes and returns the first `length` buffered bytes (the caller checked they are there). */
  #take(length: number): Uint8Array {
    const out = new Uint8Array(length);
    let written = 0;
    while (written < length) {
      const head = this.#chunks[0];
      if (head === undefined) break;
      const needed = length - written;
      if (head.length <= needed) {
        out.set(head, written);
        written += head.length;
        this.#chunks.shift();
      } else {
        out.set(head.subarray(0, needed), written);
        written += needed;
        this.#chunks[0] = head.subarray(needed);
      }
    }
    this.#buffered -= length;
    this.#consumed += length;
    return out;
  }
}
