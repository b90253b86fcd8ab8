// A deliberately independent, minimal protobuf writer/reader for the two handshake messages, so
// the emulator's stdio framing is checked against bytes this test builds itself.

function varint(value: number): number[] {
  const bytes: number[] = [];
  let remaining = value >>> 0;
  while (remaining >= 0x80) {
    bytes.push((remaining & 0x7f) | 0x80);
    remaining >>>= 7;
  }
  bytes.push(remaining);
  return bytes;
}

function lengthDelimited(field: number, payload: number[]): number[] {
  return [(field << 3) | 2, ...varint(payload.length), ...payload];
}

function text(field: number, value: string): number[] {
  return lengthDelimited(field, [...Buffer.from(value, "utf8")]);
}

export interface RawInputConfig {
  storageDirectory?: string;
  port?: number;
  bindAddress?: string;
  clientInfo?: { language?: string; version?: string; languageVersion?: string; os?: string; osVersion?: string };
  env?: Record<string, string>;
}

export function encodeRawInputConfig(config: RawInputConfig): Buffer {
  const bytes: number[] = [];
  if (config.storageDirectory) bytes.push(...text(1, config.storageDirectory));
  if (config.port) bytes.push((2 << 3) | 0, ...varint(config.port));
  if (config.bindAddress) bytes.push(...text(3, config.bindAddress));
  if (config.clientInfo) {
    const info = config.clientInfo;
    const inner: number[] = [];
    [info.language, info.version, info.languageVersion, info.os, info.osVersion].forEach((value, index) => {
      if (value) inner.push(...text(index + 1, value));
    });
    bytes.push(...lengthDelimited(4, inner));
  }
  for (const [key, value] of Object.entries(config.env ?? {})) bytes.push(...lengthDelimited(5, [...text(1, key), ...text(2, value)]));
  return Buffer.from(bytes);
}

export function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

/** Decodes OutputConfig{1: int32 port, 2: string api_key}, skipping unknown fields. */
export function decodeRawOutputConfig(payload: Buffer): { port: number; apiKey: string; fieldTags: number[] } {
  let offset = 0;
  const readVarint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = payload[offset++] as number;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  };
  let port = 0;
  let apiKey = "";
  const fieldTags: number[] = [];
  while (offset < payload.length) {
    const tag = readVarint();
    fieldTags.push(tag);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === 0) {
      const value = readVarint();
      if (field === 1) port = value;
    } else if (wireType === 2) {
      const length = readVarint();
      const value = payload.subarray(offset, offset + length);
      offset += length;
      if (field === 2) apiKey = value.toString("utf8");
    } else throw new Error(`unexpected wire type ${wireType}`);
  }
  return { port, apiKey, fieldTags };
}
