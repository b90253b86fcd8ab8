// A harness that dies or stalls under live conversations. The single-thread versions (a scenario
// that kills its own process, a stall on one thread) are in
// packages/express/test/e2e/faults.e2e.test.ts; these add the shared-process cases.
import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { reliabilityModel, ThreadClient, userMessage, useStacks, waitFor } from "../support/stack.js";

const { startStack } = useStacks();

describe("a harness process that dies or stalls", () => {
  it("SIGKILL of a process with 8 conversations mid-turn: 8 RUN_ERRORs within 1 s, each thread's next run works, the loss is logged", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel, pool: { maxConversationsPerProcess: 8, healthCheckIntervalMs: 0 } } });
    const agent = stack.agents.chat!;
    const clients = Array.from({ length: 8 }, () => new ThreadClient(`${stack!.url}/chat`));
    // Open the 8 conversations first, so the burst below lands on one live process.
    await Promise.all(clients.map((client, index) => client.say(`hello ${index}`)));
    const before = await agent.poolMetrics();
    expect(before.processDetails).toHaveLength(1);
    expect(before.processDetails[0]!.conversations).toBe(8);
    const pid = before.processDetails[0]!.pid!;

    const runs = clients.map((client) => {
      client.agent.addMessage(userMessage("long turn please"));
      return client.run().catch((error: unknown) => error);
    });
    await waitFor(() => clients.every((client) => client.has(EventType.TEXT_MESSAGE_CONTENT)), { what: "every turn to stream", timeoutMs: 20_000 });
    const killedAt = performance.now();
    process.kill(pid, "SIGKILL");
    await Promise.all(runs);

    for (const client of clients) {
      expect(client.runError?.code, JSON.stringify(client.events.at(-1))).toMatch(/^(PROCESS_DIED|CONNECTION_CLOSED)$/);
      expect(client.runError?.message).not.toMatch(/\/tmp|stderr|x-goog-api-key|127\.0\.0\.1/);
      expect(client.has(EventType.RUN_FINISHED)).toBe(false);
      // The text that streamed before the crash was closed properly, not left open.
      expect(client.has(EventType.TEXT_MESSAGE_END)).toBe(true);
    }
    const lastError = Math.max(...clients.map((client) => client.arrivalOf(EventType.RUN_ERROR)!));
    console.info(`SIGKILL: the 8th RUN_ERROR reached its client ${Math.round(lastError - killedAt)} ms after the kill`);
    expect(lastError - killedAt).toBeLessThan(1_000);

    // Visible to the operator: one line per lost conversation, naming its thread.
    const lost = stack.logger.matching(/harness conversation was lost/);
    expect(new Set(lost.map((line) => line.details["threadId"]))).toEqual(new Set(clients.map((client) => client.threadId)));

    await Promise.all(clients.map((client, index) => client.say(`back ${index}`)));
    clients.forEach((client, index) => {
      expect(client.runError).toBeUndefined();
      // toContain: a turn that also carries the replayed transcript (G23) would still pass.
      expect(client.lastAssistantText()).toContain(`back ${index}`);
    });
    // The rebuilt conversations came back without their history (the harness persists on shutdown,
    // and a SIGKILL gives it none): each resume says so, with the number of steps it got back.
    const resumed = stack.logger.matching(/thread resumed its conversation/);
    for (const client of clients) {
      expect(resumed.find((line) => line.details["threadId"] === client.threadId)?.details["historySteps"]).toBe(0);
    }
    const after = await agent.poolMetrics();
    expect(after.totals.crashes).toBe(1);
    expect(after.processDetails.map((process) => process.pid)).not.toContain(pid);
  });

  it("a stalled turn times out with RUN_ERROR while its neighbours on the same process carry on; the next run works", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel, turnTimeoutMs: 2_000, pool: { healthCheckIntervalMs: 0 } } });
    const agent = stack.agents.chat!;
    const stalled = new ThreadClient(`${stack.url}/chat`);
    const neighbours = Array.from({ length: 3 }, () => new ThreadClient(`${stack!.url}/chat`));
    await Promise.all([stalled, ...neighbours].map((client, index) => client.say(`hello ${index}`)));
    expect((await agent.poolMetrics()).processDetails).toHaveLength(1);

    const started = performance.now();
    const stalling = stalled.say("stall");
    // The neighbours run whole turns while the stall holds; none of them waits for it.
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(neighbours.map((client, index) => client.say(`meanwhile ${round} ${index}`)));
      neighbours.forEach((client, index) => expect(client.lastAssistantText()).toBe(`ok: meanwhile ${round} ${index}`));
    }
    await stalling;
    const elapsed = performance.now() - started;
    expect(stalled.runError?.code).toBe("TIMEOUT");
    expect(stalled.has(EventType.TEXT_MESSAGE_END)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(15_000);

    await stalled.say("recovered");
    expect(stalled.runError).toBeUndefined();
    expect(stalled.lastAssistantText()).toBe("ok: recovered");
    // Only the stalled thread's conversation was rebuilt; its process was not taken down.
    const metrics = await agent.poolMetrics();
    expect(metrics.totals.crashes).toBe(0);
    expect(metrics.conversations).toBe(4);
  });
});
