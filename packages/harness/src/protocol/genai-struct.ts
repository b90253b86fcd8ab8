import type { GenaiStruct, GenaiValue, ToolCall } from "./messages.js";

/*
 * genai.Struct is a JSON object in the verbose form `{fields: [{name, value: {stringValue | ...}}]}`
 * (docs/protocol.md, "JSON on the socket"). From 0.1.17 the harness sends tool arguments this way
 * (sometimes without `argumentsJson`) and takes edited pre-tool arguments only this way.
 */

/**
 * A plain JSON object as a genai.Struct. Numbers that are not finite become the strings protobuf
 * JSON uses for them; `undefined` members are left out, as JSON.stringify does.
 *
 * @example
 * toGenaiStruct({ city: "Paris", days: 3 });
 * // { fields: [{ name: "city", value: { stringValue: "Paris" } }, { name: "days", value: { numberValue: 3 } }] }
 */
export function toGenaiStruct(object: Record<string, unknown>): GenaiStruct {
  const fields: NonNullable<GenaiStruct["fields"]> = [];
  for (const [name, member] of Object.entries(object)) {
    const value = toGenaiValue(member);
    if (value !== undefined) fields.push({ name, value });
  }
  return { fields };
}

function toGenaiValue(value: unknown): GenaiValue | undefined {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null) return { nullValue: "NULL_VALUE" };
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return { numberValue: Number.isFinite(value) ? value : String(value) };
  if (typeof value === "bigint") return { numberValue: Number(value) };
  if (Array.isArray(value)) return { listValue: { values: value.map((item) => toGenaiValue(item) ?? { nullValue: "NULL_VALUE" }) } };
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return toGenaiValue((value as { toJSON: () => unknown }).toJSON());
  return { structValue: toGenaiStruct(value as Record<string, unknown>) };
}

/**
 * A genai.Struct as a plain JSON object (a field without a name or value is skipped).
 *
 * @example
 * fromGenaiStruct({ fields: [{ name: "city", value: { stringValue: "Paris" } }] }); // { city: "Paris" }
 */
export function fromGenaiStruct(struct: GenaiStruct | undefined): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of struct?.fields ?? []) {
    if (typeof field.name !== "string" || field.value === undefined) continue;
    object[field.name] = fromGenaiValue(field.value);
  }
  return object;
}

function fromGenaiValue(value: GenaiValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.numberValue !== undefined) return typeof value.numberValue === "number" ? value.numberValue : Number(value.numberValue);
  if (value.structValue !== undefined) return fromGenaiStruct(value.structValue);
  if (value.listValue !== undefined) return (value.listValue.values ?? []).map(fromGenaiValue);
  if (value.contentValue !== undefined) return value.contentValue;
  return null;
}

/**
 * A tool call's arguments as JSON text: its `argumentsJson` when the harness sent one, else its
 * genai.Struct `arguments` (a 0.1.17+ harness may send only those), else "".
 *
 * @example
 * toolCallArgumentsJson({ arguments: { fields: [{ name: "city", value: { stringValue: "Paris" } }] } }); // '{"city":"Paris"}'
 */
export function toolCallArgumentsJson(call: Pick<ToolCall, "argumentsJson" | "arguments">): string {
  if (call.argumentsJson !== undefined && call.argumentsJson !== "") return call.argumentsJson;
  return call.arguments === undefined ? (call.argumentsJson ?? "") : JSON.stringify(fromGenaiStruct(call.arguments));
}
