import { z } from "zod/v4";
import { inVersionRange, type VersionRange } from "./harness-versions.js";
import { InitializeConversationEventSchema, InputEventSchema, OutputEventSchema } from "./messages.js";
import { alternativesOf, oneofsOf, unwrapField } from "./versioned.js";
import { enumNameRange, knownEnumNames } from "./wire-types.js";

/*
 * What one harness release's parser (Go protojson, docs/protocol.md "JSON on the socket") would
 * refuse in a message: a field or enum name that release does not have, a value of the wrong JSON
 * type, two members of one oneof. The schemas describe every release at once; this narrows them
 * to one. The client checks what it sends with it, the emulator refuses with it what the real
 * harness would refuse.
 */

/** One reason a harness release would refuse a message. */
export interface WireIssue {
  /** Where: the message type, then dotted fields and `[index]`, e.g. `HarnessConfig.enabledHooks[2]`. */
  readonly path: string;
  readonly kind: "unknown-field" | "enum-value" | "wrong-type" | "oneof";
  /** The field's JSON name (unknown-field, wrong-type, oneof) or the enum field's name (enum-value). */
  readonly field: string;
  /** The enum name that release does not have (enum-value only). */
  readonly value?: string;
  /** The release the field or name first appeared in, when it is newer than the one checked. */
  readonly introducedIn?: string;
  /** The release the field or name was removed in, when it is older than the one checked. */
  readonly removedIn?: string;
  /** A sentence naming the field, the release checked and, when known, the release that has it. */
  readonly message: string;
}

/** The three kinds of frame on the socket, by direction. */
export type WireMessageKind = "InitializeConversationEvent" | "InputEvent" | "OutputEvent";

const schemaOfKind: Record<WireMessageKind, z.ZodType> = {
  InitializeConversationEvent: InitializeConversationEventSchema,
  InputEvent: InputEventSchema,
  OutputEvent: OutputEventSchema,
};

/**
 * Everything the parser of harness `version` would refuse in `value`, a parsed JSON frame of kind
 * `kind`; empty when it would accept it. Unknown fields, unknown enum names, wrong JSON types and
 * oneof conflicts are all errors there, as in Go's protojson; snake_case field names and enum
 * numbers are accepted, as there.
 *
 * @example
 * checkWireMessage("InputEvent", { userInput: "hi" }, "0.1.21");
 * // [{ kind: "wrong-type", path: "InputEvent.userInput", ... }]
 */
export function checkWireMessage(kind: WireMessageKind, value: unknown, version: string): WireIssue[] {
  const issues: WireIssue[] = [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issues.push({ path: kind, kind: "wrong-type", field: kind, message: `${kind} must be a JSON object` });
    return issues;
  }
  walk(schemaOfKind[kind], value, kind, kind, version, issues);
  return issues;
}

function walk(schema: z.ZodType, value: unknown, path: string, field: string, version: string, issues: WireIssue[]): void {
  const { inner } = unwrapField(schema);
  const target = inner instanceof z.ZodLazy ? (inner.unwrap() as z.ZodType) : inner;

  const alternatives = alternativesOf(target);
  if (alternatives !== undefined) {
    const current = alternatives.find((alternative) => inVersionRange(version, alternative.range));
    if (current === undefined) return;
    const fits = current.schema instanceof z.ZodObject ? isPlainObject(value) : current.schema.safeParse(value).success;
    if (!fits) {
      issues.push(wrongType(path, field, version, alternatives, value));
      return;
    }
    walk(current.schema, value, path, field, version, issues);
    return;
  }

  const enumNames = knownEnumNames(target);
  if (enumNames !== undefined) {
    checkEnum(target, enumNames, value, path, field, version, issues);
    return;
  }
  if (target instanceof z.ZodArray) {
    if (!Array.isArray(value)) {
      issues.push({ path, kind: "wrong-type", field, message: `${path}: expected a list, got ${jsonTypeOf(value)}` });
      return;
    }
    value.forEach((item: unknown, index) => {
      if (item === null) issues.push({ path: `${path}[${index}]`, kind: "wrong-type", field, message: `${path}[${index}]: null in a list` });
      else walk(target.element as z.ZodType, item, `${path}[${index}]`, field, version, issues);
    });
    return;
  }
  if (target instanceof z.ZodRecord) {
    if (!isPlainObject(value)) {
      issues.push({ path, kind: "wrong-type", field, message: `${path}: expected a map (JSON object), got ${jsonTypeOf(value)}` });
      return;
    }
    for (const [key, item] of Object.entries(value)) walk(target.valueType as z.ZodType, item, `${path}.${key}`, field, version, issues);
    return;
  }
  if (target instanceof z.ZodObject) {
    if (!isPlainObject(value)) {
      issues.push({ path, kind: "wrong-type", field, message: `${path}: expected a message (JSON object), got ${jsonTypeOf(value)}` });
      return;
    }
    walkMessage(target, value, path, version, issues);
    return;
  }
  if (!target.safeParse(value).success) {
    issues.push({ path, kind: "wrong-type", field, message: `${path}: ${jsonTypeOf(value)} is not a valid value for field ${field}` });
  }
}

function walkMessage(schema: z.ZodObject, value: Record<string, unknown>, path: string, version: string, issues: WireIssue[]): void {
  const shape = schema.shape as Record<string, z.ZodType>;
  const present = new Set<string>();
  for (const [key, fieldValue] of Object.entries(value)) {
    const name = key in shape ? key : camelCaseOf(key);
    const fieldSchema = shape[name];
    if (fieldSchema === undefined) {
      issues.push({ path: `${path}.${key}`, kind: "unknown-field", field: key, message: `${path}: unknown field "${key}" (no harness release has it)` });
      continue;
    }
    const { range } = unwrapField(fieldSchema);
    if (range !== undefined && !inVersionRange(version, range)) {
      issues.push({ path: `${path}.${name}`, kind: "unknown-field", field: key, ...rangeHint(range, version), message: outOfRange(`${path}: unknown field "${key}"`, range, version) });
      continue;
    }
    // protojson takes null as "not set" for a singular field.
    if (fieldValue === null) continue;
    present.add(name);
    walk(fieldSchema, fieldValue, `${path}.${name}`, name, version, issues);
  }
  for (const group of oneofsOf(schema)) {
    const set = group.filter((member) => present.has(member));
    if (set.length > 1) {
      issues.push({ path, kind: "oneof", field: set[1] ?? "", message: `${path}: ${set.join(" and ")} are members of one oneof; at most one may be set` });
    }
  }
}

function checkEnum(schema: z.ZodType, names: ReadonlySet<string>, value: unknown, path: string, field: string, version: string, issues: WireIssue[]): void {
  if (typeof value === "number" && Number.isInteger(value)) return;
  if (typeof value !== "string") {
    issues.push({ path, kind: "wrong-type", field, message: `${path}: ${jsonTypeOf(value)} is not an enum value name or number` });
    return;
  }
  if (!names.has(value)) {
    issues.push({ path, kind: "enum-value", field, value, message: `${path}: invalid value for enum field ${field}: "${value}" (no harness release has it)` });
    return;
  }
  const range = enumNameRange(schema, value);
  if (range !== undefined && !inVersionRange(version, range)) {
    issues.push({ path, kind: "enum-value", field, value, ...rangeHint(range, version), message: outOfRange(`${path}: invalid value for enum field ${field}: "${value}"`, range, version) });
  }
}

function wrongType(path: string, field: string, version: string, alternatives: readonly { range: VersionRange; schema: z.ZodType }[], value: unknown): WireIssue {
  const other = alternatives.find((alternative) => !inVersionRange(version, alternative.range) && alternative.schema.safeParse(value).success);
  const hint = other === undefined ? {} : rangeHint(other.range, version);
  const was = other === undefined ? "" : hint.removedIn !== undefined ? ` (that shape was removed in ${hint.removedIn})` : ` (that shape arrived in ${hint.introducedIn})`;
  return { path, kind: "wrong-type", field, ...hint, message: `${path}: ${jsonTypeOf(value)} is not what harness ${version} takes for ${field}${was}` };
}

function rangeHint(range: VersionRange, version: string): { introducedIn?: string; removedIn?: string } {
  if (range.since !== undefined && !inVersionRange(version, { since: range.since })) return { introducedIn: range.since };
  if (range.until !== undefined) return { removedIn: range.until };
  return {};
}

function outOfRange(prefix: string, range: VersionRange, version: string): string {
  const hint = rangeHint(range, version);
  if (hint.introducedIn !== undefined) return `${prefix} (harness ${version} does not have it; it arrived in ${hint.introducedIn})`;
  return `${prefix} (harness ${version} does not have it; it was removed in ${hint.removedIn ?? "an earlier release"})`;
}

function camelCaseOf(key: string): string {
  return key.includes("_") ? key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()) : key;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
