import { describe, expect, it } from "vitest";
import { PoolError } from "../errors/pool-error.js";
import { acquireError, capacityExhaustedError } from "./acquire-errors.js";

describe("acquireError", () => {
  const failure = new Error("socket closed");

  it("names the caller's abort first, even when the pool is closing too", () => {
    const caller = new AbortController();
    caller.abort("gave up");
    const error = acquireError(failure, { callerSignal: caller.signal, accepting: false, partitionKey: "partition-1" });
    expect(error).toMatchObject({ code: "ACQUIRE_ABORTED", cause: "gave up" });
  });

  it("names the pool closing before the failure that closing caused", () => {
    const error = acquireError(failure, { callerSignal: new AbortController().signal, accepting: false });
    expect(error.code).toBe("POOL_CLOSED");
  });

  it("passes a PoolError through unchanged", () => {
    const spawnFailed = new PoolError("SPAWN_FAILED", "the harness process failed to start");
    expect(acquireError(spawnFailed, { callerSignal: undefined, accepting: true })).toBe(spawnFailed);
  });

  it("wraps anything else as OPEN_FAILED, with its partition when known", () => {
    const named = acquireError(failure, { callerSignal: undefined, accepting: true, partitionKey: "partition-1" });
    expect(named).toMatchObject({ code: "OPEN_FAILED", cause: failure, partitionKey: "partition-1" });
    expect(acquireError(failure, { callerSignal: undefined, accepting: true }).partitionKey).toBeUndefined();
  });
});

describe("capacityExhaustedError", () => {
  it("says which limits were hit and when to try again", () => {
    const error = capacityExhaustedError({ maxProcesses: 4, maxRoomWaitMs: 250 });
    expect(error).toMatchObject({ code: "CAPACITY_EXHAUSTED", retryAfterMs: 5_000 });
    expect(error.message).toContain("4 processes");
    expect(error.message).toContain("250 ms");
  });
});
