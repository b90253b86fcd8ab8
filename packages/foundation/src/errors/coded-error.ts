import { brandClass, brandOf, hasBrand } from "./brand.js";

/** What a `CodedError` carries beside its code and message: the error that caused it. */
export interface CodedErrorOptions {
  /** The error this one wraps, kept as the standard `Error.cause` for logs and debuggers. */
  cause?: unknown;
}

/**
 * The one base of every error class of the workspace: a machine-readable `code` (match on it,
 * never on messages), the standard `cause`, and a brand. A subclass names and brands itself once:
 *
 * ```ts
 * export class PoolError extends CodedError<PoolErrorCode> {
 *   static { nameErrorClass(this, "PoolError"); }
 * }
 * ```
 *
 * and inherits `PoolError.isInstance(value)`, which narrows to `PoolError` across bundles.
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

/**
 * Names and brands an error class: `error.name` is `name` (bundlers may rename the class itself)
 * and `isInstance` recognises its instances by the brand `name`.
 */
export function nameErrorClass(target: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(target.prototype, "name", { value: name, writable: true, enumerable: false, configurable: true });
  brandClass(target, name);
}
