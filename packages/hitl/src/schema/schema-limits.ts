/**
 * How big a JSON Schema from a client may be. Tool schemas come from whoever sends a request, so the
 * work spent on one is bounded before anything else looks at it: the walk below stops at the first
 * limit it crosses, and a schema within every limit takes well under a millisecond to check.
 */
export interface SchemaLimits {
  /** Nesting of objects and arrays, counted from the schema's root. */
  maxDepth: number;
  /** Objects and arrays in the schema, all levels together. */
  maxNodes: number;
  /** Property names declared under `properties` and `patternProperties`, all levels together. */
  maxProperties: number;
  /** Characters in the schema: every key and string, all levels together (about its JSON size). */
  maxCharacters: number;
  /** Characters of one `pattern` (or `patternProperties` key). */
  maxPatternLength: number;
}

/** The limits every JSON Schema the package uses is held to (client tools' parameters, a server tool's `interrupt()` `responseSchema`); frozen. */
export const defaultSchemaLimits: Readonly<SchemaLimits> = Object.freeze({
  maxDepth: 32,
  maxNodes: 5_000,
  maxProperties: 1_000,
  maxCharacters: 256 * 1024,
  maxPatternLength: 1_000,
});

const typeNames = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const schemaMapKeywords = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const schemaListKeywords = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
// Keywords whose value is itself one schema.
const schemaKeywords = new Set(["items", "additionalItems", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"]);

/**
 * The first reason `schema` is over a limit or malformed, or undefined when it is fine. Iterative
 * (a hostile schema cannot overflow the stack) and linear in the part of the schema it reads.
 * Structure is checked where a validator would otherwise fail later or silently: `type` names,
 * `required`, regular expressions, and `$ref`s, which must point inside the schema itself.
 */
export function schemaProblem(schema: Record<string, unknown>, limits: SchemaLimits = defaultSchemaLimits): string | undefined {
  let nodes = 0;
  let properties = 0;
  let characters = 0;
  const references: string[] = [];
  const stack: Array<{ value: unknown; depth: number; schemaPosition: boolean }> = [{ value: schema, depth: 1, schemaPosition: true }];
  while (stack.length > 0) {
    const { value, depth, schemaPosition } = stack.pop() as { value: unknown; depth: number; schemaPosition: boolean };
    if (typeof value === "string") {
      characters += value.length;
      if (characters > limits.maxCharacters) return `it is larger than ${limits.maxCharacters} characters (limit maxCharacters)`;
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    nodes += 1;
    if (nodes > limits.maxNodes) return `it has more than ${limits.maxNodes} objects and arrays (limit maxNodes)`;
    if (depth > limits.maxDepth) return `it nests deeper than ${limits.maxDepth} levels (limit maxDepth)`;
    if (Array.isArray(value)) {
      for (const entry of value) stack.push({ value: entry, depth: depth + 1, schemaPosition: false });
      continue;
    }
    const entries = Object.entries(value);
    for (const [key, child] of entries) {
      characters += key.length;
      if (characters > limits.maxCharacters) return `it is larger than ${limits.maxCharacters} characters (limit maxCharacters)`;
      if (schemaPosition) {
        if (key === "properties" || key === "patternProperties") {
          properties += isRecord(child) ? Object.keys(child).length : 0;
          if (properties > limits.maxProperties) return `it declares more than ${limits.maxProperties} properties (limit maxProperties)`;
        }
        const problem = keywordProblem(key, child, limits);
        if (problem !== undefined) return problem;
        if (key === "$ref" && typeof child === "string") references.push(child);
      }
      if (schemaPosition && schemaMapKeywords.has(key) && isRecord(child)) {
        // A map of schemas (`properties: {name: schema}`): its values are schemas again.
        nodes += 1;
        for (const [name, subschema] of Object.entries(child)) {
          characters += name.length;
          stack.push({ value: subschema, depth: depth + 2, schemaPosition: true });
        }
      } else if (schemaPosition && (schemaListKeywords.has(key) || key === "items") && Array.isArray(child)) {
        nodes += 1;
        for (const subschema of child) stack.push({ value: subschema, depth: depth + 2, schemaPosition: true });
      } else {
        stack.push({ value: child, depth: depth + 1, schemaPosition: schemaPosition && schemaKeywords.has(key) });
      }
    }
  }
  for (const reference of references) {
    if (!resolvesInside(schema, reference)) return `its $ref ${JSON.stringify(reference.slice(0, 100))} does not point inside the schema (only local references like "#/$defs/name" are allowed)`;
  }
  return undefined;
}


function keywordProblem(key: string, value: unknown, limits: SchemaLimits): string | undefined {
  switch (key) {
    case "type": {
      const names = Array.isArray(value) ? value : [value];
      const wrong = names.find((name) => typeof name !== "string" || !typeNames.has(name));
      return wrong === undefined ? undefined : `"type" must be one of ${[...typeNames].join(", ")} (or a list of them), got ${JSON.stringify(wrong)?.slice(0, 60)}`;
    }
    case "required":
      return Array.isArray(value) && value.every((name) => typeof name === "string") ? undefined : `"required" must be a list of property names`;
    case "pattern":
      return typeof value === "string" ? regexProblem(value, limits) : `"pattern" must be a string`;
    case "patternProperties":
      if (!isRecord(value)) return `"patternProperties" must be an object`;
      for (const pattern of Object.keys(value)) {
        const problem = regexProblem(pattern, limits);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case "properties":
    case "$defs":
    case "definitions":
      return isRecord(value) ? undefined : `"${key}" must be an object of schemas`;
    case "allOf":
    case "anyOf":
    case "oneOf":
      return Array.isArray(value) && value.length > 0 ? undefined : `"${key}" must be a non-empty list of schemas`;
    case "$ref":
      return typeof value === "string" ? undefined : `"$ref" must be a string`;
    default:
      return undefined;
  }
}

function regexProblem(pattern: string, limits: SchemaLimits): string | undefined {
  if (pattern.length > limits.maxPatternLength) return `a pattern is longer than ${limits.maxPatternLength} characters (limit maxPatternLength)`;
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch {
    return `the pattern ${JSON.stringify(pattern.slice(0, 60))} is not a valid regular expression`;
  }
}

/** Whether `reference` is `#` or a JSON pointer `#/…` naming something inside `root`. */
function resolvesInside(root: Record<string, unknown>, reference: string): boolean {
  if (reference === "#") return true;
  if (!reference.startsWith("#/")) return false;
  let node: unknown = root;
  for (const raw of reference.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return false;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return false;
  }
  return isRecord(node) || typeof node === "boolean";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
