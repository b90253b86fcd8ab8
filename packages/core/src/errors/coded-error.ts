import { brandClass, brandOf, hasBrand } from "./brand.js";

/** What a `CodedError` carries beside its code and message: the error that caused it. */
export interface CodedErrorOptions {
  /** The error this one wraps, kept as the standard `Error.cause` for logs and debuggers. */
  cause?: unknown;
}

/**
 * The one base of every error class of the ag-ui-antigravity packages: a machine-readable `code`
 * (match on it, never on messages), the standard `cause`, and a brand. Every package's error
 * (`PoolError`, `HarnessError`, `AgentError`, …) extends this one class, so `error instanceof
 * CodedError` holds whichever package threw it, and `CodedError.isInstance(error)` holds even across
 * two installed copies of this package or the ESM and CJS builds of it:
 *
 * ```ts
 * import { CodedError } from "@ag-ui-antigravity/core";
 *
 * if (CodedError.isInstance(error)) console.error(error.code, error.message);
 * ```
 *
 * A subclass inherits `isInstance`, which narrows to the subclass (`PoolError.isInstance(value)`).
 */
export class CodedError<Code extends string = string> extends Error {
  /** What went wrong, as a stable machine-readable code (the class's own vocabulary). */
  readonly code: Code;

  static {
    brandClass(this, "CodedError");
  }

  /** An error with `code`, a human-readable `message`, and the `cause` when there is one. */
  constructor(code: Code, message: string, options: CodedErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  /** True when `value` is an instance of this class (by brand), from whichever copy of the code. */
  static isInstance<Instance extends object>(this: abstract new (...args: never[]) => Instance, value: unknown): value is Instance {
    return hasBrand(value, brandOf(this));
  }
}
