import { type BaseEvent, EventType, type RunAgentInput } from "@ag-ui/core";
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { RecordedRun } from "./recorded-run.js";

const input = (text: string): RunAgentInput => ({
  threadId: "t",
  runId: "r",
  messages: [{ id: "m", role: "user", content: text }],
  state: {},
  tools: [],
  context: [],
  forwardedProps: {},
});
const started = (text: string): BaseEvent => ({ type: EventType.RUN_STARTED, threadId: "t", runId: "r", input: input(text) }) as BaseEvent;
const text = (delta: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "a", delta }) as BaseEvent;
const finished: BaseEvent = { type: EventType.RUN_FINISHED, threadId: "t", runId: "r" } as BaseEvent;

describe("RecordedRun", () => {
  it("does not count RUN_STARTED's input (the run holds it anyway), and drops it when kept past the end", async () => {
    const run = new RecordedRun("r", { maxEvents: 100, maxBytes: 1_000, serverInitiated: false });
    run.record(started("x".repeat(900_000)));
    run.record(text("hello"));
    run.record(finished);
    expect(run.replayable).toBe(true);
    expect(run.sizeBytes).toBeLessThan(200);
    expect(run.trimForGrace(1_000)).toBe(true);
    const replayed = await firstValueFrom(run.replay().pipe(toArray()));
    expect(replayed.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.TEXT_MESSAGE_CONTENT, EventType.RUN_FINISHED]);
    expect(replayed[0]).not.toHaveProperty("input");
  });

  it("past its size bound stops keeping events, goes on live, and says it cannot be replayed", async () => {
    const run = new RecordedRun("r", { maxEvents: 100, maxBytes: 1_000, serverInitiated: false });
    const live: BaseEvent[] = [];
    run.live().subscribe((event) => void live.push(event));
    run.record(started("hi"));
    run.record(text("y".repeat(2_000)));
    expect(run.replayable).toBe(false);
    expect(run.sizeBytes).toBe(0);
    run.record(finished);
    expect(live).toHaveLength(3);
    await expect(firstValueFrom(run.replay())).rejects.toMatchObject({ code: "REPLAY_UNAVAILABLE" });
  });

  it("an ended run larger than the grace bound is dropped at once", () => {
    const run = new RecordedRun("r", { maxEvents: 100, maxBytes: 100_000, serverInitiated: false });
    run.record(started("hi"));
    run.record(text("z".repeat(5_000)));
    run.record(finished);
    expect(run.trimForGrace(1_000)).toBe(false);
    expect(run.replayable).toBe(false);
    expect(run.sizeBytes).toBe(0);
  });
});
