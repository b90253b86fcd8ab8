import { describe, expect, it } from "vitest";
import { choosePlacement, type PlacementCandidate } from "./placement-policy.js";

const candidate = (id: number, occupied: number, parked = 0, ready = true): PlacementCandidate => ({ id, occupied, parked, ready });

describe("choosePlacement", () => {
  it("skips full processes and returns undefined when all are full", () => {
    expect(choosePlacement([candidate(1, 8), candidate(2, 8)], { strategy: "fill-first", capacity: 8 })).toBeUndefined();
    expect(choosePlacement([candidate(1, 8), candidate(2, 3)], { strategy: "fill-first", capacity: 8 })?.id).toBe(2);
  });

  it("fill-first picks the most pinned, then the fullest, then the oldest", () => {
    const options = { strategy: "fill-first" as const, capacity: 8 };
    expect(choosePlacement([candidate(1, 2), candidate(2, 5), candidate(3, 1)], options)?.id).toBe(2);
    expect(choosePlacement([candidate(1, 6), candidate(2, 2, 2)], options)?.id).toBe(2);
    expect(choosePlacement([candidate(2, 4), candidate(1, 4)], options)?.id).toBe(1);
  });

  it("spread picks the least active (parked do not count), then the emptiest", () => {
    const options = { strategy: "spread" as const, capacity: 8 };
    expect(choosePlacement([candidate(1, 5), candidate(2, 2), candidate(3, 3)], options)?.id).toBe(2);
    expect(choosePlacement([candidate(1, 3), candidate(2, 5, 4)], options)?.id).toBe(2);
    expect(choosePlacement([candidate(1, 3, 1), candidate(2, 2)], options)?.id).toBe(2);
  });

  it("prefers a ready process to one still starting, under either strategy", () => {
    for (const strategy of ["fill-first", "spread"] as const) {
      expect(choosePlacement([candidate(1, 6, 3, false), candidate(2, 0)], { strategy, capacity: 8 })?.id).toBe(2);
      expect(choosePlacement([candidate(1, 1, 0, false), candidate(2, 8)], { strategy, capacity: 8 })?.id).toBe(1);
    }
  });
});
