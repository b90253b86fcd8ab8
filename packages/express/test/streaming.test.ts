import type { Socket } from "node:net";
import { EventType } from "@ag-ui/core";
import express from "express";
import { describe, expect, it } from "vitest";
import { createAgentRouter } from "../src/index.js";
import { AgentProbe, ScriptedAgent, echoScript, runFinished, runStarted } from "./helpers/fake-agents.js";
import { clientWithMessage, postJson, runInputBody, serveAgents, parseSseFrames, readJson, serveListener, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

describe("POST <path> streams the agent's events", () => {
  it("serves a chat run to the real HttpAgent", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    const client = clientWithMessage(server.url, "hi there");
    const seen: string[] = [];

    const result = await client.runAgent({}, { onEvent: ({ event }) => void seen.push(event.type) });

    expect(seen).toEqual([
      EventType.RUN_STARTED,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.RUN_FINISHED,
    ]);
    expect(result.newMessages).toEqual([expect.objectContaining({ role: "assistant", content: "echo: hi there" })]);
    expect(probe.clones).toBe(1);
    expect(probe.inputs[0]?.threadId).toBe(client.threadId);
  });

  it("sends the SSE headers proxies need and frames events as data lines", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const response = await postJson(server.url, runInputBody());

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toContain("no-cache");
    expect(response.headers.get("connection")).toBe("keep-alive");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const events = parseSseFrames(await response.text());
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(events[2]).toMatchObject({ delta: "echo: hello" });
  });

  it("sends the headers in the same socket write as the first event, not in one of their own", async () => {
    const writes: string[] = [];
    const app = express();
    app.use((request, _response, next) => {
      // What reaches the socket, write by write (a corked run of writes is one writev).
      const socket = request.socket as Socket & { _writev?: (chunks: { chunk: unknown }[], callback: (error?: Error | null) => void) => void };
      const write = socket._write.bind(socket);
      const writev = socket._writev?.bind(socket);
      socket._write = (chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void) => {
        writes.push(String(chunk));
        write(chunk, encoding, callback);
      };
      if (writev !== undefined) {
        socket._writev = (chunks, callback) => {
          writes.push(chunks.map((entry) => String(entry.chunk)).join(""));
          writev(chunks, callback);
        };
      }
      next();
    });
    const router = createAgentRouter(new ScriptedAgent(echoScript));
    app.use(router);
    const server = await serveListener(app);

    const response = await postJson(server.url, runInputBody());
    expect(parseSseFrames(await response.text()).map((event) => event.type)).toContain("RUN_FINISHED");
    expect(writes[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(writes[0]).toContain('"type":"RUN_STARTED"');
    await router.close();
  });

  it("ends the stream with the run's terminal event, not when the agent's observable completes later", async () => {
    const probe = new AgentProbe();
    let complete: (() => void) | undefined;
    const agent = new ScriptedAgent(
      (input, subscriber) => {
        subscriber.next(runStarted(input));
        subscriber.next(runFinished(input));
        // The agent's own bookkeeping after its last event: the client must not wait for it.
        complete = () => subscriber.complete();
      },
      { probe },
    );
    const server = await serveAgents(agent);
    const response = await postJson(server.url, runInputBody());
    expect(parseSseFrames(await response.text()).map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    // Ending the response did not unsubscribe: a run that completes on its own is not cancelled.
    expect(probe.teardowns).toBe(0);
    complete?.();
    expect(probe.teardowns).toBe(1);
  });

  it("streams a RUN_STARTED that carries the run's input as the encoder serialises it, however the request spelled it", async () => {
    // An agent whose RUN_STARTED carries the input it was given (as AG-UI 1.0 allows), or a copy without one field.
    const echoing = (drop?: string) =>
      new ScriptedAgent((input, subscriber) => {
        const { [drop ?? ""]: _dropped, ...kept } = input as unknown as Record<string, unknown>;
        subscriber.next({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId, input: drop === undefined ? input : kept } as never);
        subscriber.next(runFinished(input));
        subscriber.complete();
      });
    const body = runInputBody({ messages: [{ id: "m1", role: "user", content: "hello" }, { id: "m2", role: "assistant", content: "hi, you" }] });
    const runStartedOf = async (url: string, request: string) => {
      const stream = await (await postJson(url, request)).text();
      return { stream, event: parseSseFrames(stream)[0] };
    };

    // Spaced as no serialiser writes it, or pretty-printed: the stream holds the input as serialised, not the request's text.
    for (const text of [JSON.stringify(body).replace(/,"/g, ', "'), JSON.stringify(body, null, 2)]) {
      const echoed = await runStartedOf((await serveAgents(echoing())).url, text);
      expect(echoed.stream).toContain(`"input":${JSON.stringify(body)}}`);
      expect(echoed.event).toEqual({ type: "RUN_STARTED", threadId: "thread-1", runId: "run-1", input: body });
    }

    // A body past the plain reader's 64 KiB, read by body-parser: the same.
    const long = runInputBody({ messages: Array.from({ length: 1_500 }, (_, index) => ({ id: `m${index}`, role: index % 2 === 0 ? "user" : "assistant", content: `message ${index}` })) });
    expect(JSON.stringify(long).length).toBeGreaterThan(64 * 1024);
    const longEchoed = await runStartedOf((await serveAgents(echoing())).url, JSON.stringify(long));
    expect(longEchoed.event.input).toEqual(long);

    // An agent that changes the input: what it sent is what streams.
    const changed = await runStartedOf((await serveAgents(echoing("forwardedProps"))).url, JSON.stringify(body));
    const { forwardedProps: _forwardedProps, ...withoutProps } = body;
    expect(changed.event).toEqual({ type: "RUN_STARTED", threadId: "thread-1", runId: "run-1", input: withoutProps });
  });

  it("clones the agent for every request and hands it the validated input, unknown top-level fields kept", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    await (await postJson(server.url, runInputBody({ runId: "a", futureField: { kept: true } }))).text();
    await (await postJson(server.url, runInputBody({ runId: "b" }))).text();

    expect(probe.clones).toBe(2);
    expect(probe.inputs.map((input) => input.runId)).toEqual(["a", "b"]);
    expect((probe.inputs[0] as unknown as Record<string, unknown>)["futureField"]).toEqual({ kept: true });
  });

  it("serves one path per agent of a map, under a nested base path, with capabilities per agent (and the protobuf transport the binding serves)", async () => {
    const chat = new ScriptedAgent(echoScript, { capabilities: async () => ({ identity: { name: "chat" } }) });
    const other = new ScriptedAgent(echoScript, { capabilities: async () => ({ identity: { name: "other" } }) });
    const server = await serveAgents({ chat, other }, { path: "/agents" });

    const result = await clientWithMessage(`${server.url}/agents/other`, "x").runAgent();
    expect(result.newMessages[0]).toMatchObject({ content: "echo: x" });
    const served = { streaming: true, httpBinary: true };
    expect(await (await fetch(`${server.url}/agents/chat/capabilities`)).json()).toEqual({ identity: { name: "chat" }, transport: served });
    expect(await (await fetch(`${server.url}/agents/other/capabilities`)).json()).toEqual({ identity: { name: "other" }, transport: served });
  });

  it("answers {} for an agent without getCapabilities, and 500 for capabilities that fail the schema", async () => {
    const plain = new ScriptedAgent(echoScript);
    const lying = new ScriptedAgent(echoScript, { capabilities: async () => ({ transport: { streaming: "yes" } }) as never });
    const server = await serveAgents({ plain, lying });

    const plainResponse = await fetch(`${server.url}/plain/capabilities`);
    expect(plainResponse.status).toBe(200);
    expect(await readJson(plainResponse)).toEqual({});
    const lyingResponse = await fetch(`${server.url}/lying/capabilities`);
    expect(lyingResponse.status).toBe(500);
    expect((await readJson(lyingResponse)).error.code).toBe("INTERNAL_ERROR");
  });

  it("answers GET /healthz and a JSON 404 for unknown routes", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await readJson(health)).toEqual({ status: "ok" });
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.code).toBe("NOT_FOUND");
  });

  it("works as a router mounted under a prefix of the user's own app", async () => {
    const app = express();
    app.use("/ag-ui", createAgentRouter({ chat: new ScriptedAgent(echoScript) }));
    const server = await serveListener(app);

    const result = await clientWithMessage(`${server.url}/ag-ui/chat`, "mounted").runAgent();
    expect(result.newMessages[0]).toMatchObject({ content: "echo: mounted" });
    expect((await fetch(`${server.url}/ag-ui/healthz`)).status).toBe(200);
  });
});
