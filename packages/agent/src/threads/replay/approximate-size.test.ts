import { describe, expect, it } from "vitest";
import { approximateSize } from "./approximate-size.js";

describe("approximateSize", () => {
  it("counts a flat object's keys, strings by length and other leaves as 8 (undefined as nothing)", () => {
    expect(approximateSize({ type: "A", delta: "abc", n: 1, gone: undefined })).toBe(4 + 1 + 5 + 3 + 1 + 8 + 4);
  });

  it("gives a flat object inherited fields no weight, like Object.entries", () => {
    const event = Object.create({ inherited: "xxxxxxxx" }) as Record<string, unknown>;
    event.delta = "ab";
    expect(approximateSize(event)).toBe(5 + 2);
  });

  it("walks nested values, counts shared structure once and ends on cycles", () => {
    const shared = { c: "d" };
    const cyclic: Record<string, unknown> = { name: "x" };
    cyclic.self = cyclic;
    expect(approximateSize({ a: { b: "xy" } })).toBe(1 + 1 + 2);
    expect(approximateSize({ a: shared, b: shared })).toBe(1 + 1 + 1 + 1);
    expect(approximateSize(cyclic)).toBe(4 + 1 + 4);
    expect(approximateSize(["ab", 1, null])).toBe(2 + 8 + 8);
  });

  it("gives a value too deep or too large for the small path the same count as a small one", () => {
    const shared = { c: "d" };
    let deep: unknown = "xy";
    for (let level = 0; level < 10; level += 1) deep = { a: deep, s: shared };
    // Each level: "a" and "s" (2), the shared object once (1 + 1), the innermost string (2).
    expect(approximateSize(deep)).toBe(10 * 2 + 2 + 2);
    const wide = Array.from({ length: 40 }, (_, index) => ({ i: String(index % 10), s: shared }));
    expect(approximateSize(wide)).toBe(40 * (1 + 1 + 1) + 2);
    expect(approximateSize({ usage: [{ input: 1, output: 2 }], run: "r" })).toBe(5 + 5 + 8 + 6 + 8 + 3 + 1);
  });
});
