import { EventType, type BaseEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { EventIdSequence, parseEventCursor } from "./event-ids.js";

const run = (runId: string): BaseEvent[] => [
  { type: EventType.RUN_STARTED, threadId: "t", runId } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_START, messageId: "m", role: "assistant" } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_END, messageId: "m" } as BaseEvent,
  { type: EventType.RUN_FINISHED, threadId: "t", runId } as BaseEvent,
];

describe("event ids", () => {
  it("number each run's events from its RUN_STARTED, and none outside a run", () => {
    const sequence = new EventIdSequence();
    const refusal = { type: EventType.RUN_ERROR, message: "no" } as BaseEvent;
    expect(sequence.next(refusal).id).toBeUndefined();
    expect([...run("a:1"), ...run("b")].map((event) => sequence.next(event).id)).toEqual(["a:1:0", "a:1:1", "a:1:2", "a:1:3:end", "b:0", "b:1", "b:2", "b:3:end"]);
  });

  it("mark what a resuming client already has, in its run only", () => {
    const sequence = new EventIdSequence({ runId: "a", index: 1, ended: false });
    expect([...run("a"), ...run("b")].map((event) => sequence.next(event).alreadySeen)).toEqual([true, true, false, false, false, false, false, false]);
  });

  it("parse only ids this binding writes", () => {
    expect(parseEventCursor("run:with:colons:12")).toEqual({ runId: "run:with:colons", index: 12, ended: false });
    // A run's terminal event says so: the client saw the whole run.
    expect(parseEventCursor("run:with:colons:12:end")).toEqual({ runId: "run:with:colons", index: 12, ended: true });
    for (const bad of ["", "12", ":3", "run:", "run:-1", "run:1e3", "run:9999999999", `${"x".repeat(600)}:1`]) expect(parseEventCursor(bad)).toBeUndefined();
  });
});
