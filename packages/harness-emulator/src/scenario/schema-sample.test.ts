import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { sampleArguments, sampleLimits } from "./schema-sample.js";

const ajv = new Ajv({ strict: false });

function valid(schema: object, value: unknown): boolean {
  return ajv.validate(schema, value);
}

describe("sampleArguments", () => {
  it("fills the first required string from the message", () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const args = sampleArguments(JSON.stringify(schema), "What is the weather in Paris?");
    expect(args).toEqual({ city: "Paris" });
    expect(valid(schema, args)).toBe(true);
  });

  it("prefers `name: value` and quoted phrases", () => {
    const schema = { type: "object", properties: { topic: { type: "string" }, count: { type: "integer", minimum: 1, maximum: 5 } }, required: ["topic", "count"] };
    expect(sampleArguments(JSON.stringify(schema), 'write about "autumn leaves" with count: 9')).toEqual({ topic: "autumn leaves", count: 5 });
    expect(sampleArguments(JSON.stringify(schema), "topic: rivers")).toMatchObject({ topic: "rivers" });
  });

  it("accepts the uppercase OpenAPI-style types the Python SDK generates", () => {
    const schema = { type: "OBJECT", properties: { city: { type: "STRING" }, days: { type: "INTEGER" } }, required: ["city", "days"] };
    const args = sampleArguments(JSON.stringify(schema), "forecast for Berlin");
    expect(args).toEqual({ city: "Berlin", days: 1 });
  });

  it("builds schema-valid nested objects, arrays, enums and formats", () => {
    const schema = {
      type: "object",
      properties: {
        steps: {
          type: "array",
          minItems: 2,
          items: { type: "object", properties: { description: { type: "string", minLength: 3 }, status: { type: "string", enum: ["pending", "done"] } }, required: ["description", "status"] },
        },
        when: { type: "string", format: "date-time" },
        urgent: { type: "boolean" },
        note: { anyOf: [{ type: "null" }, { type: "string" }] },
      },
      required: ["steps", "when", "urgent", "note"],
    };
    const args = sampleArguments(JSON.stringify(schema), "plan my day, mark it done");
    expect(valid(schema, args)).toBe(true);
    expect((args["steps"] as unknown[]).length).toBe(2);
    expect((args["steps"] as { status: string }[])[0]!.status).toBe("done");
  });

  it("returns an object for empty, missing or broken schemas", () => {
    expect(sampleArguments(undefined, "hi")).toEqual({});
    expect(sampleArguments("{}", "hi")).toEqual({});
    expect(sampleArguments("{not json", "hi")).toEqual({});
  });

  it("stays bounded on hostile schemas: a huge minItems, minLength or property count", () => {
    const huge = sampleArguments(JSON.stringify({ type: "object", properties: { rows: { type: "array", minItems: 1e8, items: { type: "string", minLength: 1e9 } } }, required: ["rows"] }), "hi");
    expect((huge["rows"] as string[]).length).toBe(sampleLimits.maxItems);
    expect((huge["rows"] as string[])[0]!.length).toBe(sampleLimits.maxStringLength);
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 14_000 }, (_, index) => [`p${index}`, { type: "array", minItems: 1e6, items: { type: "object", properties: { a: { type: "string" } } } }])) };
    const sampled = sampleArguments(JSON.stringify(wide), "x".repeat(1_000_000));
    expect(JSON.stringify(sampled).length).toBeLessThan(200_000);
  });
});
