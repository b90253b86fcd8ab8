import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { createAntigravityApp } from "../src/index.js";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { Subscriber } from "rxjs";
import { AgentProbe, ScriptedAgent, hangingScript, runFinished, runStarted } from "./helpers/fake-agents.js";
import { closeServersAfterEach, postJson, readJson, runInputBody, serveListener } from "./helpers/server.js";

closeServersAfterEach();

describe("closing the binding", () => {
  it("close() aborts signal at once, ends streams in flight as a disconnect would, resolves closed, and refuses later requests with 503 SERVER_CLOSED", async () => {
    const probe = new AgentProbe();
    const app = createAntigravityApp({ chat: new ScriptedAgent(hangingScript, { probe }) }, { firstEventTimeoutMs: 0 });
    const server = await serveListener(app);
    // Two streams that would never end by themselves.
    const streams = await Promise.all([postJson(`${server.url}/chat`, runInputBody()), postJson(`${server.url}/chat`, runInputBody())]);
    for (const stream of streams) expect(stream.status).toBe(200);
    const bodies = streams.map((stream) => stream.text().then(() => "ended", () => "cut"));

    await expectClosesOnce(app, () => app.close());
    // Both agents were unsubscribed, which is how an AG-UI agent learns its run was abandoned.
    await probe.waitForTeardowns(2);
    expect(probe.teardowns).toBe(2);
    // Both responses ended (a stream cut mid-way rejects its body; either way it is over).
    for (const outcome of await Promise.all(bodies)) expect(["ended", "cut"]).toContain(outcome);

    const refused = await postJson(`${server.url}/chat`, runInputBody());
    expect(refused.status).toBe(503);
    expect((await readJson(refused)).error.code).toBe("SERVER_CLOSED");
    expect(probe.subscriptions).toBe(2);
    // Routes the app serves around the router still answer (here its JSON 404).
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
  });

  it("close({ drainMs }) refuses new requests at once but lets a run in flight finish by itself, then resolves without waiting out the drain", async () => {
    const probe = new AgentProbe();
    let finishRuns!: () => void;
    const runsMayFinish = new Promise<void>((resolve) => (finishRuns = resolve));
    const gatedScript = (input: RunAgentInput, subscriber: Subscriber<BaseEvent>): undefined => {
      subscriber.next(runStarted(input));
      void runsMayFinish.then(() => {
        subscriber.next(runFinished(input));
        subscriber.complete();
      });
      return undefined;
    };
    const app = createAntigravityApp({ chat: new ScriptedAgent(gatedScript, { probe }) }, { firstEventTimeoutMs: 0 });
    const server = await serveListener(app);
    const inFlight = await postJson(`${server.url}/chat`, runInputBody());
    expect(inFlight.status).toBe(200);
    const body = inFlight.text();

    let settled = false;
    void app.closed.then(() => (settled = true));
    const closing = app.close({ drainMs: 60_000 });
    expect(app.signal.aborted).toBe(true);
    const refused = await postJson(`${server.url}/chat`, runInputBody());
    expect(refused.status).toBe(503);
    expect((await readJson(refused)).error.code).toBe("SERVER_CLOSED");
    expect(settled).toBe(false);

    finishRuns();
    expect(await body).toContain("RUN_FINISHED");
    await closing;
    expect(settled).toBe(true);
    expect(probe.subscriptions).toBe(1);
  });

  it("close({ drainMs }) ends a run that is still going when the drain is over", async () => {
    const probe = new AgentProbe();
    const app = createAntigravityApp({ chat: new ScriptedAgent(hangingScript, { probe }) }, { firstEventTimeoutMs: 0 });
    const server = await serveListener(app);
    const inFlight = await postJson(`${server.url}/chat`, runInputBody());
    const body = inFlight.text().then(() => "ended", () => "cut");
    await app.close({ drainMs: 50 });
    await probe.waitForTeardowns(1);
    expect(["ended", "cut"]).toContain(await body);
  });

  it("close() with nothing in flight resolves at once", async () => {
    const app = createAntigravityApp(new ScriptedAgent(hangingScript));
    await app.close();
    await app.closed;
    expect(app.signal.aborted).toBe(true);
  });
});
