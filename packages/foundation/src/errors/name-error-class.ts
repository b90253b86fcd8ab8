import { brandClass } from "./brand.js";

/**
 * Names and brands an error class (a subclass of `@ag-ui-antigravity/core`'s `CodedError`, usually):
 * `error.name` is `name` (bundlers may rename the class itself) and the inherited `isInstance`
 * recognises its instances by the brand `name`. Call it once, from the class's static block:
 *
 * ```ts
 * export class PoolError extends CodedError<PoolErrorCode> {
 *   static { nameErrorClass(this, "PoolError"); }
 * }
 * ```
 */
export function nameErrorClass(target: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(target.prototype, "name", { value: name, writable: true, enumerable: false, configurable: true });
  brandClass(target, name);
}
