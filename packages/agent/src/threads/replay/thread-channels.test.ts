import { type BaseEvent, EventType, type RunAgentInput } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { ThreadChannels } from "./thread-channels.js";

const input = (threadId: string, text: string): RunAgentInput => ({
  threadId,
  runId: `${threadId}-run`,
  messages: [{ id: `${threadId}-u`, role: "user", content: text }],
  state: {},
  tools: [],
  context: [],
  forwardedProps: {},
});

function channels(overrides: Partial<ConstructorParameters<typeof ThreadChannels>[0]> = {}): ThreadChannels {
  return new ThreadChannels({
    maxThreads: 1_000,
    maxReplayEvents: 1_000,
    maxReplayBytes: 1_000_000,
    maxGraceRunBytes: 50_000,
    maxTotalGraceBytes: 100_000,
    replayGraceMs: 60_000,
    maxTranscriptBytes: 20_000,
    maxTotalTranscriptBytes: 50_000,
    warn: () => undefined,
    ...overrides,
  });
}

/** One whole run on a thread: the user's `text`, then a reply of `replySize` characters. */
async function runOn(all: ThreadChannels, threadId: string, text: string, replySize: number): Promise<void> {
  const runInput = input(threadId, text);
  const channel = all.get(threadId);
  const run = channel.begin(runInput, { serverInitiated: false });
  const messageId = `${threadId}-a`;
  for (const event of [
    { type: EventType.RUN_STARTED, threadId, runId: runInput.runId, input: runInput },
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: "r".repeat(replySize) },
    { type: EventType.TEXT_MESSAGE_END, messageId },
    { type: EventType.RUN_FINISHED, threadId, runId: runInput.runId },
  ] as BaseEvent[]) {
    run.record(event);
  }
  channel.finish(run);
  await channel.transcript.settled();
}

describe("ThreadChannels", () => {
  it("holds a bounded amount however many big threads pass: transcripts and ended runs alike", async () => {
    const all = channels();
    for (let index = 0; index < 100; index += 1) await runOn(all, `t${index}`, "x".repeat(300_000), 15_000);
    const held = all.heldBytes;
    expect(held.transcripts).toBeLessThanOrEqual(50_000);
    expect(held.replay).toBeLessThanOrEqual(100_000);
    // The most recent thread still has its reply; the oldest were emptied, and say so.
    expect(all.peek("t99")?.transcript.view.messages.map((message) => message.role)).toEqual(["assistant"]);
    expect(all.peek("t0")?.transcript.view.omitted?.reason).toBe("evicted");
    // Runs past the grace budget are no longer replayable; the latest still is.
    expect(all.peek("t0")?.run("t0-run")).toBeUndefined();
    expect(all.peek("t99")?.run("t99-run")?.replayable).toBe(true);
    all.close();
    expect(all.heldBytes).toEqual({ transcripts: 0, replay: 0 });
  });

  it("drops an ended run too large for the grace period at once", async () => {
    const all = channels();
    await runOn(all, "big", "hi", 60_000);
    expect(all.peek("big")?.run("big-run")).toBeUndefined();
    expect(all.heldBytes.replay).toBe(0);
    all.close();
  });

  it("gives a new run's thread a channel when followers hold every other one; a follower on a new thread gets none", () => {
    const all = channels({ maxThreads: 2 });
    const ended: string[] = [];
    for (const threadId of ["f1", "f2"]) all.get(threadId).serverRuns().subscribe({ complete: () => void ended.push(threadId) });
    // A follower of a third thread when both channels are followed: its channel is the one dropped.
    let thirdEnded = false;
    all.get("f3").serverRuns().subscribe({ complete: () => void (thirdEnded = true) });
    expect(thirdEnded).toBe(true);
    expect(all.peek("f3")).toBeUndefined();
    // A run's new channel stays; the least recently used followed-only channel makes room.
    const channel = all.get("r1", { forRun: true });
    expect(all.peek("r1")).toBe(channel);
    expect(ended).toEqual(["f1"]);
    expect(all.size).toBe(2);
  });

  it("holds no more channels than maxThreads however many short runs end within their replay window", () => {
    const all = channels({ maxThreads: 3 });
    for (let index = 0; index < 20; index += 1) {
      const threadId = `t${index}`;
      const channel = all.get(threadId, { forRun: true });
      const run = channel.begin(input(threadId, "hi"), { serverInitiated: false });
      run.record({ type: EventType.RUN_STARTED, threadId, runId: `${threadId}-run` } as BaseEvent);
      run.record({ type: EventType.RUN_FINISHED, threadId, runId: `${threadId}-run` } as BaseEvent);
      channel.finish(run);
    }
    expect(all.size).toBe(3);
    // The newest runs' channels are the ones kept.
    expect(all.peek("t19")?.run("t19-run")).toBeDefined();
    all.close();
  });
});

