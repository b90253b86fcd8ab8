import { describe, expect, it } from "vitest";
import { envNamesOf, partitionKeyOf } from "./partition.js";

describe("partitionKeyOf", () => {
  it("ignores env order and tells apart directories and env values", () => {
    const key = partitionKeyOf({ storageDirectory: "/data", env: { B: "2", A: "1" } });
    expect(partitionKeyOf({ storageDirectory: "/data", env: { A: "1", B: "2" } })).toBe(key);
    expect(partitionKeyOf({ storageDirectory: "/other", env: { A: "1", B: "2" } })).not.toBe(key);
    expect(partitionKeyOf({ storageDirectory: "/data", env: { A: "1", B: "3" } })).not.toBe(key);
    expect(partitionKeyOf({})).toBe(partitionKeyOf({ env: {} }));
    expect(partitionKeyOf({ storageDirectory: "/data", group: "hitl" })).not.toBe(partitionKeyOf({ storageDirectory: "/data" }));
  });

  it("never shows env values, which may be secrets", () => {
    const key = partitionKeyOf({ env: { GEMINI_API_KEY: "secret-value" } });
    expect(key).not.toContain("secret");
    expect(envNamesOf({ env: { GEMINI_API_KEY: "secret-value", A: "x" } })).toEqual(["A", "GEMINI_API_KEY"]);
  });
});
