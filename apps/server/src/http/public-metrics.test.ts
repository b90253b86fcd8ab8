import type { PoolMetrics } from "@ag-ui-antigravity/pool";
import { describe, expect, it } from "vitest";
import { publicPoolMetrics, publicReason } from "./public-metrics.js";

describe("public metrics", () => {
  it("drop process ids and storage directories, and keep the counters", () => {
    const metrics = {
      closed: false,
      processes: 1,
      conversations: 2,
      waitingAcquires: 0,
      partitions: [{ key: "k", storageDirectory: "/srv/state/harness", envNames: [], group: undefined, processes: 1, conversations: 2, spawns: 1, crashes: 0, consecutiveFailures: 0, backoffRemainingMs: 0 }],
      processDetails: [{ id: 1, pid: 4242, partitionKey: "k", state: "ready", conversations: 2, parkedConversations: 0, reservations: 0, ageMs: 5, idleForMs: undefined }],
      totals: {},
    } as unknown as PoolMetrics;
    const shown = JSON.stringify(publicPoolMetrics(metrics));
    expect(shown).not.toMatch(/4242|\/srv\/state|"pid"/);
    expect(shown).toContain('"persistent":true');
    expect(shown).toContain('"conversations":2');
  });

  it("keep a harness reason without its paths", () => {
    expect(publicReason("found localharness at /opt/py/site-packages/bin/localharness and GEMINI_API_KEY is set")).toBe("found localharness at [path] and GEMINI_API_KEY is set");
  });
});
