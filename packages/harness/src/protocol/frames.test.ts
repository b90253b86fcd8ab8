import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameReader } from "./frames.js";
import { decodeOutputConfig, encodeOutputConfig } from "./handshake.js";
import { ProtocolError } from "./protocol-error.js";

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Feeds `bytes` cut at the given offsets and returns every payload, checking the stream ended cleanly. */
function readAll(bytes: Uint8Array, cuts: number[], reader = new FrameReader()): string[] {
  const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), bytes.length];
  const frames: string[] = [];
  for (let index = 1; index < points.length; index += 1) {
    frames.push(...reader.push(bytes.subarray(points[index - 1], points[index])).map(toHex));
  }
  reader.end();
  return frames;
}

function protocolErrorOf(run: () => unknown): ProtocolError {
  try {
    run();
  } catch (error) {
    if (ProtocolError.isInstance(error)) return error;
    throw new Error(`expected a ProtocolError, got ${String(error)}`);
  }
  throw new Error("expected a ProtocolError, nothing was thrown");
}

describe("encodeFrame", () => {
  it("prefixes the payload with its length as a little-endian uint32", () => {
    expect(toHex(encodeFrame(new Uint8Array(0x0102)).subarray(0, 4))).toBe("02010000");
    expect(toHex(encodeFrame(Uint8Array.of(0xaa)))).toBe("01000000aa");
  });
});

describe("FrameReader", () => {
  const payload = encodeOutputConfig({ port: 54321, apiKey: "secret-token-123" });
  const frame = encodeFrame(payload);

  it("gives the same frame for every split point", () => {
    for (let cut = 0; cut <= frame.length; cut += 1) {
      expect(readAll(frame, [cut]), `cut at ${cut}`).toEqual([toHex(payload)]);
    }
  });

  it("gives the same two frames for every split point of two frames back to back", () => {
    const second = Uint8Array.of(1, 2, 3);
    const stream = concat(frame, encodeFrame(second));
    for (let cut = 0; cut <= stream.length; cut += 1) {
      expect(readAll(stream, [cut]), `cut at ${cut}`).toEqual([toHex(payload), toHex(second)]);
    }
  });

  it("delivers an empty payload as a frame", () => {
    expect(readAll(encodeFrame(new Uint8Array()), [])).toEqual([""]);
  });

  it("reports buffered bytes until a frame completes", () => {
    const reader = new FrameReader();
    expect(reader.push(frame.subarray(0, 6))).toEqual([]);
    expect(reader.bufferedBytes).toBe(2);
    expect(reader.push(frame.subarray(6))).toHaveLength(1);
    expect(reader.bufferedBytes).toBe(0);
  });

  it("throws PROTOCOL_INVALID_FRAME when the stream ends inside a header or a payload", () => {
    for (let length = 1; length < frame.length; length += 1) {
      const reader = new FrameReader();
      reader.push(frame.subarray(0, length));
      const error = protocolErrorOf(() => reader.end());
      expect(error.code).toBe("PROTOCOL_INVALID_FRAME");
      if (length >= 4) expect(error.details.announcedLength).toBe(payload.length);
    }
  });

  it("throws PROTOCOL_FRAME_TOO_LARGE as soon as the header announces more than the bound", () => {
    const reader = new FrameReader({ maxFrameBytes: 16 });
    const header = encodeFrame(new Uint8Array(17)).subarray(0, 4);
    const error = protocolErrorOf(() => reader.push(header));
    expect(error.code).toBe("PROTOCOL_FRAME_TOO_LARGE");
    expect(error.details).toMatchObject({ announcedLength: 17, maxFrameBytes: 16 });
    expect(reader.bufferedBytes).toBe(0);
    // Once failed, the stream cannot be resynchronised.
    expect(protocolErrorOf(() => reader.push(new Uint8Array(1))).code).toBe("PROTOCOL_INVALID_FRAME");
  });

  it("defaults the bound to 4 MiB and rejects a garbage header announcing gigabytes without buffering it", () => {
    expect(DEFAULT_MAX_FRAME_BYTES).toBe(4 * 1024 * 1024);
    const reader = new FrameReader();
    expect(reader.push(encodeFrame(new Uint8Array(0)))).toHaveLength(1);
    const error = protocolErrorOf(() => reader.push(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x01)));
    expect(error.code).toBe("PROTOCOL_FRAME_TOO_LARGE");
    expect(error.details.announcedLength).toBe(0xffffffff);
    expect(error.details.offset).toBe(4);
  });

  it("accepts a frame of exactly the bound", () => {
    expect(readAll(encodeFrame(new Uint8Array(16)), [3, 9], new FrameReader({ maxFrameBytes: 16 }))).toHaveLength(1);
  });

  it("rejects an invalid bound", () => {
    expect(() => new FrameReader({ maxFrameBytes: -1 })).toThrow(RangeError);
  });

  it("property: any payloads, any chunking, give back the payloads in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (payloads, rawCuts) => {
          const stream = concat(...payloads.map(encodeFrame));
          const cuts = rawCuts.map((cut) => (stream.length === 0 ? 0 : cut % (stream.length + 1)));
          expect(readAll(stream, cuts)).toEqual(payloads.map(toHex));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: garbage bytes through the reader and the decoder fail only with typed errors", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.array(fc.nat(), { maxLength: 6 }), (bytes, rawCuts) => {
        const cuts = rawCuts.map((cut) => cut % (bytes.length + 1));
        try {
          for (const payload of readAllRaw(bytes, cuts, new FrameReader({ maxFrameBytes: 64 }))) decodeOutputConfig(payload);
        } catch (error) {
          expect(ProtocolError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

function readAllRaw(bytes: Uint8Array, cuts: number[], reader: FrameReader): Uint8Array[] {
  const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), bytes.length];
  const frames: Uint8Array[] = [];
  for (let index = 1; index < points.length; index += 1) frames.push(...reader.push(bytes.subarray(points[index - 1], points[index])));
  reader.end();
  return frames;
}
