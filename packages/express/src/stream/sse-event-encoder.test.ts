import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { createSseEventEncoder } from "./sse-event-encoder.js";

// Strings that have broken SSE or JSON writers: line separators SSE does and does not split on,
// lone surrogates, NUL, the text "null" (what the shortcut searches for), an SSE frame in a string.
const oddStrings = ["", "null", "\n", "\r", "\r\n", "\u2028", "\u2029", "\ud800", "\udfff", "\udfff\ud800", "\u0000", "data: x\n\nid: 1\n", "é𝄞👩‍👩‍👧", '"}\\'];
const text = fc.oneof(fc.constantFrom(...oddStrings), fc.string({ unit: "binary" }), fc.string());

// The field names AG-UI events, messages, inputs and outcomes use, so optional nulls land where
// @ag-ui/encoder looks for them (events, RUN_STARTED's input and its messages, snapshots, outcomes).
const fieldNames = [
  "threadId", "runId", "parentRunId", "messageId", "parentMessageId", "role", "name", "delta", "content", "toolCallId",
  "toolCallName", "toolCalls", "result", "snapshot", "messages", "input", "state", "tools", "context", "forwardedProps",
  "outcome", "interrupts", "value", "rawEvent", "event", "source", "timestamp", "metadata", "stepName", "code", "message",
  "encryptedValue", "subjectType", "entityId", "activityType", "patch", "replace", "id", "type", "function", "arguments",
  "description", "parameters", "usage", "resume", "subagentRunId", "error", "encrypted",
];
const roles = fc.constantFrom("user", "assistant", "system", "developer", "tool", "activity", "reasoning");

const json = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    text,
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), text), tie("value"), { maxKeys: 5 }),
    // A message, with a role that picks its shape and fields that may be null.
    fc.record({ id: text, role: roles, content: tie("value"), name: fc.option(text), toolCalls: fc.option(fc.array(tie("object"), { maxLength: 2 })), toolCallId: fc.option(text) }, { requiredKeys: ["id", "role"] }),
  ),
}));

const event: fc.Arbitrary<BaseEvent> = fc
  .tuple(
    fc.constantFrom(...Object.values(EventType)),
    fc.dictionary(fc.constantFrom(...fieldNames.filter((name) => name !== "type")), json.value, { maxKeys: 8 }),
    fc.option(fc.array(json.object, { maxLength: 4 })),
    fc.option(fc.record({ type: fc.constantFrom("success", "interrupt", "cancelled"), interrupts: fc.option(fc.array(json.object, { maxLength: 2 })) })),
  )
  .map(([type, fields, messages, outcome]) => {
    const built: Record<string, unknown> = { type, ...fields };
    if (messages !== null) {
      if (type === EventType.RUN_STARTED) built["input"] = { threadId: "t", runId: "r", parentRunId: null, state: fields["state"] ?? {}, messages, tools: [], context: [], forwardedProps: {} };
      else built["messages"] = messages;
    }
    if (outcome !== null) built["outcome"] = outcome;
    return built as unknown as BaseEvent;
  });

const id = fc.option(fc.oneof(text, fc.constant("run-1:42")), { nil: undefined });

describe("createSseEventEncoder", () => {
  const reference = new EventEncoder();
  const sse = createSseEventEncoder(reference);

  it("writes exactly what @ag-ui/encoder writes for any event, after an id line when the id fits on one", () => {
    fc.assert(
      fc.property(event, id, (generated, eventId) => {
        const idLine = eventId === undefined || /[\r\n\0]/.test(eventId) ? "" : `id: ${eventId}\n`;
        expect(sse.encode(generated, eventId)).toBe(`${idLine}${reference.encodeSSE(generated)}`);
      }),
      { numRuns: 600 },
    );
  });

  it("writes one SSE event: the id line, one data line and a blank line, whatever the strings hold", () => {
    fc.assert(
      fc.property(event, id, (generated, eventId) => {
        const lines = sse.encode(generated, eventId).split(/\r\n|\r|\n/);
        expect(lines.slice(-2)).toEqual(["", ""]);
        const fields = lines.slice(0, -2);
        expect(fields.at(-1)?.startsWith("data: ")).toBe(true);
        expect(fields.length).toBe(eventId === undefined || /[\r\n\0]/.test(eventId) ? 1 : 2);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves an event with a null to the encoder, which drops its optional null fields, and serialises the others itself", () => {
    const spy = vi.spyOn(reference, "encodeSSE");
    const history = Array.from({ length: 20 }, (_, index) => ({ id: `m${index}`, role: index % 2 === 0 ? "user" : "assistant", content: `text ${index}` }));
    const runStarted = (messages: unknown[]): BaseEvent => ({ type: EventType.RUN_STARTED, threadId: "t", runId: "r", input: { threadId: "t", runId: "r", state: {}, messages, tools: [], context: [], forwardedProps: {} } }) as BaseEvent;
    sse.encode(runStarted(history));
    expect(spy).not.toHaveBeenCalled();
    expect(sse.encode(runStarted([{ id: "u", role: "user", content: "hi", name: null }]))).not.toContain('"name"');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
