import type { DescriptorProto, EnumDescriptorProto, FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { z } from "zod/v4";
import { inVersionRange } from "./harness-versions.js";
import { InitializeConversationEventSchema, InputEventSchema, OutputEventSchema } from "./messages.js";
import { alternativesOf, unwrapField } from "./versioned.js";
import { enumNameRange, knownEnumNames } from "./wire-types.js";

/*
 * What a harness release's own protocol description says, against what this client knows of that
 * release. Every google-antigravity wheel ships `localharness_pb2.py`, whose serialized
 * FileDescriptorProto is the release's exact protocol: the one way to learn what a release newer
 * than this client changed before a user meets it (docs/protocol.md, "Versions").
 */

/** Protocol errors of this module, for a descriptor that cannot be read. */
export class DescriptorError extends Error {
  override readonly name = "DescriptorError";
}

/** One difference between the harness's descriptor and the client's schemas. */
export interface ProtocolDifference {
  /** `message.field` (dotted from the frame's root message) or `EnumName.VALUE`. */
  readonly path: string;
  /**
   * `harness-only`: the harness has it and the client does not know it; `client-only`: the client has
   * it and the harness lacks it; `mismatch`: both have the field, one as a message and the other not.
   */
  readonly side: "harness-only" | "client-only" | "mismatch";
  readonly kind: "field" | "enum-value";
  /** True when the client sends the message (the init or an input frame): a client-only entry there is a frame the harness refuses. */
  readonly outbound: boolean;
  /** For a client-only entry, the release the client thinks added it. */
  readonly since?: string;
}

/** `FieldDescriptorProto.Type` values (descriptor.proto), named here so the module needs no runtime import of the well-known types. */
const FIELD_TYPE_MESSAGE = 11;
const FIELD_TYPE_ENUM = 14;

/**
 * Reads the serialized FileDescriptorProto out of a `localharness_pb2.py`: the bytes literal(s)
 * passed to `AddSerializedFile(...)`. Rejects with DescriptorError when the file has none.
 *
 * Asynchronous because it loads protobuf's well-known types on first use: importing them builds
 * descriptor.proto's descriptor (~60 ms), which every process importing the wire schemas (each
 * emulator, each server) paid at start when this module imported them eagerly, for a function only
 * the doctor calls.
 */
export async function descriptorFromPythonModule(source: string): Promise<FileDescriptorProto> {
  const call = source.indexOf("AddSerializedFile(");
  if (call === -1) throw new DescriptorError("no AddSerializedFile(...) call: not a generated _pb2 module");
  const bytes = readBytesLiterals(source, call + "AddSerializedFile(".length);
  const [{ fromBinary }, { FileDescriptorProtoSchema }] = await Promise.all([import("@bufbuild/protobuf"), import("@bufbuild/protobuf/wkt")]);
  try {
    return fromBinary(FileDescriptorProtoSchema, bytes);
  } catch (error) {
    throw new DescriptorError(`the serialized descriptor does not decode: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Adjacent Python bytes literals (`b'...' b"..."`) from `start` up to the closing parenthesis, decoded. */
function readBytesLiterals(source: string, start: number): Uint8Array {
  const bytes: number[] = [];
  let index = start;
  for (;;) {
    while (index < source.length && /\s/.test(source[index] ?? "")) index += 1;
    const char = source[index];
    if (char === ")" || char === ",") break;
    if (char !== "b" && char !== "B") throw new DescriptorError(`unexpected ${JSON.stringify(source.slice(index, index + 20))} in the descriptor literal`);
    const quote = source[index + 1];
    if (quote !== "'" && quote !== '"') throw new DescriptorError("a bytes literal without a quote");
    index += 2;
    for (;;) {
      const current = source[index];
      if (current === undefined) throw new DescriptorError("an unterminated bytes literal");
      if (current === quote) {
        index += 1;
        break;
      }
      if (current !== "\\") {
        bytes.push(current.charCodeAt(0));
        index += 1;
        continue;
      }
      const [value, length] = escapeAt(source, index + 1);
      if (value !== undefined) bytes.push(value);
      index += 1 + length;
    }
  }
  return Uint8Array.from(bytes);
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, a: 7, b: 8, f: 12, v: 11, "\\": 92, "'": 39, '"': 34 };

/** The byte an escape stands for and how many characters after the backslash it took (a line continuation gives no byte). */
function escapeAt(source: string, index: number): [number | undefined, number] {
  const char = source[index] ?? "";
  if (char === "\n") return [undefined, 1];
  const simple = SIMPLE_ESCAPES[char];
  if (simple !== undefined) return [simple, 1];
  if (char === "x") return [Number.parseInt(source.slice(index + 1, index + 3), 16), 3];
  const octal = /^[0-7]{1,3}/.exec(source.slice(index, index + 3))?.[0];
  if (octal !== undefined) return [Number.parseInt(octal, 8), octal.length];
  // Python keeps an unknown escape as written.
  return [92, 0];
}

const ROOTS = [
  { name: "InitializeConversationEvent", schema: InitializeConversationEventSchema, outbound: true },
  { name: "InputEvent", schema: InputEventSchema, outbound: true },
  { name: "OutputEvent", schema: OutputEventSchema, outbound: false },
] as const;

/**
 * Every field and enum value where a harness's descriptor and this client's schemas at `version`
 * disagree, walking the three frames from their root messages. Types from other files (genai.Struct)
 * are not compared.
 */
export function compareDescriptor(file: FileDescriptorProto, version: string): ProtocolDifference[] {
  const prefix = file.package === "" ? "." : `.${file.package}.`;
  const messages = new Map<string, DescriptorProto>();
  const enums = new Map<string, EnumDescriptorProto>();
  const collect = (scope: string, list: readonly DescriptorProto[], enumList: readonly EnumDescriptorProto[]): void => {
    for (const enumType of enumList) enums.set(`${scope}${enumType.name}`, enumType);
    for (const message of list) {
      messages.set(`${scope}${message.name}`, message);
      collect(`${scope}${message.name}.`, message.nestedType, message.enumType);
    }
  };
  collect(prefix, file.messageType, file.enumType);

  const differences: ProtocolDifference[] = [];
  // Each message is compared once, at the first path that reaches it: messages refer to each other
  // (a subagent's tools are the agent's tools) and to themselves (genai.Struct).
  const seen = new WeakMap<z.ZodObject, Set<DescriptorProto>>();
  const walkMessage = (descriptor: DescriptorProto, schema: z.ZodObject, path: string, outbound: boolean): void => {
    const compared = seen.get(schema) ?? new Set<DescriptorProto>();
    if (compared.has(descriptor)) return;
    compared.add(descriptor);
    seen.set(schema, compared);
    const shape = schema.shape as Record<string, z.ZodType>;
    const described = new Set<string>();
    for (const field of descriptor.field) {
      const jsonName = field.jsonName || lowerCamel(field.name);
      described.add(jsonName);
      const ours = shape[jsonName];
      const { inner, range } = ours === undefined ? { inner: undefined, range: undefined } : unwrapField(ours);
      if (inner === undefined || (range !== undefined && !inVersionRange(version, range))) {
        differences.push({ path: `${path}.${jsonName}`, side: "harness-only", kind: "field", outbound });
        continue;
      }
      const target = elementOf(inner, version);
      const theirsIsMessage = field.type === FIELD_TYPE_MESSAGE;
      const oursIsMessage = target instanceof z.ZodObject || target instanceof z.ZodRecord;
      if (theirsIsMessage !== oursIsMessage && knownEnumNames(target) === undefined) {
        differences.push({ path: `${path}.${jsonName}`, side: "mismatch", kind: "field", outbound });
        continue;
      }
      if (field.type === FIELD_TYPE_MESSAGE) {
        const nested = messages.get(field.typeName);
        if (nested === undefined) continue;
        if (nested.options?.mapEntry === true) {
          const valueField = nested.field.find((entry) => entry.name === "value");
          const valueType = valueField === undefined ? undefined : messages.get(valueField.typeName);
          const valueSchema = target instanceof z.ZodRecord ? elementOf(target.valueType as z.ZodType, version) : undefined;
          if (valueType !== undefined && valueSchema instanceof z.ZodObject) walkMessage(valueType, valueSchema, `${path}.${jsonName}`, outbound);
          continue;
        }
        if (target instanceof z.ZodObject) walkMessage(nested, target, `${path}.${jsonName}`, outbound);
      } else if (field.type === FIELD_TYPE_ENUM) {
        const enumType = enums.get(field.typeName);
        if (enumType !== undefined) compareEnum(enumType, target, `${path}.${jsonName}`, outbound);
      }
    }
    for (const [name, fieldSchema] of Object.entries(shape)) {
      if (described.has(name)) continue;
      const { range } = unwrapField(fieldSchema);
      if (range !== undefined && !inVersionRange(version, range)) continue;
      differences.push({ path: `${path}.${name}`, side: "client-only", kind: "field", outbound, ...(range?.since === undefined ? {} : { since: range.since }) });
    }
  };
  const compareEnum = (enumType: EnumDescriptorProto, schema: z.ZodType, path: string, outbound: boolean): void => {
    const ours = knownEnumNames(schema);
    if (ours === undefined) return;
    const theirs = new Set(enumType.value.map((value) => value.name));
    for (const name of theirs) {
      const range = enumNameRange(schema, name);
      if (!ours.has(name) || (range !== undefined && !inVersionRange(version, range))) {
        differences.push({ path: `${path}: ${name}`, side: "harness-only", kind: "enum-value", outbound });
      }
    }
    for (const name of ours) {
      const range = enumNameRange(schema, name);
      if (theirs.has(name) || (range !== undefined && !inVersionRange(version, range))) continue;
      differences.push({ path: `${path}: ${name}`, side: "client-only", kind: "enum-value", outbound, ...(range?.since === undefined ? {} : { since: range.since }) });
    }
  };

  for (const root of ROOTS) {
    const descriptor = messages.get(`${prefix}${root.name}`);
    if (descriptor === undefined) throw new DescriptorError(`the descriptor has no ${root.name} message`);
    walkMessage(descriptor, root.schema as unknown as z.ZodObject, root.name, root.outbound);
  }
  return dedupe(differences);
}

/** The message or leaf a field holds: its list element, its lazy target, or the alternative `version` uses. */
function elementOf(schema: z.ZodType, version: string): z.ZodType {
  let current = unwrapField(schema).inner;
  for (;;) {
    if (current instanceof z.ZodArray) current = unwrapField(current.element as z.ZodType).inner;
    else if (current instanceof z.ZodLazy) current = unwrapField(current.unwrap() as z.ZodType).inner;
    else {
      const alternative = alternativesOf(current)?.find((candidate) => inVersionRange(version, candidate.range));
      if (alternative === undefined) return current;
      current = unwrapField(alternative.schema).inner;
    }
  }
}

/** protoc's JSON name: underscores dropped, the letter after each upper-cased. */
function lowerCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function dedupe(differences: ProtocolDifference[]): ProtocolDifference[] {
  const byKey = new Map<string, ProtocolDifference>();
  for (const difference of differences) byKey.set(`${difference.side}|${difference.path}`, difference);
  return [...byKey.values()];
}
