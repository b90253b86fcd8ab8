import { describe, expect, it } from "vitest";
import { SchemaValidator } from "../schema/schema-validator.js";
import { frontendToolDefinitions } from "./frontend-tools.js";

const validator = new SchemaValidator();

describe("frontendToolDefinitions", () => {
  it.each([
    ["a name the harness cannot register", { name: "has space", description: "d" }, /tool names are/],
    ["a non-object schema", { name: "t", description: "d", parameters: "string" }, /must be a JSON Schema object, got string/],
    ["a schema for something other than an object", { name: "t", description: "d", parameters: { type: "array" } }, /must describe an object/],
  ])("refuses %s with INVALID_TOOL_SCHEMA naming the tool", (_label, tool, message) => {
    expect(() => frontendToolDefinitions([tool], validator)).toThrow(message);
    expect(() => frontendToolDefinitions([tool], validator)).toThrow(expect.objectContaining({ code: "INVALID_TOOL_SCHEMA", subject: tool.name }));
  });

  it("refuses a tool declared twice", () => {
    const tool = { name: "t", description: "d" };
    expect(() => frontendToolDefinitions([tool, tool], validator)).toThrow(/declared twice/);
  });

  it("passes a valid schema through untouched", () => {
    const parameters = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { when: { type: "string", format: "date-time" } }, required: ["when"] };
    expect(frontendToolDefinitions([{ name: "t", description: "d", parameters }], validator)).toEqual([{ name: "t", description: "d", parameters }]);
  });
});
