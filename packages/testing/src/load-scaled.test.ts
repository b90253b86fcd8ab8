import { availableParallelism, loadavg } from "node:os";
import { describe, expect, it } from "vitest";
import { loadScaledMs } from "./load-scaled.js";

describe("loadScaledMs", () => {
  it("never shrinks a bound, stretches it by the load per core, and caps the stretch", () => {
    const stretch = Math.min(6, Math.max(1, (loadavg()[0] ?? 0) / availableParallelism()));
    const scaled = loadScaledMs(1_000);
    expect(scaled).toBeGreaterThanOrEqual(1_000);
    // The load average can move between the two readings; the bound follows it to within rounding.
    expect(Math.abs(scaled - 1_000 * stretch)).toBeLessThanOrEqual(1_000);
    expect(loadScaledMs(1_000, 1)).toBe(1_000);
    expect(loadScaledMs(1_000, 2)).toBeLessThanOrEqual(2_000);
  });
});
