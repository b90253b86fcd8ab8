import { afterEach, describe, expect, it } from "vitest";
import { FakeProcess, waitFor, type FakeConfig, type FakeConversation } from "../../test/support/fake-harness.js";
import { defaultSpawnBackoff, SpawnBackoff } from "../backoff/spawn-backoff.js";
import { PoolError } from "../errors/pool-error.js";
import type { PooledProcess } from "../process/pooled-process.js";
import { IdleHealthChecks } from "./idle-health-checks.js";
import { PoolMember, type PartitionRecord } from "./pool-member.js";

type Member = PoolMember<FakeConfig, FakeConversation>;

const record: PartitionRecord<FakeConfig, FakeConversation> = {
  key: "partition-test",
  partition: {},
  members: new Set(),
  backoff: new SpawnBackoff(defaultSpawnBackoff),
  minIdleProcesses: 0,
  spawns: 0,
  crashes: 0,
  warmRetryTimer: undefined,
};

function readyMember(id: number, process: FakeProcess): Member {
  const member = new PoolMember<FakeConfig, FakeConversation>(id, record, Date.now());
  member.process = process;
  member.state = "ready";
  return member;
}

const pool = new AbortController();
const checks: IdleHealthChecks<FakeConfig, FakeConversation>[] = [];

function checksOver(members: Member[], timeoutMs: number, onFailure: (member: Member, process: PooledProcess<FakeConfig, FakeConversation>, error: unknown) => void) {
  const created = new IdleHealthChecks<FakeConfig, FakeConversation>({ intervalMs: 0, timeoutMs, poolSignal: pool.signal, members: () => members, onFailure });
  checks.push(created);
  return created;
}

afterEach(() => {
  for (const created of checks.splice(0)) created.stop();
});

describe("IdleHealthChecks", () => {
  it("reports a process whose probe outlives the timeout, and probes it once at a time", async () => {
    const wedged = new FakeProcess({}, 101, 0);
    wedged.healthy = false;
    const member = readyMember(1, wedged);
    const failed = new Promise<{ member: Member; error: unknown }>((resolve) => {
      const health = checksOver([member], 20, (failedMember, _process, error) => resolve({ member: failedMember, error }));
      health.probeIdle();
      // The first probe is still waiting: a second round leaves the process alone.
      health.probeIdle();
    });
    const { member: reported, error } = await failed;
    expect(reported).toBe(member);
    expect(PoolError.isInstance(error) && error.code).toBe("PROCESS_DIED");
    expect(wedged.healthChecks).toBe(1);
    expect(member.healthCheckInFlight).toBe(false);
  });

  it("probes only ready processes with nothing on them, and reports nothing for a healthy one", async () => {
    const healthyProcess = new FakeProcess({}, 201, 0);
    const healthy = readyMember(1, healthyProcess);
    const busyProcess = new FakeProcess({}, 202, 0);
    const busy = readyMember(2, busyProcess);
    busy.reservations = 1;
    const startingProcess = new FakeProcess({}, 203, 0);
    const starting = readyMember(3, startingProcess);
    starting.state = "starting";
    const failures: Member[] = [];
    checksOver([healthy, busy, starting], 1_000, (member) => failures.push(member)).probeIdle();
    await waitFor(() => !healthy.healthCheckInFlight, { what: "the probe to settle" });
    expect(healthyProcess.healthChecks).toBe(1);
    expect(busyProcess.healthChecks).toBe(0);
    expect(startingProcess.healthChecks).toBe(0);
    expect(failures).toEqual([]);
  });
});
