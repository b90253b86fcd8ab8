import { type AbstractAgent, type BaseEvent, defaultApplyEvents, EventType, type Message, type RunAgentInput } from "@ag-ui/client";
import { firstValueFrom, from, last, type Observable as Events, Observable, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { coalesceDeltas } from "./coalesced-deltas.js";

const runInput: RunAgentInput = { threadId: "t", runId: "r", messages: [{ id: "u1", role: "user", content: "hi" }], state: {}, tools: [], context: [], forwardedProps: {} };

/** A run with text, reasoning and a tool call, each streamed in pieces, interleaved where a model can. */
const run = [
  { type: EventType.RUN_STARTED, threadId: "t", runId: "r" },
  { type: EventType.REASONING_START, messageId: "think" },
  { type: EventType.REASONING_MESSAGE_START, messageId: "think", role: "reasoning" },
  { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "think", delta: "let " },
  { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "think", delta: "me see" },
  { type: EventType.REASONING_MESSAGE_END, messageId: "think" },
  { type: EventType.REASONING_END, messageId: "think" },
  { type: EventType.TEXT_MESSAGE_START, messageId: "a1", role: "assistant" },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a1", delta: "Hel", timestamp: 1 },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a1", delta: "lo", timestamp: 2 },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a1", delta: "!", rawEvent: { n: 3 } },
  { type: EventType.TOOL_CALL_START, toolCallId: "c1", toolCallName: "search", parentMessageId: "a1" },
  { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '{"q":' },
  { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '"x"}' },
  { type: EventType.TOOL_CALL_END, toolCallId: "c1" },
  { type: EventType.TEXT_MESSAGE_END, messageId: "a1" },
  { type: EventType.TEXT_MESSAGE_START, messageId: "a2", role: "assistant" },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a2", delta: "one" },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a2", delta: "two" },
] as BaseEvent[];

/** The messages `@ag-ui/client`'s reducer ends with after `events`. */
const applied = async (events: Events<BaseEvent>): Promise<Message[]> => {
  const agent = { messages: runInput.messages, pendingInterrupts: [] };
  let messages: Message[] = runInput.messages;
  await new Promise<void>((resolve) => {
    defaultApplyEvents(runInput, events, agent as unknown as AbstractAgent, []).subscribe({ next: (mutation) => void (mutation.messages === undefined ? undefined : (messages = mutation.messages)), complete: resolve });
  });
  return messages;
};

describe("coalesceDeltas", () => {
  it("joins each uninterrupted series of deltas to one target, keeping the first event's fields; a run that ends mid-series keeps its tail", async () => {
    const joined = await firstValueFrom(coalesceDeltas(from(run)).pipe(toArray()));
    const deltas = joined.filter((event) => "delta" in event).map((event) => [event.type, (event as unknown as { delta: string }).delta]);
    expect(deltas).toEqual([
      [EventType.REASONING_MESSAGE_CONTENT, "let me see"],
      [EventType.TEXT_MESSAGE_CONTENT, "Hello!"],
      [EventType.TOOL_CALL_ARGS, '{"q":"x"}'],
      [EventType.TEXT_MESSAGE_CONTENT, "onetwo"],
    ]);
    expect(joined.find((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)).toMatchObject({ messageId: "a1", timestamp: 1 });
    expect(joined.length).toBe(run.length - 5);
    expect(await firstValueFrom(coalesceDeltas(from(run)).pipe(last()))).toMatchObject({ messageId: "a2", delta: "onetwo" });
  });

  it("does not join deltas that differ in anything but their text and timestamp", async () => {
    const apart = [
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a1", delta: "x" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a2", delta: "y" },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a2", delta: "z", subagentRunId: "s" },
    ] as BaseEvent[];
    expect(await firstValueFrom(coalesceDeltas(from(apart)).pipe(toArray()))).toEqual(apart);
  });

  it("leaves @ag-ui/client's reducer with the same messages as the events one by one", async () => {
    expect(await applied(coalesceDeltas(from(run)))).toEqual(await applied(from(run)));
    const messages = await applied(coalesceDeltas(from(run)));
    expect(messages.find((message) => message.id === "a1")).toMatchObject({ content: "Hello!", toolCalls: [{ id: "c1", function: { name: "search", arguments: '{"q":"x"}' } }] });
  });

  it("passes an error on after what it held", async () => {
    const failing = new Observable<BaseEvent>((subscriber) => {
      for (const event of run.slice(7, 10)) subscriber.next(event);
      subscriber.error(new Error("cut"));
    });
    const seen: BaseEvent[] = [];
    const error = await new Promise((resolve) => {
      coalesceDeltas(failing).subscribe({ next: (event) => void seen.push(event), error: resolve });
    });
    expect(String(error)).toContain("cut");
    expect(seen.map((event) => (event as unknown as { delta?: string }).delta)).toEqual([undefined, "Hello"]);
  });
});
