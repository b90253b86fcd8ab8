import { describe, expect, it } from "vitest";
import { AgentProbe, ScriptedAgent, slowEchoScript } from "./helpers/fake-agents.js";
import { clientWithMessage, serveAgents, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

describe("many runs at once", () => {
  it("streams 50 concurrent runs on one app, each getting its own answer", async () => {
    const probe = new AgentProbe();
    // 50 runs from one address at once: past the app's default client limits (8 runs), on purpose.
    const server = await serveAgents(new ScriptedAgent(slowEchoScript, { probe }), { clientLimits: false });
    const runs = Array.from({ length: 50 }, (_, index) =>
      clientWithMessage(server.url, `message ${index}`, { threadId: `thread-${index}` }).runAgent(),
    );

    const results = await Promise.all(runs);

    expect(results.map((result) => result.newMessages[0]?.content)).toEqual(
      Array.from({ length: 50 }, (_, index) => `echo: message ${index}`),
    );
    expect(probe.clones).toBe(50);
    expect(probe.teardowns).toBe(50);
  });
});
