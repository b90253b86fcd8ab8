import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { describe, expect, it, vi } from "vitest";
import { encodeSseEvent, encodeSseEventWithInputText } from "./sse-encoding.js";

const history = Array.from({ length: 40 }, (_, index) => ({ id: `m${index}`, role: index % 2 === 0 ? "user" : "assistant", content: `text ${index}` }));
const runStarted = (messages: unknown[]): BaseEvent =>
  ({
    type: EventType.RUN_STARTED,
    threadId: "t",
    runId: "r",
    input: { threadId: "t", runId: "r", state: {}, messages, tools: [], context: [], forwardedProps: {} },
  }) as BaseEvent;

describe("encodeSseEvent", () => {
  const encoder = new EventEncoder();
  const events: Array<[string, BaseEvent]> = [
    ["a text delta", { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "hello" } as BaseEvent],
    ["RUN_STARTED with a history", runStarted(history)],
    ["RUN_STARTED whose messages carry optional nulls", runStarted([{ id: "u", role: "user", content: "hi", name: null }, { id: "a", role: "assistant", content: null, toolCalls: null }])],
    ['a delta that says "null"', { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "null and void" } as BaseEvent],
    ["an optional null at the top", { type: EventType.TEXT_MESSAGE_START, messageId: "m", role: "assistant", name: null } as unknown as BaseEvent],
  ];

  it.each(events)("writes exactly what the encoder writes: %s", (_name, event) => {
    expect(encodeSseEvent(encoder, event)).toBe(encoder.encodeSSE(event));
  });

  it("puts an id line first, unless the id could break it", () => {
    const delta = { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "hello" } as BaseEvent;
    expect(encodeSseEvent(encoder, delta, "run:3")).toBe(`id: run:3\n${encoder.encodeSSE(delta)}`);
    expect(encodeSseEvent(encoder, delta, "null-run:3")).toBe(`id: null-run:3\n${encoder.encodeSSE(delta)}`);
    const withNull = { type: EventType.TEXT_MESSAGE_START, messageId: "m", role: "assistant", name: null } as unknown as BaseEvent;
    expect(encodeSseEvent(encoder, withNull, "run:1")).toBe(`id: run:1\n${encoder.encodeSSE(withNull)}`);
    for (const id of ["run\n:1", "run\r:1", "run\u0000:1"]) expect(encodeSseEvent(encoder, delta, id)).toBe(encoder.encodeSSE(delta));
  });

  it("leaves events with a null to the encoder, and serialises the others itself", () => {
    const spy = vi.spyOn(encoder, "encodeSSE");
    encodeSseEvent(encoder, runStarted(history));
    expect(spy).not.toHaveBeenCalled();
    const withNull = runStarted([{ id: "u", role: "user", content: "hi", name: null }]);
    expect(encodeSseEvent(encoder, withNull)).not.toContain('"name"');
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe("encodeSseEventWithInputText", () => {
  const encoder = new EventEncoder();

  it("writes the input's text as given, in an event that parses to what encodeSseEvent writes", () => {
    const event = runStarted(history);
    const text = JSON.stringify((event as BaseEvent & { input: unknown }).input).replace(/,/g, ", ");
    const chunk = encodeSseEventWithInputText(encoder, event, text, "run:0");
    expect(chunk).toContain(`"input":${text}}`);
    expect(chunk.startsWith("id: run:0\ndata: ")).toBe(true);
    const parse = (sse: string): unknown => JSON.parse(sse.slice(sse.indexOf("data: ") + 6));
    expect(parse(chunk)).toEqual(parse(encodeSseEvent(encoder, event, "run:0")));
  });

  it("leaves an event whose other fields hold a null to the encoder, input and all", () => {
    const event = { ...runStarted(history), parentRunId: null } as unknown as BaseEvent;
    const text = JSON.stringify((event as BaseEvent & { input: unknown }).input).replace(/,/g, ", ");
    expect(encodeSseEventWithInputText(encoder, event, text)).toBe(encoder.encodeSSE(event));
  });
});
