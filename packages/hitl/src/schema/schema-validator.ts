import { type OutputUnit, type SchemaDraft, Validator } from "@cfworker/json-schema";
import { defaultSchemaLimits, schemaProblem, type SchemaLimits } from "./schema-limits.js";

/** A JSON Schema as a plain object (a tool's `parameters`), checked by the bridge before use. */
export type JsonSchema = Record<string, unknown>;

/** The outcome of checking a value against a schema: the reasons it failed, or none. */
export interface SchemaCheck {
  valid: boolean;
  /** One line per violation, e.g. `/answers/0/selected Instance has "string" type …`. */
  problems: string[];
}

/**
 * Checks and applies JSON Schemas. Client schemas are untrusted, so they are never compiled to code
 * (ajv's code generation took 49 s on one 776 KB schema): `@cfworker/json-schema` interprets them,
 * and every schema is first held to `SchemaLimits` and checked for the structure a validator relies
 * on. Unknown keywords and formats are tolerated (JSON Schema says to ignore them). Schemas declaring
 * draft 2020-12 (zod 4 emits that), 2019-09 or draft-04 get that dialect; everything else the
 * draft-07 default most tools emit.
 */
export class SchemaValidator {
  readonly #limits: SchemaLimits;
  readonly #validators = new WeakMap<object, Validator>();
  readonly #problems = new WeakMap<object, string | null>();

  constructor(limits: Partial<SchemaLimits> = {}) {
    this.#limits = { ...defaultSchemaLimits, ...limits };
  }

  /** Why `schema` cannot be used (over a limit, or malformed), or undefined when it can. Remembered per schema object. */
  compileProblem(schema: JsonSchema): string | undefined {
    const known = this.#problems.get(schema);
    if (known !== undefined) return known ?? undefined;
    const problem = schemaProblem(schema, this.#limits);
    this.#problems.set(schema, problem ?? null);
    return problem;
  }

  /** Checks `value` against `schema`; a schema that `compileProblem` refuses fails every value. */
  check(schema: JsonSchema, value: unknown): SchemaCheck {
    const problem = this.compileProblem(schema);
    if (problem !== undefined) return { valid: false, problems: [`the schema cannot be used: ${problem}`] };
    if (value === undefined) return { valid: false, problems: ["the answer is missing"] };
    let validator = this.#validators.get(schema);
    if (validator === undefined) {
      validator = new Validator(schema, draftOf(schema), false);
      this.#validators.set(schema, validator);
    }
    try {
      const result = validator.validate(value);
      return result.valid ? { valid: true, problems: [] } : { valid: false, problems: describe(result.errors) };
    } catch (error) {
      // A recursive `$ref` the value keeps following, or a value no JSON can hold.
      return { valid: false, problems: [`the answer could not be checked: ${error instanceof RangeError ? "the schema recurses too deeply for it" : "it is not JSON"}`] };
    }
  }
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (dialect.includes("2020-12")) return "2020-12";
  if (dialect.includes("2019-09")) return "2019-09";
  if (dialect.includes("draft-04")) return "4";
  return "7";
}

/**
 * The violations worth reading: a unit whose keyword location is the parent of another unit's only
 * says "a subschema had errors", and `false` units repeat what `additionalProperties` said.
 */
function describe(errors: readonly OutputUnit[]): string[] {
  const locations = errors.map((error) => error.keywordLocation);
  return errors
    .filter((error) => error.keyword !== "false" && !locations.some((other) => other.startsWith(`${error.keywordLocation}/`)))
    .map((error) => {
      const where = error.instanceLocation === "#" ? "the answer" : error.instanceLocation.slice(1);
      return `${where}: ${error.error}`;
    });
}
