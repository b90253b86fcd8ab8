import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { diffJson } from "./json-patch-diff.js";
import { findNonJson, isJsonObject } from "./json-value.js";

describe("canonicalJson", () => {
  it("ignores key order at every depth but keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});

describe("diffJson", () => {
  it("adds, removes and replaces by key, escaping pointer characters", () => {
    expect(diffJson({ keep: 1, gone: 2, "a/b": 1, nested: { x: 1 } }, { keep: 1, "a/b": 2, nested: { x: 1, y: [1] }, added: "z" })).toEqual([
      { op: "remove", path: "/gone" },
      { op: "replace", path: "/a~1b", value: 2 },
      { op: "add", path: "/nested/y", value: [1] },
      { op: "add", path: "/added", value: "z" },
    ]);
  });

  it("replaces arrays whole and returns nothing for equal documents", () => {
    expect(diffJson({ list: [1, 2] }, { list: [1, 3] })).toEqual([{ op: "replace", path: "/list", value: [1, 3] }]);
    expect(diffJson({ a: { b: [1] } }, { a: { b: [1] } })).toEqual([]);
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
