import { isRecord, parseJsonSafely } from "../agent/json";

/**
 * Turns an interrupt's `responseSchema` into form fields, and the inputs' raw values back into the
 * JSON the schema asks for. Covers the shapes agents ask for in practice; anything else is a JSON field.
 */
export type JsonSchema = Record<string, unknown>;

export type FieldKind = "choice" | "multi-choice" | "text" | "number" | "boolean" | "list" | "json";

export interface Field {
  name: string;
  label: string;
  description: string | undefined;
  kind: FieldKind;
  options: unknown[];
  required: boolean;
}

function kindOf(schema: JsonSchema): { kind: FieldKind; options: unknown[] } {
  if (Array.isArray(schema["enum"])) return { kind: "choice", options: schema["enum"] };
  const type = schema["type"];
  if (type === "boolean") return { kind: "boolean", options: [] };
  if (type === "number" || type === "integer") return { kind: "number", options: [] };
  if (type === "string") return { kind: "text", options: [] };
  if (type === "array" && isRecord(schema["items"])) {
    const items = schema["items"];
    if (Array.isArray(items["enum"])) return { kind: "multi-choice", options: items["enum"] };
    if (items["type"] === "string") return { kind: "list", options: [] };
  }
  return { kind: "json", options: [] };
}

export function fieldsOf(schema: JsonSchema): { fields: Field[]; wrapped: boolean } {
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  if (schema["type"] === "object" || isRecord(schema["properties"])) {
    const properties = isRecord(schema["properties"]) ? schema["properties"] : {};
    const fields = Object.entries(properties).map(([name, property]): Field => {
      const propertySchema = isRecord(property) ? property : {};
      const { kind, options } = kindOf(propertySchema);
      const title = propertySchema["title"];
      const description = propertySchema["description"];
      return {
        name,
        label: typeof title === "string" ? title : name.replace(/[_-]+/g, " "),
        description: typeof description === "string" ? description : undefined,
        kind,
        options,
        required: required.includes(name),
      };
    });
    return { fields, wrapped: false };
  }
  // A non-object schema asks for a bare value: one field, whose value is the whole payload.
  const { kind, options } = kindOf(schema);
  const title = schema["title"];
  return { fields: [{ name: "value", label: typeof title === "string" ? title : "Answer", description: undefined, kind, options, required: true }], wrapped: true };
}

/** Converts what the inputs hold into the JSON the schema asks for; returns an error message instead when it cannot. */
export function valueOf(field: Field, raw: unknown): { value?: unknown; error?: string } {
  switch (field.kind) {
    case "boolean":
      return { value: raw === true };
    case "choice":
      return raw === undefined ? (field.required ? { error: "Choose one." } : {}) : { value: raw };
    case "multi-choice":
      return { value: Array.isArray(raw) ? raw : [] };
    case "number": {
      const text = typeof raw === "string" ? raw.trim() : "";
      if (text === "") return field.required ? { error: "Enter a number." } : {};
      return Number.isFinite(Number(text)) ? { value: Number(text) } : { error: "Enter a number." };
    }
    case "list": {
      const items = (typeof raw === "string" ? raw : "").split(",").map((item) => item.trim()).filter((item) => item !== "");
      return items.length === 0 && field.required ? { error: "Enter at least one item." } : { value: items };
    }
    case "json": {
      const text = typeof raw === "string" ? raw.trim() : "";
      if (text === "") return field.required ? { error: "Enter a JSON value." } : {};
      const parsed = parseJsonSafely(text);
      return parsed === undefined ? { error: "Not valid JSON." } : { value: parsed };
    }
    case "text": {
      const text = typeof raw === "string" ? raw.trim() : "";
      return text === "" ? (field.required ? { error: "Required." } : {}) : { value: text };
    }
  }
}
