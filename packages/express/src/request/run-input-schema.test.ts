import { RunAgentInputSchema } from "@ag-ui/core/schemas";
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

  it("takes a text-only history as the schema would, and leaves any other message to the schema", () => {
    const messages = [
      { id: "s", role: "system", content: "be brief" },
      { id: "u", role: "user", content: "hello", name: "Ada" },
      { id: "a", role: "assistant", content: "hi" },
    ];
    const result = validateRunInput({ ...minimal, messages, state: null, extra: true });
    expect(result).toEqual({ valid: true, input: { ...minimal, messages, state: undefined, tools: [], context: [], extra: true } });
    const withTool = [...messages, { id: "a2", role: "assistant", toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] }, { id: "t", role: "tool", content: "ok", toolCallId: "c" }];
    expect(validateRunInput({ ...minimal, messages: withTool })).toMatchObject({ valid: true, input: { messages: withTool } });
    for (const odd of [{ id: "u", role: "user", content: "x", name: 7 }, { id: "u", role: "user", content: "x", metadata: "not an object" }, { id: 1, role: "user", content: "x" }, { id: "u", role: "robot", content: "x" }]) {
      expect(validateRunInput({ ...minimal, messages: [odd] }).valid, JSON.stringify(odd)).toBe(false);
    }
    const invalidEnvelope = validateRunInput({ ...minimal, runId: 7, messages });
    expect(invalidEnvelope.valid).toBe(false);
    if (!invalidEnvelope.valid) expect(invalidEnvelope.issues.map((issue) => issue.path)).toEqual(["/runId"]);
  });

  it("takes a plain envelope without the schema, with the very result the schema gives, and leaves every other envelope to it", () => {
    const messages = [{ id: "u", role: "user", content: "hello" }];
    const tool = { name: "pick", description: "picks", parameters: { type: "object" } };
    const accepted = [
      { ...minimal, messages },
      { ...minimal, messages, tools: [], context: [], state: {}, forwardedProps: {} },
      { ...minimal, messages, protocolVersion: "1.0", parentRunId: "p", state: { count: 1 }, forwardedProps: { command: { resume: 1 } }, later: [1] },
      { ...minimal, messages, tools: [tool, { name: "bare", description: "" }, { ...tool, metadata: { a: 1 }, extra: true }], context: [{ description: "d", value: "v", more: 1 }] },
      { ...minimal, messages, state: null },
      { ...minimal, messages, resume: [{ interruptId: "i", status: "resolved", payload: 1 }] },
    ];
    for (const body of accepted) {
      const schema = RunAgentInputSchema.loose().safeParse(body);
      expect(schema.success, JSON.stringify(body)).toBe(true);
      expect(validateRunInput(body), JSON.stringify(body)).toEqual({ valid: true, input: schema.data });
    }
    const refused = [
      { ...minimal, messages, threadId: 1 },
      { ...minimal, messages, protocolVersion: 1 },
      { ...minimal, messages, parentRunId: null },
      { ...minimal, messages, forwardedProps: null },
      { ...minimal, messages, tools: {} },
      { ...minimal, messages, tools: [{ name: "n" }] },
      { ...minimal, messages, tools: [{ ...tool, parameters: null }] },
      { ...minimal, messages, tools: [{ ...tool, metadata: [] }] },
      { ...minimal, messages, context: [{ description: "d" }] },
      { ...minimal, messages, context: [{ description: "d", value: 2 }] },
      { ...minimal, messages, resume: [{ interruptId: "i", status: "maybe" }] },
    ];
    for (const body of refused) {
      expect(RunAgentInputSchema.loose().safeParse(body).success, JSON.stringify(body)).toBe(false);
      expect(validateRunInput(body).valid, JSON.stringify(body)).toBe(false);
    }
  });
});
