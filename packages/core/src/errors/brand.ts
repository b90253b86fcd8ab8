/**
 * Brands: how a value is recognised as one of our classes without `instanceof`, which fails across
 * the ESM and CJS builds of one package, across two entries of one package built without shared
 * chunks, and across duplicated installs. A brand is a `Symbol.for` key (one registry per realm,
 * shared by every copy of the code) set on the class's prototype.
 *
 * Private to this package: `CodedError` needs it, and this package imports nothing of ours. The key
 * names are a contract shared with the workspace's internal `brandClass` (packages/foundation,
 * errors/brand.ts), which brands every other class and names each error subclass; a test there
 * proves the two recognise each other.
 */
const brandPrefix = "ag-ui-antigravity.";
const brandKeys = new Map<string, symbol>();
const classBrand = Symbol.for(`${brandPrefix}brandOfClass`);

function brandKey(name: string): symbol {
  let key = brandKeys.get(name);
  if (key === undefined) {
    key = Symbol.for(brandPrefix + name);
    brandKeys.set(name, key);
  }
  return key;
}

/** A class, whatever its constructor's visibility. */
type AnyClass = { readonly prototype: object; readonly name: string };

/**
 * Marks every instance of `target` (and of its subclasses) as a `name`. Call it once, from the
 * class's static block. A class may carry several brands: a subclass keeps its parent's.
 */
export function brandClass(target: AnyClass, name: string): void {
  Object.defineProperty(target.prototype, brandKey(name), { value: true, enumerable: false });
  Object.defineProperty(target, classBrand, { value: name, enumerable: false, configurable: true });
}

/** True when `value` is an instance of a class branded `name`, whichever copy of the code built it. */
export function hasBrand(value: unknown, name: string): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brandKey(name)] === true;
}

/** The brand `brandClass` gave `target` (or its nearest branded ancestor). */
export function brandOf(target: AnyClass): string {
  const name = (target as unknown as Record<symbol, unknown>)[classBrand];
  if (typeof name !== "string") throw new TypeError(`${target.name} has no brand: call brandClass from its static block`);
  return name;
}
