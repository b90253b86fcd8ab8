/**
 * Builds arguments that validate against a tool's JSON Schema, filling values from the user's
 * message where a property can be recognised in it. Schemas come in two spellings: standard JSON
 * Schema (`"object"`) and the uppercase OpenAPI-style types the Python SDK generates (`"OBJECT"`).
 */

type Schema = Record<string, unknown>;

function typeOf(schema: Schema): string | undefined {
  const type = schema["type"];
  if (typeof type === "string") return type.toLowerCase();
  if (Array.isArray(type)) {
    const first = type.find((entry) => typeof entry === "string" && entry.toLowerCase() !== "null");
    return typeof first === "string" ? first.toLowerCase() : undefined;
  }
  if (typeof schema["properties"] === "object") return "object";
  if (schema["items"] !== undefined) return "array";
  return undefined;
}

function asSchema(value: unknown): Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `name: value`, `name = value` or `name "value"` inside the message. */
function namedValue(text: string, name: string): string | undefined {
  const spaced = escapeRegExp(name).replace(/_/g, "[_ ]");
  const match = new RegExp(`\\b${spaced}\\s*(?:[:=]|is)\\s*(?:"([^"]*)"|'([^']*)'|([^,;\\s]+(?:\\s+[A-Z][\\w-]*)*))`, "i").exec(text);
  if (match === null) return undefined;
  return match[1] ?? match[2] ?? match[3];
}

/** A quoted phrase, or the words after "for/about/in/on/of/to" up to punctuation. */
function freeValue(text: string): string | undefined {
  const quoted = /"([^"]+)"|“([^”]+)”/.exec(text);
  if (quoted !== null) return quoted[1] ?? quoted[2];
  const phrase = /\b(?:for|about|in|on|of|to)\s+([^,.;!?]+?)\s*(?:[,.;!?]|$)/i.exec(text);
  return phrase?.[1]?.trim() || undefined;
}

interface SampleContext {
  text: string;
  /** The first required string gets the free-text value; later ones get samples. */
  freeTextUsed: boolean;
  /** Values left to produce: a hostile schema (`minItems: 1e8`, thousands of properties) stops here. */
  budget: number;
}

/**
 * Bounds on what one sample may cost. A real model would not emit a hundred million items either;
 * the emulator serves up to eight conversations per process, so one schema must not freeze them.
 */
export const sampleLimits = Object.freeze({ maxValues: 2_000, maxItems: 32, maxStringLength: 4_096, maxTextLength: 16_384 });

function sampleString(schema: Schema, name: string, context: SampleContext): string {
  const enumValues = Array.isArray(schema["enum"]) ? schema["enum"].filter((entry): entry is string => typeof entry === "string") : [];
  if (enumValues.length > 0) {
    const mentioned = enumValues.find((entry) => new RegExp(`\\b${escapeRegExp(entry)}\\b`, "i").test(context.text));
    return mentioned ?? enumValues[0] ?? "";
  }
  const named = name === "" ? undefined : namedValue(context.text, name);
  if (named !== undefined) return named;
  if (!context.freeTextUsed) {
    const free = freeValue(context.text);
    if (free !== undefined) {
      context.freeTextUsed = true;
      return free;
    }
  }
  const format = schema["format"];
  if (format === "date-time") return "2026-01-01T00:00:00Z";
  if (format === "date") return "2026-01-01";
  if (format === "uri" || format === "url") return "https://example.com";
  if (format === "email") return "user@example.com";
  const minLength = typeof schema["minLength"] === "number" ? Math.min(schema["minLength"], sampleLimits.maxStringLength) : 0;
  const base = name === "" ? "sample" : `sample ${name}`;
  return base.length >= minLength ? base : base.padEnd(minLength, "x");
}

function sampleNumber(schema: Schema, name: string, context: SampleContext, integer: boolean): number {
  const named = name === "" ? undefined : namedValue(context.text, name);
  const parsed = named === undefined ? Number.NaN : Number(named);
  const minimum = typeof schema["minimum"] === "number" ? schema["minimum"] : undefined;
  const maximum = typeof schema["maximum"] === "number" ? schema["maximum"] : undefined;
  let value = Number.isFinite(parsed) ? parsed : (minimum ?? 1);
  if (minimum !== undefined && value < minimum) value = minimum;
  if (maximum !== undefined && value > maximum) value = maximum;
  return integer ? Math.ceil(value) : value;
}

function sampleValue(schemaValue: unknown, name: string, context: SampleContext, depth: number): unknown {
  context.budget -= 1;
  if (context.budget < 0) return null;
  const schema = asSchema(schemaValue);
  if ("const" in schema) return schema["const"];
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0 && typeOf(schema) !== "string") return schema["enum"][0];
  for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[combinator];
    if (Array.isArray(options) && options.length > 0) {
      const preferred = options.find((option) => typeOf(asSchema(option)) !== "null") ?? options[0];
      return sampleValue(preferred, name, context, depth);
    }
  }
  if (schema["default"] !== undefined) return schema["default"];
  switch (typeOf(schema)) {
    case "string":
      return sampleString(schema, name, context);
    case "integer":
      return sampleNumber(schema, name, context, true);
    case "number":
      return sampleNumber(schema, name, context, false);
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const minItems = typeof schema["minItems"] === "number" ? schema["minItems"] : 1;
      const count = Math.min(Math.max(minItems, 1), sampleLimits.maxItems);
      if (depth > 6) return [];
      return Array.from({ length: count }, () => sampleValue(schema["items"], name.replace(/s$/, ""), context, depth + 1));
    }
    case "object":
    default:
      return sampleObject(schema, context, depth);
  }
}

function sampleObject(schema: Schema, context: SampleContext, depth: number): Record<string, unknown> {
  const properties = asSchema(schema["properties"]);
  const required = Array.isArray(schema["required"]) ? schema["required"].filter((entry): entry is string => typeof entry === "string") : [];
  const out: Record<string, unknown> = {};
  if (depth > 6) return out;
  // Required properties first so they get the free-text value; optional ones only when the message names them.
  for (const name of required) {
    if (context.budget <= 0) return out;
    out[name] = sampleValue(properties[name], name, context, depth + 1);
  }
  for (const name of Object.keys(properties)) {
    if (context.budget <= 0) return out;
    if (name in out) continue;
    if (namedValue(context.text, name) !== undefined || required.length === 0) out[name] = sampleValue(properties[name], name, context, depth + 1);
  }
  return out;
}

/** Arguments for a tool call: always a JSON object, schema-valid for the common schema keywords. */
export function sampleArguments(schemaJson: string | undefined, userText: string): Record<string, unknown> {
  let schema: unknown = {};
  if (schemaJson !== undefined && schemaJson.trim() !== "") {
    try {
      schema = JSON.parse(schemaJson);
    } catch {
      schema = {};
    }
  }
  return sampleObject(asSchema(schema), { text: userText.slice(0, sampleLimits.maxTextLength), freeTextUsed: false, budget: sampleLimits.maxValues }, 0);
}
