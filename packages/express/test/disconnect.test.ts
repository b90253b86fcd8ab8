import type { HttpAgent } from "@ag-ui/client";
import { EventType } from "@ag-ui/core";
import express from "express";
import { describe, expect, it, vi } from "vitest";
import { createAgentRouter } from "../src/index.js";
import { AgentProbe, ScriptedAgent, hangingScript } from "./helpers/fake-agents.js";
import { clientWithMessage, postJson, runInputBody, serveAgents, serveListener, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

describe("client disconnects", () => {
  it("unsubscribes from the agent when HttpAgent aborts mid-stream", async () => {
    const probe = new AgentProbe();
    const warnings: string[] = [];
    const server = await serveAgents(new ScriptedAgent(hangingScript, { probe }), {
      logger: { warn: (_fields, message) => void warnings.push(message ?? "") },
    });
    const client: HttpAgent = clientWithMessage(server.url, "then leave");

    const run = client.runAgent({}, {
      onEvent: ({ event }) => {
        if (event.type === EventType.RUN_STARTED) client.abortRun();
      },
    });
    await run.catch(() => undefined);
    await probe.waitForTeardowns(1);

    expect(probe.subscriptions).toBe(1);
    expect(probe.teardowns).toBe(1);
    expect(warnings).toContain("client disconnected before the run ended; unsubscribing from the agent");
  });

  it("unsubscribes when a client vanishes before the first event", async () => {
    const probe = new AgentProbe();
    const silent = new ScriptedAgent(() => undefined, { probe });
    const server = await serveAgents(silent, { firstEventTimeoutMs: 60_000 });
    const controller = new AbortController();

    const request = fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(runInputBody()),
      signal: controller.signal,
    });
    // Abort once the agent has been subscribed, i.e. the request reached it; no header has left yet.
    while (probe.subscriptions === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(request).rejects.toThrow();
    await probe.waitForTeardowns(1);
    expect(probe.teardowns).toBe(1);
  });

  it("drops a client that reads too slowly and unsubscribes from the agent", async () => {
    const probe = new AgentProbe();
    const flood = new ScriptedAgent(
      (input, subscriber) => {
        subscriber.next({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as never);
        // Emitted synchronously: far more than the socket takes before write() reports a full buffer.
        for (let index = 0; index < 100 && !subscriber.closed; index += 1) {
          subscriber.next({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "x".repeat(100_000) } as never);
        }
      },
      { probe },
    );
    const server = await serveAgents(flood, { maxBufferedBytes: 1_000_000 });
    // The whole flood comes in the run's first tick, so the response is dropped before its headers
    // (which wait to go out with the first event) have left: the request itself fails.
    const body = fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(runInputBody()),
    }).then((response) => response.text());
    await probe.waitForTeardowns(1);
    expect(probe.teardowns).toBe(1);
    await expect(body).rejects.toThrow();
  });

  it("does not run the agent for a client that left while its body was being read", async () => {
    const probe = new AgentProbe();
    const warnings: string[] = [];
    const app = express();
    // An app-level parser reads the body first (the router then uses it as is); the client is gone after.
    app.use(express.json(), (request, _response, next) => {
      request.socket.destroy();
      next();
    });
    app.use(createAgentRouter(new ScriptedAgent(hangingScript, { probe }), { logger: { warn: (_fields, message) => void warnings.push(message ?? "") } }));
    const server = await serveListener(app);

    await expect(postJson(server.url, runInputBody())).rejects.toThrow();
    await vi.waitFor(() => expect(warnings).toContain("client disconnected before the run started; the agent is not run"));
    expect(probe.subscriptions).toBe(0);
  });
});
