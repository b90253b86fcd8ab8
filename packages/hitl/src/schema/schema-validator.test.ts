import { describe, expect, it } from "vitest";
import { defaultSchemaLimits } from "./schema-limits.js";
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
    expect(validator.compileProblem({ type: "object", properties: { a: { type: 3 } } })).toMatch(/"type" must be one of/);
    expect(validator.compileProblem({ type: "object", properties: { a: { type: "no-such-type" } } })).toMatch(/"type" must be one of/);
    expect(validator.compileProblem({ $ref: "#/definitions/missing" })).toMatch(/does not point inside the schema/);
    expect(validator.compileProblem({ $ref: "https://example.com/remote.json" })).toMatch(/only local references/);
    expect(validator.compileProblem({ type: "string", pattern: "(" })).toMatch(/not a valid regular expression/);
    expect(validator.compileProblem({ $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } }, $ref: "#/$defs/node" })).toBeUndefined();
  });

  it("explains failures with the path", () => {
    const result = validator.check({ type: "object", properties: { pick: { enum: ["a", "b"] } }, additionalProperties: false }, { pick: "c", extra: 1 });
    expect(result.problems).toEqual(['/pick: Instance does not match any of ["a","b"].', 'the answer: Property "extra" does not match additional properties schema.']);
    expect(validator.check({ type: "object" }, undefined).problems).toEqual(["the answer is missing"]);
  });

  it("refuses a schema over a limit, naming the limit, without reading all of it", () => {
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 14_000 }, (_, index) => [`p${index}`, { type: "string", pattern: `^x${index}$` }])) };
    expect(validator.compileProblem(wide)).toMatch(/more than 1000 properties \(limit maxProperties\)/);
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 100_000; level += 1) deep = { type: "object", properties: { a: deep } };
    expect(validator.compileProblem(deep)).toMatch(/deeper than 32 levels \(limit maxDepth\)/);
    expect(validator.compileProblem({ type: "object", description: "x".repeat(defaultSchemaLimits.maxCharacters + 1) })).toMatch(/limit maxCharacters/);
    expect(validator.compileProblem({ type: "object", enum: [Array.from({ length: 10_000 }, () => ({}))] })).toMatch(/limit maxNodes/);
    expect(validator.compileProblem({ type: "string", pattern: "a".repeat(1_001) })).toMatch(/limit maxPatternLength/);
    expect(new SchemaValidator({ maxProperties: 2 }).compileProblem({ type: "object", properties: { a: {}, b: {}, c: {} } })).toMatch(/more than 2 properties/);
    // A schema over a limit fails every value instead of being applied.
    expect(validator.check(wide, {}).problems[0]).toMatch(/cannot be used/);
  });

  it("answers a value that recurses through a $ref as invalid instead of throwing", () => {
    const loop = { $ref: "#" };
    expect(validator.compileProblem(loop)).toBeUndefined();
    expect(validator.check(loop, {}).valid).toBe(false);
  });
});
