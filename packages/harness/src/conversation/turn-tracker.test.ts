import { silentLogger } from "@ag-ui-antigravity/foundation";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../errors/harness-error.js";
import { DEFAULT_TURN_TIMINGS } from "./conversation-timings.js";
import { ZERO_USAGE } from "./token-usage.js";
import { TurnTracker } from "./turn-tracker.js";

const usage = ZERO_USAGE;

function tracker(): TurnTracker {
  return new TurnTracker({
    origin: "user",
    logger: silentLogger,
    conversationId: () => "c",
    timeoutMs: false,
    timings: DEFAULT_TURN_TIMINGS,
    currentUsage: () => usage,
    sendHalt: () => Promise.resolve(),
    onSettled: () => undefined,
  });
}

describe("TurnTracker's stopSignal", () => {
  it("is aborted with CANCELLED when the turn is cancelled while a handler holds it", () => {
    const turn = tracker();
    turn.begin(usage);
    const signal = turn.stopSignal;
    expect(signal.aborted).toBe(false);
    turn.cancel();
    expect(signal.aborted).toBe(true);
    expect(HarnessError.isInstance(signal.reason) && signal.reason.code).toBe("CANCELLED");
    turn.complete();
    expect(signal.reason.message).toBe("the turn was cancelled");
  });

  it("is aborted when the turn ended, even when first asked for after the end", () => {
    const held = tracker();
    held.begin(usage);
    const signal = held.stopSignal;
    held.complete();
    expect(signal.aborted).toBe(true);
    expect(signal.reason.message).toBe("the turn ended");

    const late = tracker();
    late.begin(usage);
    late.complete();
    expect(late.stopSignal.aborted).toBe(true);
    expect(HarnessError.isInstance(late.stopSignal.reason) && late.stopSignal.reason.code).toBe("CANCELLED");
    expect(late.stopSignal).toBe(late.stopSignal);
  });

  it("keeps the first reason: a timed-out turn's signal says so after the turn ended", async () => {
    const turn = new TurnTracker({
      origin: "user",
      logger: silentLogger,
      conversationId: () => "c",
      timeoutMs: 1,
      timings: { ...DEFAULT_TURN_TIMINGS, haltDrainMs: 1 },
      currentUsage: () => usage,
      sendHalt: () => Promise.resolve(),
      onSettled: () => undefined,
    });
    turn.begin(usage);
    await turn.turn.result.catch(() => undefined);
    expect(turn.settled).toBe(true);
    expect(HarnessError.isInstance(turn.stopSignal.reason) && turn.stopSignal.reason.code).toBe("TIMEOUT");
  });
});
