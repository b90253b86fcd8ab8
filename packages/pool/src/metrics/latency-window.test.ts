import { describe, expect, it } from "vitest";
import { LatencyWindow } from "./latency-window.js";

describe("LatencyWindow", () => {
  it("has no percentile before the first sample", () => {
    expect(new LatencyWindow().percentile(50)).toBeUndefined();
  });

  it("computes nearest-rank percentiles", () => {
    const window = new LatencyWindow();
    for (let value = 1; value <= 100; value += 1) window.record(value);
    expect(window.percentile(50)).toBe(50);
    expect(window.percentile(95)).toBe(95);
    expect(window.percentile(100)).toBe(100);
  });

  it("keeps only the most recent samples but counts them all", () => {
    const window = new LatencyWindow(4);
    for (const value of [1000, 1000, 1, 2, 3, 4]) window.record(value);
    expect(window.count).toBe(6);
    expect(window.percentile(100)).toBe(4);
  });
});
