import { describe, expect, test } from "vitest";
import { fieldsOf, valueOf } from "../../src/features/schemaFields.js";

const schema = {
  type: "object",
  properties: {
    budget: { type: "number", title: "Budget" },
    currency: { type: "string", enum: ["EUR", "USD"] },
    outdoors: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    days: { type: "array", items: { enum: ["Sat", "Sun"] } },
    extra: { type: "object" },
    note: { type: "string", description: "Anything else" },
  },
  required: ["budget", "currency"],
};

describe("fieldsOf", () => {
  test("maps each property to a field kind, with labels and required flags", () => {
    const { fields, wrapped } = fieldsOf(schema);
    expect(wrapped).toBe(false);
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ["budget", "number", true],
      ["currency", "choice", true],
      ["outdoors", "boolean", false],
      ["tags", "list", false],
      ["days", "multi-choice", false],
      ["extra", "json", false],
      ["note", "text", false],
    ]);
    expect(fields[0]?.label).toBe("Budget");
    expect(fields[6]?.description).toBe("Anything else");
  });

  test("a non-object schema becomes one field whose value is the whole payload", () => {
    const { fields, wrapped } = fieldsOf({ type: "string", enum: ["yes", "no"] });
    expect(wrapped).toBe(true);
    expect(fields).toHaveLength(1);
    expect(fields[0]?.kind).toBe("choice");
  });
});

describe("valueOf", () => {
  const field = (name: string) => {
    const found = fieldsOf(schema).fields.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no field ${name}`);
    return found;
  };

  test("converts raw input into the JSON type the schema asks for", () => {
    expect(valueOf(field("budget"), " 200 ")).toEqual({ value: 200 });
    expect(valueOf(field("outdoors"), undefined)).toEqual({ value: false });
    expect(valueOf(field("tags"), "a, b ,,c")).toEqual({ value: ["a", "b", "c"] });
    expect(valueOf(field("extra"), '{"x":1}')).toEqual({ value: { x: 1 } });
    expect(valueOf(field("currency"), "USD")).toEqual({ value: "USD" });
  });

  test("reports missing required values and malformed input instead of sending them", () => {
    expect(valueOf(field("budget"), "")).toEqual({ error: "Enter a number." });
    expect(valueOf(field("budget"), "lots")).toEqual({ error: "Enter a number." });
    expect(valueOf(field("currency"), undefined)).toEqual({ error: "Choose one." });
    expect(valueOf(field("extra"), "{not json")).toEqual({ error: "Not valid JSON." });
  });

  test("leaves optional empty fields out of the payload", () => {
    expect(valueOf(field("note"), "   ")).toEqual({});
    expect(valueOf(field("extra"), "")).toEqual({});
  });
});
