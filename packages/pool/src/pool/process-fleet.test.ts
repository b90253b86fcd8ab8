import { describe, expect, it } from "vitest";
import { FakeHarness, type FakeConfig, type FakeConversation } from "../../test/support/fake-harness.js";
import { PoolError } from "../errors/pool-error.js";
import { ChangeSignal } from "../internal/change-signal.js";
import { resolvePoolSettings } from "./pool-options.js";
import { PoolTally } from "./pool-tally.js";
import { ProcessFleet } from "./process-fleet.js";

function fleetOver(harness: FakeHarness, accepting: { value: boolean }) {
  return new ProcessFleet<FakeConfig, FakeConversation>({
    settings: resolvePoolSettings({ idleGraceMs: 60_000, healthCheckIntervalMs: 0 }),
    startProcess: harness.startProcess,
    tally: new PoolTally(),
    roomChanged: new ChangeSignal(),
    isAccepting: () => accepting.value,
    hasWaitingAcquires: () => false,
  });
}

describe("ProcessFleet", () => {
  it("makes room by stopping the process idle longest, and counts a stop under way as room", async () => {
    const harness = new FakeHarness();
    const accepting = { value: true };
    const fleet = fleetOver(harness, accepting);
    const record = fleet.partitionFor({ storageDirectory: "/tmp/fleet-test" });
    const [newer, older] = [fleet.spawn(record), fleet.spawn(record)];
    await Promise.all([newer.started, older.started]);
    older.idleSince = 1;
    newer.idleSince = 2;
    expect(fleet.stopAnIdleProcessForRoom()).toBe(true);
    expect(older.state).toBe("stopping");
    expect(newer.state).toBe("ready");
    // The first stop frees the room; a second acquire asking now must not cost another process.
    expect(fleet.stopAnIdleProcessForRoom()).toBe(true);
    expect(newer.state).toBe("ready");
    await older.stopped;
    expect(fleet.size).toBe(1);
    accepting.value = false;
    await Promise.all([...fleet].map((member) => fleet.stop(member, new PoolError("POOL_CLOSED", "the test is over"))));
    expect(harness.alive).toHaveLength(0);
  });

  it("finds no room when every process holds a conversation", async () => {
    const harness = new FakeHarness();
    const accepting = { value: true };
    const fleet = fleetOver(harness, accepting);
    const member = fleet.spawn(fleet.partitionFor({}));
    await member.started;
    member.reservations = 1;
    expect(fleet.stopAnIdleProcessForRoom()).toBe(false);
    member.reservations = 0;
    accepting.value = false;
    await fleet.stop(member, new PoolError("POOL_CLOSED", "the test is over"));
    expect(harness.alive).toHaveLength(0);
  });
});
