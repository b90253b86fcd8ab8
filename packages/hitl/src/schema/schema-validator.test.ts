import { describe, expect, it } from "vitest";
import { SchemaValidator } from "./schema-validator.js";

describe("SchemaValidator", () => {
  const validator = new SchemaValidator();

  it("validates draft-07 by default and draft 2020-12 / 2019-09 when declared", () => {
    const tuple07 = { type: "array", items: [{ type: "string" }], additionalItems: false };
    expect(validator.check(tuple07, ["a", "b"]).valid).toBe(false);
    const tuple2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "string" }], items: false };
    expect(validator.check(tuple2020, ["a"]).valid).toBe(true);
    expect(validator.check(tuple2020, ["a", "b"]).valid).toBe(false);
    expect(validator.compileProblem({ $schema: "https://json-schema.org/draft/2019-09/schema", type: "object" })).toBeUndefined();
  });

  it("tolerates unknown keywords and formats but refuses malformed schemas", () => {
    expect(validator.compileProblem({ type: "object", "x-ui": "slider", properties: { when: { type: "string", format: "fancy" } } })).toBeUndefined();
    expect(validator.compileProblem({ type: "object", properties: { a: { type: 3 } } })).toMatch(/must be/);
    expect(validator.compileProblem({ $ref: "#/definitions/missing" })).toMatch(/can't resolve reference/);
  });

  it("explains failures with the path and allowed values", () => {
    const result = validator.check({ type: "object", properties: { pick: { enum: ["a", "b"] } }, additionalProperties: false }, { pick: "c", extra: 1 });
    expect(result.problems).toEqual(["the answer must NOT have additional properties (extra)", '/pick must be equal to one of the allowed values ("a", "b")']);
  });
});
