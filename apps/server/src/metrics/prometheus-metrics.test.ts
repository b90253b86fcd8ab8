import { fileURLToPath } from "node:url";
import { HarnessProcess } from "@ag-ui-antigravity/harness";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator";
import { describe, expect, it } from "vitest";
import { PrometheusMetrics } from "./prometheus-metrics.js";

const FAULTS_MODEL = `emulator:${fileURLToPath(new URL("../../../../fixtures/scenarios/faults.json", import.meta.url))}`;

describe("PrometheusMetrics", () => {
  it("counts the drift of a turn with unknown fields, by kind, path, value and harness version", async () => {
    const metrics = new PrometheusMetrics();
    const harness = await HarnessProcess.start({ binaryPath: emulatorBinaryPath(), onDrift: metrics.drift.record, env: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0" } });
    try {
      const conversation = await harness.openConversation({ model: FAULTS_MODEL, workspaces: ["/tmp"] });
      await conversation.send("unknown-field").result;
      await conversation.send("unknown-field").result;
    } finally {
      await harness.close();
    }
    const text = await metrics.registry.metrics();
    const line = text.split("\n").find((entry) => entry.startsWith("antigravity_harness_protocol_drift_total{") && entry.includes('value="futureField"'));
    expect(line).toBeDefined();
    expect(line).toContain('kind="unknown-field"');
    expect(line).toContain(`harness_version="${harness.harnessVersion}"`);
    expect(Number(line?.split(" ").at(-1))).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("reads the pool and the sessions at scrape time", async () => {
    const metrics = new PrometheusMetrics();
    const totals = { acquires: 3, releases: 2, spawns: 1, spawnFailures: 0, crashes: 0, healthCheckFailures: 0, idleStops: 0, backoffRefusals: 0, reclaims: 0, capacityRefusals: 0 };
    metrics.attach({
      startedAt: Date.now(),
      pool: () => ({ closed: false, processes: 1, conversations: 2, waitingAcquires: 0, partitions: [], processDetails: [], totals, spawnLatencyMs: { count: 1, p50: 5, p95: 5 } }),
      sessions: () => ({ agentic_chat: { liveSessions: 4, busySessions: 1, parkedSessions: 0 } }),
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain("antigravity_pool_conversations 2");
    expect(text).toContain('antigravity_pool_events_total{event="acquires"} 3');
    expect(text).toContain('antigravity_agent_sessions{agent="agentic_chat",state="live"} 4');
  });
});
