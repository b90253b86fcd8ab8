import { createHash } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import {
  DescriptorProtoSchema,
  EnumDescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  MessageOptionsSchema,
  type DescriptorProto,
  type EnumDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import yazl from "yazl";
import { z } from "zod/v4";
import { inVersionRange } from "../../src/protocol/harness-versions.js";
import { InitializeConversationEventSchema, InputEventSchema, OutputEventSchema } from "../../src/protocol/messages.js";
import { alternativesOf, unwrapField } from "../../src/protocol/versioned.js";
import { enumNameRange, knownEnumNames } from "../../src/protocol/wire-types.js";

/*
 * Test doubles for `antigravity-harness install` and `doctor`: a google-antigravity wheel built on the
 * spot (a small executable standing in for localharness, and a `localharness_pb2.py` whose serialized
 * descriptor is generated from this client's own schemas), and a simple index serving it.
 */

/**
 * A FileDescriptorProto of the three frames as the client's schemas describe `version`: what the real
 * wheel of that release ships, as far as the client knows it. `extraField` adds one field to
 * HarnessConfig, standing in for a release that knows more than the client.
 */
export function descriptorFromSchemas(version: string, options: { extraField?: string } = {}): Uint8Array {
  const messages: DescriptorProto[] = [];
  const enums: EnumDescriptorProto[] = [];
  let counter = 0;
  // genai.Struct refers to itself: each schema becomes one message, however often it is reached.
  const names = new Map<z.ZodType, string>();
  const messageFor = (schema: z.ZodObject, name: string): string => {
    const known = names.get(schema);
    if (known !== undefined) return known;
    names.set(schema, name);
    const message = create(DescriptorProtoSchema, { name });
    messages.push(message);
    for (const [fieldName, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const { inner, range } = unwrapField(fieldSchema);
      if (range !== undefined && !inVersionRange(version, range)) continue;
      let target = inner;
      let repeated = false;
      for (;;) {
        if (target instanceof z.ZodArray) {
          repeated = true;
          target = unwrapField(target.element as z.ZodType).inner;
        } else if (target instanceof z.ZodLazy) {
          target = unwrapField(target.unwrap() as z.ZodType).inner;
        } else {
          const alternative = alternativesOf(target)?.find((candidate) => inVersionRange(version, candidate.range));
          if (alternative === undefined) break;
          target = unwrapField(alternative.schema).inner;
        }
      }
      const field = create(FieldDescriptorProtoSchema, {
        name: fieldName,
        number: message.field.length + 1,
        label: repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
        type: FieldDescriptorProto_Type.STRING,
      });
      const enumNames = knownEnumNames(target);
      if (enumNames !== undefined) {
        const enumName = `E${(counter += 1)}`;
        const names = [...enumNames].filter((value) => {
          const valueRange = enumNameRange(target, value);
          return valueRange === undefined || inVersionRange(version, valueRange);
        });
        enums.push(create(EnumDescriptorProtoSchema, { name: enumName, value: names.map((value, number) => ({ name: value, number })) }));
        field.type = FieldDescriptorProto_Type.ENUM;
        field.typeName = `.antigravity.localharness.${enumName}`;
      } else if (target instanceof z.ZodRecord) {
        const entry = create(DescriptorProtoSchema, { name: `Entry${(counter += 1)}`, options: create(MessageOptionsSchema, { mapEntry: true }) });
        entry.field.push(create(FieldDescriptorProtoSchema, { name: "key", number: 1, type: FieldDescriptorProto_Type.STRING }));
        entry.field.push(create(FieldDescriptorProtoSchema, { name: "value", number: 2, type: FieldDescriptorProto_Type.STRING }));
        messages.push(entry);
        field.type = FieldDescriptorProto_Type.MESSAGE;
        field.label = FieldDescriptorProto_Label.REPEATED;
        field.typeName = `.antigravity.localharness.${entry.name}`;
      } else if (target instanceof z.ZodObject) {
        field.type = FieldDescriptorProto_Type.MESSAGE;
        field.typeName = `.antigravity.localharness.${messageFor(target, `M${(counter += 1)}`)}`;
      }
      message.field.push(field);
    }
    return name;
  };
  messageFor(InitializeConversationEventSchema as unknown as z.ZodObject, "InitializeConversationEvent");
  messageFor(InputEventSchema as unknown as z.ZodObject, "InputEvent");
  messageFor(OutputEventSchema as unknown as z.ZodObject, "OutputEvent");
  if (options.extraField !== undefined) {
    const config = messages.find((message) => message.name === "InitializeConversationEvent")?.field.find((field) => field.name === "config");
    const harnessConfig = messages.find((message) => `.antigravity.localharness.${message.name}` === config?.typeName);
    harnessConfig?.field.push(create(FieldDescriptorProtoSchema, { name: options.extraField, number: 999, type: FieldDescriptorProto_Type.STRING }));
  }
  return toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, { name: "localharness.proto", package: "antigravity.localharness", messageType: messages, enumType: enums }));
}

/** A generated `_pb2` module around a serialized descriptor, as protoc writes it (split bytes literals). */
export function pythonDescriptorModule(descriptor: Uint8Array): string {
  const escaped = [...descriptor].map((byte) => (byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`));
  const lines: string[] = [];
  for (let index = 0; index < escaped.length; index += 60) lines.push(`    b'${escaped.slice(index, index + 60).join("")}'`);
  return `# Generated by the protocol buffer compiler.  DO NOT EDIT!\nDESCRIPTOR = _descriptor_pool.Default().AddSerializedFile(\n${lines.join("\n")})\n`;
}

/** A wheel (zip) with a stand-in binary and, unless left out, a descriptor module. */
export async function buildWheel(options: { version: string; descriptor?: Uint8Array | undefined; binaryScript?: string }): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(options.binaryScript ?? `#!/bin/sh\necho "localharness ${options.version}"\n`), "google/antigravity/bin/localharness", { mode: 0o100755 });
  zip.addBuffer(Buffer.from("# the SDK\n"), "google/antigravity/__init__.py");
  if (options.descriptor !== undefined) zip.addBuffer(Buffer.from(pythonDescriptorModule(options.descriptor)), "google/antigravity/connections/local/localharness_pb2.py");
  zip.addBuffer(Buffer.from(`Name: google-antigravity\nVersion: ${options.version}\n`), `google_antigravity-${options.version}.dist-info/METADATA`);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file the fake index serves. */
export interface ServedWheel {
  filename: string;
  body: Buffer;
  /** Default: the body's real sha256. */
  sha256?: string;
}

/** A PEP 503 (HTML) or PEP 691 (JSON) simple index on a free local port, serving wheels of google-antigravity. */
export class FakePackageIndex {
  readonly requests: string[] = [];
  readonly #server: Server;
  #wheels: ServedWheel[] = [];
  /** Set to make a download stop half way (the connection is destroyed). */
  cutDownloadsAt: number | undefined;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(format: "html" | "json" = "html"): Promise<FakePackageIndex> {
    const server = createServer((request, response) => index.handle(request.url ?? "/", format, response));
    const index = new FakePackageIndex(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return index;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/simple`;
  }

  serve(wheels: ServedWheel[]): void {
    this.#wheels = wheels;
  }

  handle(url: string, format: "html" | "json", response: ServerResponse): void {
    this.requests.push(url);
    if (url === "/simple/google-antigravity/") {
      const files = this.#wheels.map((wheel) => ({ filename: wheel.filename, url: `/files/${wheel.filename}`, sha256: wheel.sha256 ?? createHash("sha256").update(wheel.body).digest("hex") }));
      if (format === "json") {
        response.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json" });
        response.end(JSON.stringify({ meta: { "api-version": "1.0" }, name: "google-antigravity", files: files.map((file) => ({ filename: file.filename, url: file.url, hashes: { sha256: file.sha256 } })) }));
      } else {
        response.writeHead(200, { "content-type": "text/html" });
        response.end(`<!DOCTYPE html><html><body>${files.map((file) => `<a href="../..${file.url}#sha256=${file.sha256}">${file.filename}</a><br/>`).join("\n")}</body></html>`);
      }
      return;
    }
    const wheel = this.#wheels.find((candidate) => url === `/files/${candidate.filename}`);
    if (wheel === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(wheel.body.length) });
    if (this.cutDownloadsAt === undefined) {
      response.end(wheel.body);
      return;
    }
    response.write(wheel.body.subarray(0, this.cutDownloadsAt), () => response.destroy());
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
