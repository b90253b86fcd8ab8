import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { ProtocolError } from "./protocol-error.js";

/** `ClientInfo`: who is talking to the harness (field numbers 1..5). */
export interface ClientInfo {
  language?: string;
  version?: string;
  languageVersion?: string;
  os?: string;
  osVersion?: string;
}

/** `InputConfig`: the one binary message the client writes to the harness's stdin. */
export interface InputConfig {
  storageDirectory?: string;
  port?: number;
  bindAddress?: string;
  clientInfo?: ClientInfo;
  /** Extra environment for the harness's subprocesses (0.1.7+). */
  env?: Record<string, string>;
}

/** `OutputConfig`: the harness's stdout reply: its WebSocket port and per-process token. */
export interface OutputConfig {
  port: number;
  apiKey: string;
}

const clientInfoFields = ["language", "version", "languageVersion", "os", "osVersion"] as const;

/**
 * Encodes an InputConfig payload (no frame prefix). Empty strings and a zero port are omitted, as
 * the reference encoders do, so the bytes match theirs.
 *
 * @example
 * const frame = encodeFrame(encodeInputConfig({ storageDirectory: "/tmp/agent", clientInfo: { language: "typescript" } }));
 */
export function encodeInputConfig(config: InputConfig): Uint8Array {
  const writer = new BinaryWriter();
  if (config.storageDirectory) writer.tag(1, WireType.LengthDelimited).string(config.storageDirectory);
  if (config.port) writer.tag(2, WireType.Varint).uint32(config.port);
  if (config.bindAddress) writer.tag(3, WireType.LengthDelimited).string(config.bindAddress);
  if (config.clientInfo !== undefined) {
    writer.tag(4, WireType.LengthDelimited).fork();
    clientInfoFields.forEach((field, index) => {
      const value = config.clientInfo?.[field];
      if (value) writer.tag(index + 1, WireType.LengthDelimited).string(value);
    });
    writer.join();
  }
  for (const [key, value] of Object.entries(config.env ?? {})) {
    // Map entries always carry both key and value, even when empty.
    writer.tag(5, WireType.LengthDelimited).fork();
    writer.tag(1, WireType.LengthDelimited).string(key);
    writer.tag(2, WireType.LengthDelimited).string(value);
    writer.join();
  }
  return writer.finish();
}

/** Encodes an OutputConfig payload (what the harness, or the emulator, writes to stdout). */
export function encodeOutputConfig(config: OutputConfig): Uint8Array {
  const writer = new BinaryWriter();
  if (config.port) writer.tag(1, WireType.Varint).int32(config.port);
  if (config.apiKey) writer.tag(2, WireType.LengthDelimited).string(config.apiKey);
  return writer.finish();
}

/** Decodes an InputConfig payload; unknown fields of any wire type are skipped. */
export function decodeInputConfig(bytes: Uint8Array): InputConfig {
  return decodeGuarded("InputConfig", bytes, (reader) => {
    const config: InputConfig = {};
    readFields(reader, reader.len, "InputConfig", (fieldNumber, wireType) => {
      switch (fieldNumber) {
        case 1:
          expectWireType("InputConfig.storageDirectory", wireType, WireType.LengthDelimited, reader);
          config.storageDirectory = reader.string(true);
          return true;
        case 2:
          expectWireType("InputConfig.port", wireType, WireType.Varint, reader);
          config.port = reader.uint32();
          return true;
        case 3:
          expectWireType("InputConfig.bindAddress", wireType, WireType.LengthDelimited, reader);
          config.bindAddress = reader.string(true);
          return true;
        case 4:
          expectWireType("InputConfig.clientInfo", wireType, WireType.LengthDelimited, reader);
          config.clientInfo = { ...config.clientInfo, ...readClientInfo(reader) };
          return true;
        case 5: {
          expectWireType("InputConfig.env", wireType, WireType.LengthDelimited, reader);
          const [key, value] = readStringMapEntry(reader);
          config.env = { ...config.env, [key]: value };
          return true;
        }
        default:
          return false;
      }
    });
    return config;
  });
}

/**
 * Decodes an OutputConfig payload; absent fields decode to their proto3 defaults (0 and "").
 *
 * @example
 * const [payload] = new FrameReader().push(stdoutChunk);
 * const { port, apiKey } = decodeOutputConfig(payload);
 */
export function decodeOutputConfig(bytes: Uint8Array): OutputConfig {
  return decodeGuarded("OutputConfig", bytes, (reader) => {
    const config: OutputConfig = { port: 0, apiKey: "" };
    readFields(reader, reader.len, "OutputConfig", (fieldNumber, wireType) => {
      switch (fieldNumber) {
        case 1:
          expectWireType("OutputConfig.port", wireType, WireType.Varint, reader);
          config.port = reader.int32();
          return true;
        case 2:
          expectWireType("OutputConfig.apiKey", wireType, WireType.LengthDelimited, reader);
          config.apiKey = reader.string(true);
          return true;
        default:
          return false;
      }
    });
    return config;
  });
}

function readClientInfo(reader: BinaryReader): ClientInfo {
  const end = nestedEnd(reader);
  const info: ClientInfo = {};
  readFields(reader, end, "ClientInfo", (fieldNumber, wireType) => {
    const field = clientInfoFields[fieldNumber - 1];
    if (field === undefined) return false;
    expectWireType(`ClientInfo.${field}`, wireType, WireType.LengthDelimited, reader);
    info[field] = reader.string(true);
    return true;
  });
  return info;
}

function readStringMapEntry(reader: BinaryReader): [string, string] {
  const end = nestedEnd(reader);
  let key = "";
  let value = "";
  readFields(reader, end, "InputConfig.EnvEntry", (fieldNumber, wireType) => {
    if (fieldNumber !== 1 && fieldNumber !== 2) return false;
    expectWireType("InputConfig.EnvEntry", wireType, WireType.LengthDelimited, reader);
    if (fieldNumber === 1) key = reader.string(true);
    else value = reader.string(true);
    return true;
  });
  return [key, value];
}

/** Reads the length prefix of a nested message and returns the offset where it ends. */
function nestedEnd(reader: BinaryReader): number {
  const start = reader.pos;
  const length = reader.uint32();
  const end = reader.pos + length;
  if (end > reader.len) {
    throw invalidFrame(`nested message at offset ${start} announces ${length} bytes past the end of the payload`, start);
  }
  return end;
}

/**
 * Walks the fields up to `end`, handing each to `readKnown`; a field it does not know
 * (returns false) is skipped whatever its wire type, as proto3 requires.
 */
function readFields(
  reader: BinaryReader,
  end: number,
  messageType: string,
  readKnown: (fieldNumber: number, wireType: WireType) => boolean,
): void {
  while (reader.pos < end) {
    const [fieldNumber, wireType] = reader.tag();
    if (!readKnown(fieldNumber, wireType)) reader.skip(wireType, fieldNumber);
    if (reader.pos > end) {
      throw invalidFrame(`${messageType} field ${fieldNumber} runs past the end of its message`, reader.pos);
    }
  }
}

function expectWireType(field: string, actual: WireType, expected: WireType, reader: BinaryReader): void {
  if (actual !== expected) {
    throw invalidFrame(`${field} has wire type ${actual}, expected ${expected}`, reader.pos);
  }
}

function invalidFrame(message: string, offset: number): ProtocolError {
  return new ProtocolError("PROTOCOL_INVALID_FRAME", message, { offset });
}

/** Turns any decoding failure (truncation, bad tag, invalid UTF-8) into a typed error naming the offset. */
function decodeGuarded<T>(messageType: string, bytes: Uint8Array, decode: (reader: BinaryReader) => T): T {
  const reader = new BinaryReader(bytes);
  try {
    return decode(reader);
  } catch (error) {
    if (ProtocolError.isInstance(error)) {
      throw new ProtocolError(error.code, `invalid ${messageType}: ${error.message}`, { ...error.details, messageType });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(
      "PROTOCOL_INVALID_FRAME",
      `invalid ${messageType} payload: ${reason}`,
      { offset: Math.min(reader.pos, bytes.length), messageType },
      { cause: error },
    );
  }
}
