// The two headers a multi-replica deployment relies on: the replica that served a response, and a
// copy of the thread id a proxy can route on without reading the body.
import { describe, expect, it } from "vitest";
import { AgentProbe, ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { closeServersAfterEach, parseSseFrames, postJson, readJson, runInputBody, serveAgents } from "./helpers/server.js";

closeServersAfterEach();

describe("x-ag-ui-antigravity-replica", () => {
  it("names the replica on runs, capabilities, health and refusals when replicaId is set", async () => {
    const server = await serveAgents({ chat: new ScriptedAgent(echoScript) }, { replicaId: "replica-2" });
    const run = await postJson(`${server.url}/chat`, runInputBody());
    expect(run.headers.get("x-ag-ui-antigravity-replica")).toBe("replica-2");
    await run.text();
    for (const path of ["/chat/capabilities", "/healthz", "/nobody/capabilities"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get("x-ag-ui-antigravity-replica"), path).toBe("replica-2");
      await response.text();
    }
    const refused = await postJson(`${server.url}/chat`, '{"threadId": ');
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-ag-ui-antigravity-replica")).toBe("replica-2");
  });

  it("is not sent by default", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const run = await postJson(server.url, runInputBody());
    expect(run.status).toBe(200);
    expect(run.headers.has("x-ag-ui-antigravity-replica")).toBe(false);
    await run.text();
  });
});

describe("x-ag-ui-thread-id", () => {
  it("runs when the header equals the body's threadId", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const response = await postJson(server.url, runInputBody({ threadId: "thread-7" }), { "x-ag-ui-thread-id": "thread-7" });
    expect(response.status).toBe(200);
    expect(parseSseFrames(await response.text()).at(-1)?.type).toBe("RUN_FINISHED");
  });

  it("refuses a header that disagrees with the body with 400 INVALID_INPUT, before the agent runs, without echoing it", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    const response = await postJson(server.url, runInputBody({ threadId: "thread-7" }), { "x-ag-ui-thread-id": "someone-elses-thread" });
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(JSON.stringify(body)).not.toContain("someone-elses-thread");
    expect(probe.subscriptions).toBe(0);
  });
});

describe("a body that names its thread ambiguously", () => {
  it("is refused with 400 INVALID_INPUT when threadId is a top-level key twice, or written with escapes, before the agent runs", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    const plain = JSON.stringify(runInputBody({ threadId: "thread-7" }));
    const twice = plain.replace('"threadId":"thread-7"', '"threadId":"thread-7","threadId":"someone-elses-thread"');
    expect(twice).not.toBe(plain);
    const escaped = plain.replace('"threadId"', '"thread\\u0049d"');
    for (const body of [twice, escaped]) {
      const response = await postJson(server.url, body);
      expect(response.status, body.slice(0, 80)).toBe(400);
      const reply = await readJson(response);
      expect(reply.error.code).toBe("INVALID_INPUT");
      expect(JSON.stringify(reply)).not.toContain("someone-elses-thread");
    }
    expect(probe.subscriptions).toBe(0);
    // The same key inside a nested object, or the word in a message, is no ambiguity.
    const nested = JSON.stringify({ ...JSON.parse(plain), forwardedProps: { threadId: "elsewhere", note: '"threadId"' } });
    const response = await postJson(server.url, nested);
    expect(response.status).toBe(200);
    await response.text();
  });

  it("a header holding a comma is one value: it runs when it equals the body", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const response = await postJson(server.url, runInputBody({ threadId: "a,b" }), { "x-ag-ui-thread-id": "a,b" });
    expect(response.status).toBe(200);
    await response.text();
  });
});
