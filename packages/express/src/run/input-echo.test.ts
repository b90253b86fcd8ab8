import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { validateRunInput } from "../request/run-input-schema.js";
import { echoesInput, inputEchoOf } from "./input-echo.js";

const body = {
  threadId: "t",
  runId: "r",
  messages: [{ id: "m1", role: "user", content: "hello" }],
  tools: [],
  context: [],
  state: { step: 1 },
  forwardedProps: {},
};

/** The input an HTTP run would hand its agent for `value`, and the echo its request text allows. */
function echoFor(value: Record<string, unknown>, text = JSON.stringify(value)): { input: RunAgentInput; echo: ReturnType<typeof inputEchoOf> } {
  const validation = validateRunInput(value);
  if (!validation.valid) throw new Error("invalid test body");
  return { input: validation.input, echo: inputEchoOf(value, validation.input, text) };
}

describe("inputEchoOf", () => {
  it("allows the request text as the echo when the body's fields are the validated input's", () => {
    const { echo } = echoFor(body);
    expect(echo?.text).toBe(JSON.stringify(body));
  });

  it("refuses a text that would say something else than the echo, or that SSE cannot carry", () => {
    // The validation added `tools` and `context`: the text lacks them.
    const { tools: _tools, context: _context, ...bare } = body;
    expect(echoFor(bare).echo).toBeUndefined();
    // A line break (pretty-printed JSON) would end the data line; a null the encoder would drop.
    expect(echoFor(body, JSON.stringify(body, null, 2)).echo).toBeUndefined();
    expect(echoFor({ ...body, state: { step: null } }).echo).toBeUndefined();
    // No text (a body read by body-parser), or no object.
    expect(inputEchoOf(body, echoFor(body).input, undefined)).toBeUndefined();
    expect(inputEchoOf("x", echoFor(body).input, "x")).toBeUndefined();
  });
});

describe("echoesInput", () => {
  const runStarted = (input: unknown): BaseEvent => ({ type: EventType.RUN_STARTED, threadId: "t", runId: "r", input }) as BaseEvent;

  it("is true for a RUN_STARTED whose input is the run's, field for field", () => {
    const { input, echo } = echoFor(body);
    if (echo === undefined) throw new Error("no echo");
    expect(echoesInput(runStarted(input), echo)).toBe(true);
    expect(echoesInput(runStarted({ ...input }), echo)).toBe(true);
  });

  it("is false for anything else: another event, no input, a field left out, added or changed", () => {
    const { input, echo } = echoFor({ ...body, extra: "kept by the validation" });
    if (echo === undefined) throw new Error("no echo");
    const { extra: _extra, ...known } = input as RunAgentInput & { extra?: string };
    expect(echoesInput({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" } as BaseEvent, echo)).toBe(false);
    expect(echoesInput(runStarted(undefined), echo)).toBe(false);
    expect(echoesInput(runStarted(known), echo)).toBe(false);
    expect(echoesInput(runStarted({ ...input, parentRunId: "p" }), echo)).toBe(false);
    expect(echoesInput(runStarted({ ...input, messages: [...input.messages] }), echo)).toBe(false);
  });
});
