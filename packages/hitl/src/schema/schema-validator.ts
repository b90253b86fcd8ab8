import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";

export type JsonSchema = Record<string, unknown>;

/** The outcome of checking a value against a schema: the reasons it failed, or none. */
export interface SchemaCheck {
  valid: boolean;
  /** One line per violation, e.g. `/answers/0/selected must be array`. */
  problems: string[];
}

/**
 * Compiles and applies JSON Schemas with ajv. Client schemas are untrusted and written for many
 * validators, so unknown keywords and formats are tolerated (JSON Schema says to ignore them) and
 * only a schema ajv cannot compile is refused. Schemas declaring draft 2020-12 (zod 4 emits that) or
 * 2019-09 get that dialect; everything else the draft-07 default most tools emit.
 */
export class SchemaValidator {
  // Each engine is created on first use: an ajv instance holds its meta-schemas (tens of KiB), and
  // every session has a validator that most never use. Engines are not shared between validators
  // because ajv keeps every schema it compiled, and these come from clients.
  #draft07: Ajv | undefined;
  #draft2019: Ajv2019 | undefined;
  #draft2020: Ajv2020 | undefined;
  readonly #compiled = new WeakMap<object, ValidateFunction>();

  /** Compiles `schema`, returning why it cannot be compiled, or undefined when it can. */
  compileProblem(schema: JsonSchema): string | undefined {
    try {
      this.#compile(schema);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Checks `value` against `schema` (compiled once per schema object). */
  check(schema: JsonSchema, value: unknown): SchemaCheck {
    const validate = this.#compile(schema);
    if (validate(value)) return { valid: true, problems: [] };
    return { valid: false, problems: (validate.errors ?? []).map(describeError) };
  }

  #compile(schema: JsonSchema): ValidateFunction {
    const known = this.#compiled.get(schema);
    if (known !== undefined) return known;
    const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
    const options = { strict: false, allErrors: true, logger: false } as const;
    const engine = dialect.includes("2020-12")
      ? (this.#draft2020 ??= new Ajv2020(options))
      : dialect.includes("2019-09")
        ? (this.#draft2019 ??= new Ajv2019(options))
        : (this.#draft07 ??= new Ajv(options));
    // Compiling validates the schema against its meta-schema first, so a malformed schema throws here.
    const validate = engine.compile(schema);
    this.#compiled.set(schema, validate);
    return validate;
  }
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "the answer" : error.instancePath;
  const allowed = error.keyword === "enum" ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(", ")})` : "";
  const extra = error.keyword === "additionalProperties" ? ` (${String((error.params as { additionalProperty: string }).additionalProperty)})` : "";
  return `${where} ${error.message ?? "is invalid"}${allowed}${extra}`;
}
