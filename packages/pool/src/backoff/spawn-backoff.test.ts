import { describe, expect, it } from "vitest";
import { SpawnBackoff } from "./spawn-backoff.js";

describe("SpawnBackoff", () => {
  it("lets the first failure retry at once, then doubles up to the cap", () => {
    const backoff = new SpawnBackoff({ initialDelayMs: 100, maxDelayMs: 350, resetAfterMs: 10_000 });
    expect(backoff.recordFailure(0)).toBe(0);
    expect(backoff.remainingMs(0)).toBe(0);
    expect(backoff.recordFailure(10)).toBe(100);
    expect(backoff.remainingMs(60)).toBe(50);
    expect(backoff.recordFailure(200)).toBe(200);
    expect(backoff.recordFailure(500)).toBe(350);
    expect(backoff.consecutiveFailures).toBe(4);
  });

  it("starts a new count after a quiet period, so isolated crashes cost nothing", () => {
    const backoff = new SpawnBackoff({ initialDelayMs: 100, resetAfterMs: 1_000 });
    backoff.recordFailure(0);
    expect(backoff.recordFailure(500)).toBe(100);
    expect(backoff.recordFailure(5_000)).toBe(0);
    expect(backoff.consecutiveFailures).toBe(1);
  });
});
