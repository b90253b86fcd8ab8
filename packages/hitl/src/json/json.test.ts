import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { findNonJson, isJsonObject } from "./json-value.js";

describe("canonicalJson", () => {
  it("ignores key order at every depth but keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});

describe("JSON checks", () => {
  it("name where a value stops being JSON", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findNonJson({ a: [1, { b: undefined }] })).toBe("$.a[1].b");
    expect(findNonJson(cyclic)).toBe("$.self");
    expect(findNonJson(new Map())).toBe("$");
    expect(isJsonObject({ a: [1, "x", null, true, { b: 2.5 }] })).toBe(true);
    expect(isJsonObject([])).toBe(false);
  });
});
