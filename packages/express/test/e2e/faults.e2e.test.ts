import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { e2eScenario, postRun, ThreadClient, useE2EServers, userMessage } from "./e2e-harness.js";

const startServer = useE2EServers();

const scripted = { model: `emulator:${e2eScenario}` };

describe("faults, cancellation and refusals over HTTP", () => {
  it("a client that leaves mid-stream halts the turn; the thread's next run works", async () => {
    const server = await startServer({ chat: scripted });
    const client = new ThreadClient(`${server.url}/chat`);
    client.agent.addMessage(userMessage("long story please"));
    const running = client.run().catch((error: unknown) => error);
    while (!client.events.some((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)) await new Promise((resolve) => setTimeout(resolve, 20));
    client.agent.abortRun();
    await running;
    await client.say("after the abort");
    expect(client.lastAssistantText()).toContain("after the abort");
  });

  it("a harness killed mid-turn ends the run with RUN_ERROR, and the next run on the thread works", async () => {
    const server = await startServer({ chat: scripted });
    const client = new ThreadClient(`${server.url}/chat`);
    const started = Date.now();
    await client.say("kill");
    expect(client.runError?.code).toMatch(/CONNECTION_CLOSED|PROCESS_DIED/);
    expect(client.runError?.message).not.toMatch(/\/tmp|stderr|x-goog-api-key/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await client.say("back again");
    expect(client.runError).toBeUndefined();
    expect(client.lastAssistantText()).toContain("back again");
  });

  it("a failed model call is a RUN_ERROR whose code carries the HTTP status", async () => {
    const server = await startServer({ chat: scripted });
    const client = new ThreadClient(`${server.url}/chat`);
    await client.say("429");
    expect(client.runError?.code).toBe("MODEL_ERROR_429");
    await client.say("401");
    expect(client.runError?.code).toBe("MODEL_ERROR_401");
    await client.say("fine now");
    expect(client.lastAssistantText()).toContain("fine now");
  });

  it("a stalled harness turn times out as a RUN_ERROR, and the next run works", async () => {
    const server = await startServer({ chat: { ...scripted, turnTimeoutMs: 1_500 } });
    const client = new ThreadClient(`${server.url}/chat`);
    await client.say("stall");
    expect(client.runError?.code).toMatch(/TIMEOUT|CONNECTION_CLOSED/);
    await client.say("recovered");
    expect(client.lastAssistantText()).toContain("recovered");
  });

  it("refuses a second run on a busy thread with 409", async () => {
    const server = await startServer({ chat: scripted });
    const client = new ThreadClient(`${server.url}/chat`);
    client.agent.addMessage(userMessage("slow please"));
    const first = client.run();
    while (!client.events.some((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await postRun(`${server.url}/chat`, { threadId: client.agent.threadId, messages: [userMessage("me too")] });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: "THREAD_BUSY" } });
    await first;
    expect(client.lastAssistantText()).toContain("and done.");
  });

  it("answers an invalid body with a 4xx JSON reason", async () => {
    const server = await startServer({ chat: scripted });
    const response = await fetch(`${server.url}/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ threadId: 3 }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it("with auth on, refuses another principal's run on a thread with 403", async () => {
    const server = await startServer(
      { chat: scripted },
      { authorize: (request) => { const user = request.header("x-user"); return user === undefined ? null : { id: user }; } },
    );
    const alice = new ThreadClient(`${server.url}/chat`, { headers: { "x-user": "alice" } });
    await alice.say("mine");
    const intruder = await postRun(`${server.url}/chat`, { threadId: alice.agent.threadId, messages: [userMessage("let me in")] }, { "x-user": "mallory" });
    expect(intruder.status).toBe(403);
    const body = JSON.stringify(await intruder.json());
    expect(body).not.toContain("mine");
  });
});
