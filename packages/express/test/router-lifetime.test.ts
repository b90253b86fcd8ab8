import { describe, expect, it } from "vitest";
import { createAntigravityApp } from "../src/index.js";
import { AgentProbe, ScriptedAgent, hangingScript } from "./helpers/fake-agents.js";
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

    let settled = false;
    void app.closed.then(() => (settled = true));
    const closing = app.close();
    expect(app.signal.aborted).toBe(true);
    expect(app.close()).toBe(closing);
    await closing;
    expect(settled).toBe(true);
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

  it("close() with nothing in flight resolves at once", async () => {
    const app = createAntigravityApp(new ScriptedAgent(hangingScript));
    await app.close();
    await app.closed;
    expect(app.signal.aborted).toBe(true);
  });
});
