import type { Tool } from "@ag-ui/core";
import { HitlError } from "../errors/hitl-error.js";
import { isPlainObject } from "../json/json-value.js";
import { type JsonSchema, SchemaValidator } from "../schema/schema-validator.js";

/** A client tool, checked and ready to become a harness custom tool. */
export interface FrontendToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

// What the harness accepts as a custom tool name (checked again by its config validation).
const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/**
 * Checks the run's client tools and normalizes them. A missing or empty schema becomes an empty
 * object schema (a tool without arguments); a schema that is not an object schema, that is over
 * the validator's size limits or malformed, or a name the harness cannot register, is a client error
 * naming the tool and the limit.
 */
export function frontendToolDefinitions(tools: readonly Tool[], validator: SchemaValidator): FrontendToolDefinition[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (!toolNamePattern.test(tool.name)) {
      throw new HitlError("INVALID_TOOL_SCHEMA", `Frontend tool "${tool.name}": tool names are 1-64 letters, digits, _ . - and start with a letter or _.`, { subject: tool.name });
    }
    if (seen.has(tool.name)) throw new HitlError("INVALID_TOOL_SCHEMA", `Frontend tool "${tool.name}" is declared twice.`, { subject: tool.name });
    seen.add(tool.name);
    const parameters = normalizeParameters(tool);
    const problem = validator.compileProblem(parameters);
    if (problem !== undefined) {
      throw new HitlError("INVALID_TOOL_SCHEMA", `Frontend tool "${tool.name}" has a parameters schema that cannot be used: ${problem}.`, { subject: tool.name });
    }
    return { name: tool.name, description: tool.description.trim() === "" ? `Client-side tool: ${tool.name}` : tool.description, parameters };
  });
}

function normalizeParameters(tool: Tool): JsonSchema {
  const schema: unknown = tool.parameters;
  if (schema === undefined || schema === null || (isPlainObject(schema) && Object.keys(schema).length === 0)) return { type: "object", properties: {} };
  if (!isPlainObject(schema)) {
    throw new HitlError("INVALID_TOOL_SCHEMA", `Frontend tool "${tool.name}": parameters must be a JSON Schema object, got ${Array.isArray(schema) ? "an array" : typeof schema}.`, { subject: tool.name });
  }
  if (schema.type !== undefined && schema.type !== "object") {
    throw new HitlError("INVALID_TOOL_SCHEMA", `Frontend tool "${tool.name}": parameters must describe an object (type "object"), got type ${JSON.stringify(schema.type)}.`, { subject: tool.name });
  }
  return schema;
}

// Remembers its verdicts per schema object only (WeakMaps), so sharing it holds nothing of a request.
const sharedValidator = new SchemaValidator();

/**
 * Checks a run's client tools before anything else reads them: names, duplicates, and each schema
 * against the size limits and the structure a validator relies on. Cheap and bounded, so a caller
 * can run it before hashing or storing tools, and refuse a hostile request in milliseconds.
 *
 * @throws HitlError INVALID_TOOL_SCHEMA naming the tool and, for a size limit, the limit.
 */
export function checkFrontendTools(tools: readonly Tool[]): void {
  frontendToolDefinitions(tools, sharedValidator);
}
