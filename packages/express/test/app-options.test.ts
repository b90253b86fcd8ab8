import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import type { Subscriber, TeardownLogic } from "rxjs";
import { describe, expect, it } from "vitest";
import { createAntigravityApp, ExpressBindingError } from "../src/index.js";
import { AgentProbe, ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { closeServersAfterEach, postJson, readJson, runInputBody, serveAgents } from "./helpers/server.js";

closeServersAfterEach();

const appOrigin = "http://app.example.test";

function preflight(url: string, origin: string): Promise<Response> {
  return fetch(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" },
  });
}

describe("createAntigravityApp cors", () => {
  it("is off by default: no CORS headers, and a preflight is not answered as allowed", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const answer = await preflight(server.url, appOrigin);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const run = await postJson(server.url, runInputBody(), { origin: appOrigin, accept: "text/event-stream" });
    expect(run.headers.get("access-control-allow-origin")).toBeNull();
    await run.text();
  });

  it("answers preflights and runs for listed origins only, with credentials when asked", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript), { cors: { origins: [appOrigin], credentials: true } });
    const allowed = await preflight(server.url, appOrigin);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(appOrigin);
    expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
    expect(allowed.headers.get("access-control-allow-methods")).toBe("GET,POST");
    expect(allowed.headers.get("access-control-allow-headers")).toBe("content-type,authorization");

    const run = await postJson(server.url, runInputBody(), { origin: appOrigin, accept: "text/event-stream" });
    expect(run.headers.get("access-control-allow-origin")).toBe(appOrigin);
    expect(await run.text()).toContain("RUN_FINISHED");

    const stranger = await preflight(server.url, "http://evil.example.test");
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
    // Errors answered before a stream carry the headers too, so the browser can read the reason.
    const notJson = await fetch(server.url, { method: "POST", headers: { origin: appOrigin, "content-type": "text/plain" }, body: "x" });
    expect(notJson.status).toBe(415);
    expect(notJson.headers.get("access-control-allow-origin")).toBe(appOrigin);
  });

  it("allows any origin with '*' and refuses '*' with credentials, or origins that are not origins", () => {
    const agent = new ScriptedAgent(echoScript);
    expect(() => createAntigravityApp(agent, { cors: { origins: "*" } })).not.toThrow();
    for (const cors of [
      { origins: "*" as const, credentials: true },
      { origins: ["http://app.example.test/path"] },
      { origins: ["app.example.test"] },
      { origins: [] },
    ]) {
      let caught: unknown;
      try {
        createAntigravityApp(agent, { cors });
      } catch (error) {
        caught = error;
      }
      expect(ExpressBindingError.isInstance(caught) && caught.code).toBe("CONFIG_INVALID");
    }
  });
});

describe("createAntigravityApp beforeRoutes", () => {
  it("runs the given middleware, in order, before the agent routes", async () => {
    const probe = new AgentProbe();
    const seen: string[] = [];
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }), {
      beforeRoutes: [
        (request, _response, next) => {
          seen.push(`first ${request.method}`);
          next();
        },
        (request, response, next) => {
          seen.push("second");
          if (request.header("x-blocked") === "yes") {
            response.status(429).json({ error: { code: "RATE_LIMITED", message: "slow down" } });
            return;
          }
          next();
        },
      ],
    });
    const blocked = await postJson(server.url, runInputBody(), { "x-blocked": "yes" });
    expect(blocked.status).toBe(429);
    expect(probe.subscriptions).toBe(0);
    const run = await postJson(server.url, runInputBody(), { accept: "text/event-stream" });
    expect(await run.text()).toContain("RUN_FINISHED");
    expect(seen).toEqual(["first POST", "second", "first POST", "second"]);
  });

  it("refuses something that is not a middleware function", () => {
    expect(() => createAntigravityApp(new ScriptedAgent(echoScript), { beforeRoutes: ["nope" as never] })).toThrow(/beforeRoutes/);
  });
});

/** An agent that cannot start, the way AntigravityAgent refuses a run when no harness is found. */
function refusingScript(code: string) {
  return (input: RunAgentInput, subscriber: Subscriber<BaseEvent>): TeardownLogic => {
    subscriber.next({ type: EventType.RUN_ERROR, code, message: `cannot start (${input.threadId})` } as BaseEvent);
    subscriber.complete();
  };
}

describe("startup failures before any event", () => {
  it.each(["HARNESS_NOT_FOUND", "SPAWN_FAILED", "SPAWN_BACKOFF", "HANDSHAKE_FAILED", "POOL_CLOSED", "AGENT_CLOSED"])(
    "answers a first RUN_ERROR %s with 503 and the reason as JSON",
    async (code) => {
      const server = await serveAgents(new ScriptedAgent(refusingScript(code)));
      const answer = await postJson(server.url, runInputBody(), { accept: "text/event-stream" });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await readJson(answer);
      expect(body.error.code).toBe(code);
      expect(body.error.message).toContain("cannot start");
    },
  );
});
