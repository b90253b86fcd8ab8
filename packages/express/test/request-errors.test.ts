import { EventType } from "@ag-ui/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentProbe, ScriptedAgent, echoScript, runStarted } from "./helpers/fake-agents.js";
import { clientWithMessage, parseSseFrames, postJson, runInputBody, serveAgents, readJson, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("refusals before the stream starts are JSON errors", () => {
  it("rejects a body that is not a RunAgentInput with 400 INVALID_INPUT and located issues", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    const response = await postJson(server.url, runInputBody({ threadId: 42, messages: [{ id: "m1", role: "wizard" }] }));

    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await readJson(response);
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(body.error.issues.map((issue: { path: string }) => issue.path)).toEqual(expect.arrayContaining(["/threadId", "/messages/0/role"]));
    expect(probe.subscriptions).toBe(0);
  });

  it("rejects a body over the limit with 413", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript), { maxBodyBytes: 1_000 });
    const response = await postJson(server.url, runInputBody({ forwardedProps: { padding: "x".repeat(2_000) } }));
    expect(response.status).toBe(413);
    expect((await readJson(response)).error.code).toBe("BODY_TOO_LARGE");
  });

  it("rejects malformed JSON with 400 INVALID_JSON and an empty body with 400", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const malformed = await postJson(server.url, '{"threadId": ');
    expect(malformed.status).toBe(400);
    expect((await readJson(malformed)).error.code).toBe("INVALID_JSON");
    const empty = await fetch(server.url, { method: "POST", headers: { "Content-Type": "application/json" } });
    expect(empty.status).toBe(400);
    expect((await readJson(empty)).error.code).toBe("INVALID_JSON");
  });

  it("refuses a body nested deeper than 512 levels with 400 INVALID_INPUT, small or large", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }));
    const nested = `${"[".repeat(600)}${"]".repeat(600)}`;
    // Under 64 KiB the body is checked at once; over it, after yielding the event loop.
    for (const padding of ["", "x".repeat(100_000)]) {
      const response = await postJson(server.url, `{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[],"state":{},"forwardedProps":{"deep":${nested},"padding":"${padding}"}}`);
      expect(response.status).toBe(400);
      expect((await readJson(response)).error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("512") });
    }
    expect(probe.subscriptions).toBe(0);
    const fine = await postJson(server.url, runInputBody({ forwardedProps: { padding: "x".repeat(100_000) } }));
    expect(fine.status).toBe(200);
    await fine.text();
  });

  it("rejects a body that is not JSON with 415", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const response = await fetch(server.url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(runInputBody()) });
    expect(response.status).toBe(415);
    expect((await readJson(response)).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers an unknown agent name with 404 AGENT_NOT_FOUND, for runs and capabilities", async () => {
    const server = await serveAgents({ chat: new ScriptedAgent(echoScript) });
    const run = await postJson(`${server.url}/nobody`, runInputBody());
    expect(run.status).toBe(404);
    expect((await readJson(run)).error.code).toBe("AGENT_NOT_FOUND");
    const capabilities = await fetch(`${server.url}/constructor/capabilities`);
    expect(capabilities.status).toBe(404);
    expect((await readJson(capabilities)).error.code).toBe("AGENT_NOT_FOUND");
  });

  it("maps a first RUN_ERROR THREAD_BUSY to 409, which HttpAgent reports with status and payload", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const busy = new ScriptedAgent((_input, subscriber) => {
      subscriber.next({ type: EventType.RUN_ERROR, code: "THREAD_BUSY", message: "Thread thread-1 already has a run in progress." } as never);
      subscriber.complete();
    });
    const server = await serveAgents(busy);
    const failure = await clientWithMessage(server.url, "again").runAgent().then(
      () => undefined,
      (error: unknown) => error as { status?: number; payload?: any },
    );

    expect(failure?.status).toBe(409);
    expect(failure?.payload).toEqual({ error: { code: "THREAD_BUSY", message: "Thread thread-1 already has a run in progress." } });
  });

  it("streams a first RUN_ERROR whose code has no status", async () => {
    const failing = new ScriptedAgent((_input, subscriber) => {
      subscriber.next({ type: EventType.RUN_ERROR, code: "MODEL_REFUSED", message: "The model declined." } as never);
      subscriber.complete();
    });
    const server = await serveAgents(failing);
    const response = await postJson(server.url, runInputBody());
    expect(response.status).toBe(200);
    expect(parseSseFrames(await response.text())).toEqual([{ type: "RUN_ERROR", code: "MODEL_REFUSED", message: "The model declined." }]);
  });

  it("honours runErrorStatuses overrides, including null to stream a default code", async () => {
    const refusing = (code: string) =>
      new ScriptedAgent((_input, subscriber) => {
        subscriber.next({ type: EventType.RUN_ERROR, code, message: "no" } as never);
        subscriber.complete();
      });
    const server = await serveAgents(
      { quota: refusing("QUOTA"), busy: refusing("THREAD_BUSY") },
      { runErrorStatuses: { QUOTA: 429, THREAD_BUSY: null } },
    );
    expect((await postJson(`${server.url}/quota`, runInputBody())).status).toBe(429);
    const busy = await postJson(`${server.url}/busy`, runInputBody());
    expect(busy.status).toBe(200);
    expect(parseSseFrames(await busy.text())[0]).toMatchObject({ type: "RUN_ERROR", code: "THREAD_BUSY" });
  });
});

describe("agent failures never leak details", () => {
  it("turns an observable error after the stream started into RUN_ERROR INTERNAL_ERROR with a reference", async () => {
    const logged: Record<string, unknown>[] = [];
    const secret = new Error("ENOENT: /home/ops/.config/key=AIzaSECRET");
    const exploding = new ScriptedAgent((input, subscriber) => {
      subscriber.next(runStarted(input));
      setTimeout(() => subscriber.error(secret), 5);
    });
    const server = await serveAgents(exploding, { logger: { error: (fields) => void logged.push(fields) } });
    const text = await (await postJson(server.url, runInputBody())).text();
    const events = parseSseFrames(text);

    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    const runError = events[1];
    expect(runError.code).toBe("INTERNAL_ERROR");
    expect(text).not.toContain("ENOENT");
    expect(text).not.toContain("AIza");
    expect(text).not.toContain("at ");
    const entry = logged.find((fields) => fields["err"] === secret);
    expect(entry).toBeDefined();
    expect(runError.message).toContain(String(entry?.["correlationId"]));
  });

  it("answers an error before any event with 500 JSON, or with the status of a mapped error code", async () => {
    const thrown = new ScriptedAgent(() => {
      throw new Error("secret stack /srv/app");
    });
    const busyThrown = new ScriptedAgent(() => {
      throw Object.assign(new Error("locked at /srv/threads/1"), { code: "THREAD_BUSY" });
    });
    const server = await serveAgents({ thrown, busyThrown });

    const internal = await postJson(`${server.url}/thrown`, runInputBody());
    expect(internal.status).toBe(500);
    const internalBody = await readJson(internal);
    expect(internalBody.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(internalBody)).not.toContain("/srv");
    const busy = await postJson(`${server.url}/busyThrown`, runInputBody());
    expect(busy.status).toBe(409);
    const busyBody = await readJson(busy);
    expect(busyBody.error.code).toBe("THREAD_BUSY");
    expect(JSON.stringify(busyBody)).not.toContain("/srv");
  });

  it("ends the stream with RUN_ERROR ENCODING_ERROR when an event cannot be encoded, and stops the agent", async () => {
    const probe = new AgentProbe();
    const unencodable = new ScriptedAgent(
      (input, subscriber) => {
        subscriber.next(runStarted(input));
        const timer = setTimeout(() => subscriber.next({ type: EventType.STATE_SNAPSHOT, snapshot: { size: 1n } } as never), 5);
        return () => clearTimeout(timer);
      },
      { probe },
    );
    const server = await serveAgents(unencodable);
    const events = parseSseFrames(await (await postJson(server.url, runInputBody())).text());
    expect(events.map((event) => [event.type, event.code])).toEqual([
      ["RUN_STARTED", undefined],
      ["RUN_ERROR", "ENCODING_ERROR"],
    ]);
    expect(probe.teardowns).toBe(1);
  });
});

describe("logs of a request with a huge id", () => {
  it("a refused run with a 900 kB thread id writes a few kB of log, not megabytes", async () => {
    let logged = 0;
    const count = (fields: Record<string, unknown>, message?: string): void => void (logged += JSON.stringify(fields).length + (message?.length ?? 0));
    const busy = new ScriptedAgent((_input, subscriber) => {
      subscriber.next({ type: EventType.RUN_ERROR, code: "THREAD_BUSY", message: "This thread already has a run in progress." } as never);
      subscriber.complete();
    });
    const server = await serveAgents(busy, { logger: { debug: count, info: count, warn: count, error: count } });
    const response = await postJson(server.url, runInputBody({ threadId: "t".repeat(900_000), runId: "r".repeat(100_000) }));
    expect(response.status).toBe(409);
    await response.text();
    expect(logged).toBeGreaterThan(0);
    expect(logged).toBeLessThan(4_096);
  });
});
