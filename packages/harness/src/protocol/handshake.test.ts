import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/protocol-fixtures.js";
import { encodeFrame, FrameReader } from "./frames.js";
import { decodeInputConfig, decodeOutputConfig, encodeInputConfig, encodeOutputConfig, type InputConfig } from "./handshake.js";
import { ProtocolError } from "./protocol-error.js";

const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/\s+/g, ""), "hex"));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** The fixture's snake_case field names, as the codec's camelCase InputConfig. */
function inputConfigOf(fields: Record<string, unknown>): InputConfig {
  const clientInfo = fields["client_info"] as Record<string, string> | undefined;
  const config: InputConfig = {};
  if (typeof fields["storage_directory"] === "string") config.storageDirectory = fields["storage_directory"];
  if (typeof fields["port"] === "number") config.port = fields["port"];
  if (typeof fields["bind_address"] === "string") config.bindAddress = fields["bind_address"];
  if (clientInfo !== undefined) {
    config.clientInfo = {};
    if (clientInfo["language"] !== undefined) config.clientInfo.language = clientInfo["language"];
    if (clientInfo["version"] !== undefined) config.clientInfo.version = clientInfo["version"];
    if (clientInfo["language_version"] !== undefined) config.clientInfo.languageVersion = clientInfo["language_version"];
    if (clientInfo["os"] !== undefined) config.clientInfo.os = clientInfo["os"];
    if (clientInfo["os_version"] !== undefined) config.clientInfo.osVersion = clientInfo["os_version"];
  }
  if (fields["env"] !== undefined) config.env = fields["env"] as Record<string, string>;
  return config;
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

describe("golden handshake bytes (docs/protocol.md, The stdio handshake)", () => {
  const fullInputConfig: InputConfig = {
    storageDirectory: "/tmp/storage",
    port: 8080,
    bindAddress: "127.0.0.1",
    clientInfo: { language: "rust", version: "0.7.2", languageVersion: "1.88" },
  };
  const fullInputConfigHex = `
    0a 0c 2f746d702f73746f72616765
    10 90 3f
    1a 09 3132372e302e302e31
    22 13 0a 04 72757374 12 05 302e372e32 1a 04 312e3838`;

  it("encodes and decodes the full InputConfig, framed with a 49-byte little-endian prefix", () => {
    const payload = encodeInputConfig(fullInputConfig);
    expect(toHex(payload)).toBe(toHex(fromHex(fullInputConfigHex)));
    expect(toHex(encodeFrame(payload).subarray(0, 4))).toBe("31000000");
    expect(decodeInputConfig(fromHex(fullInputConfigHex))).toEqual(fullInputConfig);
  });

  it("encodes and decodes the OutputConfig", () => {
    const bytes = fromHex("08 b1 a8 03 12 10 7365637265742d746f6b656e2d313233");
    expect(decodeOutputConfig(bytes)).toEqual({ port: 54321, apiKey: "secret-token-123" });
    expect(toHex(encodeOutputConfig({ port: 54321, apiKey: "secret-token-123" }))).toBe(toHex(bytes));
  });

  for (const [index, message] of loadFixture("handshake").messages.entries()) {
    const golden = message.json as { message?: string; fields?: Record<string, unknown>; payloadHex?: string; frameHex?: string };
    if (golden.payloadHex === undefined || golden.fields === undefined || golden.frameHex === undefined) continue;
    const payloadHex = golden.payloadHex;
    const frameHex = golden.frameHex;
    const fields = golden.fields;

    it(`handshake.json[${index}] ${golden.message ?? ""} encodes, frames and decodes exactly`, () => {
      if (golden.message === "antigravity.localharness.OutputConfig") {
        const config = { port: fields["port"] as number, apiKey: fields["api_key"] as string };
        expect(toHex(encodeOutputConfig(config))).toBe(payloadHex);
        expect(toHex(encodeFrame(encodeOutputConfig(config)))).toBe(frameHex);
        expect(decodeOutputConfig(fromHex(payloadHex))).toEqual(config);
      } else {
        const config = inputConfigOf(fields);
        expect(toHex(encodeInputConfig(config))).toBe(payloadHex);
        expect(toHex(encodeFrame(encodeInputConfig(config)))).toBe(frameHex);
        expect(decodeInputConfig(fromHex(payloadHex))).toEqual(config);
      }
      const reader = new FrameReader();
      expect(reader.push(fromHex(frameHex)).map(toHex)).toEqual([payloadHex]);
      reader.end();
    });
  }
});

describe("handshake codec", () => {
  it("omits empty strings and a zero port", () => {
    expect(encodeInputConfig({ storageDirectory: "", port: 0, bindAddress: "" }).length).toBe(0);
    expect(encodeOutputConfig({ port: 0, apiKey: "" }).length).toBe(0);
    expect(decodeOutputConfig(new Uint8Array())).toEqual({ port: 0, apiKey: "" });
    expect(decodeInputConfig(new Uint8Array())).toEqual({});
  });

  it("round-trips the env map, several entries, empty values and non-ASCII text", () => {
    const config: InputConfig = { env: { A: "1", EMPTY: "", ÜNÏCODE: "välue ✓" }, clientInfo: { os: "linux" } };
    expect(decodeInputConfig(encodeInputConfig(config))).toEqual(config);
  });

  it("round-trips a negative OutputConfig port (int32 as a 10-byte varint)", () => {
    const bytes = encodeOutputConfig({ port: -1, apiKey: "k" });
    expect(bytes.length).toBe(1 + 10 + 3);
    expect(decodeOutputConfig(bytes)).toEqual({ port: -1, apiKey: "k" });
  });

  it("skips unknown fields of every wire type, at top level and nested", () => {
    const writer = new BinaryWriter();
    writer.tag(9, WireType.Varint).uint64(123456789012n);
    writer.tag(10, WireType.Bit64).fixed64(1n);
    writer.tag(11, WireType.LengthDelimited).string("ignored");
    writer.tag(12, WireType.Bit32).fixed32(7);
    writer.tag(1, WireType.Varint).int32(54321);
    writer.tag(13, WireType.StartGroup).tag(1, WireType.Varint).uint32(1).tag(13, WireType.EndGroup);
    writer.tag(2, WireType.LengthDelimited).string("token");
    expect(decodeOutputConfig(writer.finish())).toEqual({ port: 54321, apiKey: "token" });

    const nested = new BinaryWriter();
    nested.tag(4, WireType.LengthDelimited).fork().tag(7, WireType.Bit32).fixed32(1).tag(1, WireType.LengthDelimited).string("ts").join();
    expect(decodeInputConfig(nested.finish())).toEqual({ clientInfo: { language: "ts" } });
  });

  it("rejects payloads cut inside a field with PROTOCOL_INVALID_FRAME and the offset", () => {
    // Protobuf has no end marker: a cut at a field boundary is a valid shorter message (the frame's
    // length prefix is what catches that), so only cuts inside a field must fail.
    const full = encodeOutputConfig({ port: 54321, apiKey: "secret-token-123" });
    const portFieldEnd = encodeOutputConfig({ port: 54321, apiKey: "" }).length;
    expect(decodeOutputConfig(full.subarray(0, portFieldEnd))).toEqual({ port: 54321, apiKey: "" });
    for (let length = 1; length < full.length; length += 1) {
      if (length === portFieldEnd) continue;
      const error = protocolErrorOf(() => decodeOutputConfig(full.subarray(0, length)));
      expect(error.code).toBe("PROTOCOL_INVALID_FRAME");
      expect(error.details.messageType).toBe("OutputConfig");
      expect(error.details.offset).toBeLessThanOrEqual(length);
    }

    const growing: InputConfig[] = [
      { storageDirectory: "/s" },
      { storageDirectory: "/s", port: 9 },
      { storageDirectory: "/s", port: 9, clientInfo: { language: "rust", version: "1" } },
      { storageDirectory: "/s", port: 9, clientInfo: { language: "rust", version: "1" }, env: { K: "V" } },
    ];
    const boundaries = new Set(growing.map((config) => encodeInputConfig(config).length));
    const input = encodeInputConfig(growing.at(-1)!);
    for (let length = 1; length < input.length; length += 1) {
      if (boundaries.has(length)) continue;
      expect(protocolErrorOf(() => decodeInputConfig(input.subarray(0, length))).code, `cut at ${length}`).toBe(
        "PROTOCOL_INVALID_FRAME",
      );
    }
  });

  it("rejects garbage: bad tags, wrong wire types, invalid UTF-8", () => {
    expect(protocolErrorOf(() => decodeOutputConfig(fromHex("00"))).code).toBe("PROTOCOL_INVALID_FRAME");
    expect(protocolErrorOf(() => decodeOutputConfig(fromHex("0f"))).code).toBe("PROTOCOL_INVALID_FRAME");
    expect(protocolErrorOf(() => decodeOutputConfig(fromHex("0a 01 41"))).message).toMatch(/wire type/);
    expect(protocolErrorOf(() => decodeOutputConfig(fromHex("12 02 c3 28"))).code).toBe("PROTOCOL_INVALID_FRAME");
    expect(protocolErrorOf(() => decodeInputConfig(fromHex("22 05 0a 09 41 41 41"))).code).toBe("PROTOCOL_INVALID_FRAME");
  });
});
