import { describe, expect, it } from "vitest";
import { validateRunInput } from "./run-input-schema.js";

const minimal = { threadId: "t", runId: "r", messages: [] };

describe("validateRunInput", () => {
  it("accepts a minimal input and keeps unknown top-level fields", () => {
    const result = validateRunInput({ ...minimal, experimental: 1 });
    expect(result.valid).toBe(true);
    expect(result.valid && (result.input as unknown as Record<string, unknown>)["experimental"]).toBe(1);
  });

  it("reads a null state as absent, as @ag-ui/core does", () => {
    const result = validateRunInput({ ...minimal, state: null });
    expect(result.valid && result.input.state).toBeUndefined();
  });

  it("locates issues with JSON-pointer paths and never echoes values", () => {
    const result = validateRunInput({ threadId: "t", runId: 7, messages: [{ id: "m", role: "user", content: 12345 }] });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["/runId"]));
    expect(JSON.stringify(result.issues)).not.toContain("12345");
  });

  it("caps the number of issues it reports", () => {
    const messages = Array.from({ length: 50 }, () => ({ role: "nobody" }));
    const result = validateRunInput({ ...minimal, messages });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.issues).toHaveLength(21);
    expect(result.issues[20]?.message).toMatch(/more issue\(s\) omitted/);
  });
});
