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
});
