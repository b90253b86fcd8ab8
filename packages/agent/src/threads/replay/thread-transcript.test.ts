import { type BaseEvent, EventType, type Message, type RunAgentInput } from "@ag-ui/core";
import { from } from "rxjs";
import { describe, expect, it } from "vitest";
import { ThreadTranscript } from "./thread-transcript.js";

const user = (id: string, content: string): Message => ({ id, role: "user", content });
const input = (runId: string, messages: Message[]): RunAgentInput => ({ threadId: "t", runId, messages, state: { mood: "fine" }, tools: [], context: [], forwardedProps: {} });

/** One run whose reply is `reply`, as the agent's events. */
function reply(runId: string, messageId: string, text: string): BaseEvent[] {
  return [
    { type: EventType.RUN_STARTED, threadId: "t", runId },
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text },
    { type: EventType.TEXT_MESSAGE_END, messageId },
    { type: EventType.RUN_FINISHED, threadId: "t", runId },
  ] as BaseEvent[];
}

function transcript(maxBytes: number) {
  let held = 0;
  const kept = new ThreadTranscript({ maxBytes, onResize: (delta) => void (held += delta) });
  return { kept, held: () => held };
}

const follow = async (kept: ThreadTranscript, runInput: RunAgentInput, events: BaseEvent[], serverInitiated = false) => {
  kept.follow(runInput, from(events), { serverInitiated, onError: (error) => expect.fail(String(error)) });
  await kept.settled();
};

describe("ThreadTranscript", () => {
  it("keeps the whole thread while it fits", async () => {
    const { kept, held } = transcript(10_000);
    await follow(kept, input("r1", [user("u1", "hello")]), reply("r1", "a1", "hi"));
    expect(kept.view.messages.map((message) => message.id)).toEqual(["u1", "a1"]);
    expect(kept.view.omitted).toBeUndefined();
    expect(held()).toBe(kept.sizeBytes);
  });

  it("past its bound drops the oldest messages and says how many; a 900 kB message is never kept", async () => {
    const { kept, held } = transcript(10_000);
    await follow(kept, input("r1", [user("u1", "x".repeat(900_000))]), reply("r1", "a1", "ok"));
    expect(kept.view.messages.map((message) => message.id)).toEqual(["a1"]);
    expect(kept.view.omitted).toEqual({ messages: 1, reason: "thread_limit" });
    expect(held()).toBeLessThan(10_000);
  });

  it("a run the server starts from the kept messages carries the omission on", async () => {
    const { kept } = transcript(10_000);
    await follow(kept, input("r1", [user("u1", "x".repeat(900_000))]), reply("r1", "a1", "ok"));
    await follow(kept, input("r2", kept.view.messages), reply("r2", "a2", "reminder"), true);
    expect(kept.view.messages.map((message) => message.id)).toEqual(["a1", "a2"]);
    expect(kept.view.omitted).toEqual({ messages: 1, reason: "thread_limit" });
  });

  it("evict empties messages and state, keeps the count, and gives the room back", async () => {
    const { kept, held } = transcript(10_000);
    await follow(kept, input("r1", [user("u1", "hello")]), reply("r1", "a1", "hi"));
    kept.evict();
    expect(kept.view).toMatchObject({ messages: [], state: undefined, omitted: { messages: 2, reason: "evicted" } });
    expect(held()).toBe(0);
    // The client's next run brings the whole thread back.
    await follow(kept, input("r2", [user("u1", "hello"), { id: "a1", role: "assistant", content: "hi" }, user("u2", "again")]), reply("r2", "a2", "yes"));
    expect(kept.view.omitted).toBeUndefined();
    expect(kept.view.messages).toHaveLength(4);
  });

  it("holds a run, counted, until it is read; a client's next run supersedes it unapplied", async () => {
    const { kept, held } = transcript(10_000);
    const refused: unknown[] = [];
    kept.follow(input("r1", [user("u1", "hello")]), from(reply("r1", "a1", "hi")), { serverInitiated: false, onError: (error) => refused.push(error) });
    expect(kept.view.messages).toEqual([]);
    expect(kept.sizeBytes).toBeGreaterThan(0);
    expect(held()).toBe(kept.sizeBytes);
    // r2's input is the thread as its client holds it, r1's reply included.
    const history = [user("u1", "hello"), { id: "a1", role: "assistant", content: "hi" } as Message, user("u2", "again")];
    kept.follow(input("r2", history), from(reply("r2", "a2", "yes")), { serverInitiated: false, onError: (error) => refused.push(error) });
    await kept.settled();
    expect(kept.view.messages.map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(refused).toEqual([]);
    expect(held()).toBe(kept.sizeBytes);
    kept.close();
    expect(held()).toBe(0);
  });

  it("evicted while a run is held: the run's outcome is evicted once applied, its interrupts kept", async () => {
    const { kept, held } = transcript(10_000);
    const interrupted = reply("r1", "a1", "approve?");
    interrupted[interrupted.length - 1] = { type: EventType.RUN_FINISHED, threadId: "t", runId: "r1", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] } } as BaseEvent;
    kept.follow(input("r1", [user("u1", "hello")]), from(interrupted), { serverInitiated: false, onError: (error) => expect.fail(String(error)) });
    kept.evict();
    await kept.settled();
    expect(kept.view).toMatchObject({ messages: [], state: undefined, omitted: { messages: 2, reason: "evicted" } });
    expect(kept.view.interrupts.map((interrupt) => interrupt.id)).toEqual(["i1"]);
    expect(held()).toBe(kept.sizeBytes);
  });
});
