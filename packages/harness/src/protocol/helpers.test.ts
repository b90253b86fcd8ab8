import { describe, expect, it } from "vitest";
import { loadFixture, wsMessages } from "../../test/support/protocol-fixtures.js";
import { HarnessError } from "../errors/harness-error.js";
import { isTerminalIdleState, TRAJECTORY_STATE_VALUES, TrajectoryStates } from "./enums.js";
import { outputEventKind, usageOf } from "./output-events.js";
import { parseOutputEvent } from "./parse.js";
import { ProtocolError } from "./protocol-error.js";
import { toSafeInteger } from "./wire-types.js";

describe("isTerminalIdleState", () => {
  it("treats STATE_IDLE, STATE_FULLY_IDLE and the number 2 as the terminal idle state", () => {
    expect(isTerminalIdleState("STATE_FULLY_IDLE")).toBe(true);
    expect(isTerminalIdleState("STATE_IDLE")).toBe(true);
    expect(isTerminalIdleState(2)).toBe(true);
    for (const state of ["STATE_RUNNING", "STATE_CANCELLED", "STATE_WAITING_FOR_TASKS", "STATE_UNSPECIFIED", 1, undefined]) {
      expect(isTerminalIdleState(state)).toBe(false);
    }
  });

  it("has name constants matching the value lists", () => {
    expect(Object.values(TrajectoryStates).sort()).toEqual([...TRAJECTORY_STATE_VALUES].sort());
  });
});

describe("usageOf", () => {
  it("reads usageUpdate.total (0.1.10) and the ≤0.1.9 envelope usageMetadata alike", () => {
    const events = wsMessages(loadFixture("usage"), "harness->client").map(([, message]) => parseOutputEvent(message.json));
    const usages = events.map(usageOf);
    expect(usages.every((usage) => usage !== undefined)).toBe(true);
    expect(usageOf(parseOutputEvent({ usageMetadata: { promptTokenCount: "10" } }))).toEqual({ promptTokenCount: "10" });
    expect(usageOf(parseOutputEvent({ usageUpdate: { total: { totalTokenCount: "5" } } }))).toEqual({ totalTokenCount: "5" });
    expect(usageOf(parseOutputEvent({ stepUpdate: {} }))).toBeUndefined();
  });
});

describe("outputEventKind", () => {
  it("names the payload present", () => {
    expect(outputEventKind(parseOutputEvent({ stepUpdate: {} }))).toBe("stepUpdate");
    expect(outputEventKind(parseOutputEvent({ seqNum: "1", toolCall: { id: "a" } }))).toBe("toolCall");
    expect(outputEventKind(parseOutputEvent({ sessionEndResponse: true }))).toBe("sessionEndResponse");
    expect(outputEventKind(parseOutputEvent({ usageUpdate: {} }))).toBe("usageUpdate");
    expect(outputEventKind(parseOutputEvent({ seqNum: "1", usageMetadata: {} }))).toBe("usageMetadata");
    expect(outputEventKind(parseOutputEvent({ seqNum: "3" }))).toBe("unknown");
    expect(outputEventKind(parseOutputEvent({ brandNewEvent: {} }))).toBe("unknown");
  });

  it("prefers the payload over the envelope usage", () => {
    expect(outputEventKind(parseOutputEvent({ stepUpdate: {}, usageMetadata: {} }))).toBe("stepUpdate");
  });
});

describe("toSafeInteger", () => {
  it("converts decimal strings and numbers; absent is 0", () => {
    expect(toSafeInteger("150")).toBe(150);
    expect(toSafeInteger(-3)).toBe(-3);
    expect(toSafeInteger(undefined)).toBe(0);
    expect(toSafeInteger(12n)).toBe(12);
  });

  it("refuses to lose precision", () => {
    let caught: unknown;
    try {
      toSafeInteger("12345678901234567890");
    } catch (error) {
      caught = error;
    }
    expect(ProtocolError.isInstance(caught)).toBe(true);
    expect((caught as ProtocolError).code).toBe("PROTOCOL_INVALID_MESSAGE");
  });
});

describe("ProtocolError", () => {
  it("is a HarnessError with a protocol code and details", () => {
    const error = new ProtocolError("PROTOCOL_INVALID_FRAME", "bad", { offset: 3 });
    expect(HarnessError.isInstance(error)).toBe(true);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error.name).toBe("ProtocolError");
    expect(error.details.offset).toBe(3);
    expect(ProtocolError.isInstance(new HarnessError("TIMEOUT", "slow"))).toBe(false);
    expect(ProtocolError.isInstance(new Error("x"))).toBe(false);
  });
});
