import { afterEach, describe, expect, it, vi } from "vitest";
import type { ParkedItem } from "./parked-item.js";
import { ParkingLot } from "./parking-lot.js";

function frontendItem(id: string, expiresAtMs: number, log: string[]): ParkedItem {
  return { kind: "frontend-tool", id, toolName: "t", arguments: {}, expiresAtMs, settle: (outcome) => log.push(`${id}:${JSON.stringify(outcome)}`), fail: (error) => log.push(`${id}:failed:${String(error)}`) };
}

describe("ParkingLot", () => {
  afterEach(() => void vi.useRealTimers());

  it("expires items at their deadline and remembers them as expired", () => {
    vi.useFakeTimers();
    const expired: string[] = [];
    const lot = new ParkingLot({ now: Date.now, onExpired: (item) => expired.push(item.id) });
    lot.park(frontendItem("a", Date.now() + 1_000, []));
    lot.park(frontendItem("b", Date.now() + 5_000, []));
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual(["a"]);
    expect(lot.settledRecord("a")).toBe("expired");
    expect(lot.size).toBe(1);
    expect(lot.take("b")?.id).toBe("b");
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual(["a"]);
  });

  it("fails everything on teardown and bounds its memory of settled ids", () => {
    const log: string[] = [];
    const lot = new ParkingLot({ now: Date.now, onExpired: () => undefined, settledMemory: 2 });
    for (const id of ["a", "b", "c"]) {
      lot.park(frontendItem(id, Date.now() + 60_000, log));
      lot.take(id);
    }
    expect([lot.settledRecord("a"), lot.settledRecord("b"), lot.settledRecord("c")]).toEqual([undefined, "answered", "answered"]);
    lot.park(frontendItem("d", Date.now() + 60_000, log));
    lot.failAll("closed");
    expect(log).toEqual(["d:failed:closed"]);
    expect(lot.size).toBe(0);
  });
});
