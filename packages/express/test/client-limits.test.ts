// The binding's side of client limits: an agent that says what it holds (ThreadHoldings) is asked,
// a refusal of the agent's own says when to retry, createAntigravityApp turns limits on and the
// router leaves them off, and connects claim nothing.
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import express from "express";
import { Observable, type Subscriber } from "rxjs";
import { describe, expect, it } from "vitest";
import type { ThreadHolding, ThreadHoldings } from "@ag-ui-antigravity/core";
import { createAgentRouter, MemoryOwnershipStore } from "../src/index.js";
import { echoScript, ScriptedAgent, runFinished, runStarted, type Script } from "./helpers/fake-agents.js";
import { closeServersAfterEach, postJson, runInputBody, serveAgents, serveListener } from "./helpers/server.js";

closeServersAfterEach();

/** A scripted agent that also says what it holds of each thread, as the test sets it. */
class HoldingAgent extends ScriptedAgent implements ThreadHoldings {
  constructor(
    script: Script,
    readonly holdings = new Map<string, ThreadHolding>(),
  ) {
    super(script);
  }

  threadHolding(threadId: string): ThreadHolding {
    return this.holdings.get(threadId) ?? "none";
  }

  override clone(): HoldingAgent {
    return new HoldingAgent(this.script, this.holdings);
  }
}

/** A scripted agent whose `connect` is `stream()`, on every clone. */
class ConnectingAgent extends ScriptedAgent {
  constructor(readonly stream: () => Observable<BaseEvent>) {
    super(echoScript);
  }

  protected override connect(): Observable<BaseEvent> {
    return this.stream();
  }

  override clone(): ConnectingAgent {
    return new ConnectingAgent(this.stream);
  }
}

const body = (threadId: string, extra: Record<string, unknown> = {}) => runInputBody({ threadId, runId: `run-${threadId}-${Math.random()}`, ...extra });

describe("client limits in the binding", () => {
  it("counts what the agent says it holds after a run's request ended: a park without an interrupt outcome, a run going on", async () => {
    const agent = new HoldingAgent(echoScript);
    const server = await serveAgents({ chat: agent }, { clientLimits: { maxParkedThreads: 1, maxConcurrentRuns: 2 } });
    const url = `${server.url}/chat`;
    expect((await postJson(url, body("p1"))).status).toBe(200);
    agent.holdings.set("p1", "parked");
    const refused = await postJson(url, body("p2"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    // The answer to p1 is admitted; a request about it that fails does not release it.
    expect((await postJson(url, body("p1"))).status).toBe(200);
    expect((await postJson(url, body("p2"))).status).toBe(429);
    agent.holdings.set("p1", "none");
    expect((await postJson(url, body("p2"))).status).toBe(200);
    // Two runs the agent still runs (their clients left) fill the two slots.
    agent.holdings.set("p2", "running");
    expect((await postJson(url, body("r1"))).status).toBe(200);
    agent.holdings.set("r1", "running");
    const busy = await postJson(url, body("r2"));
    expect(busy.status).toBe(429);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
  });

  it("answers an agent's CAPACITY_EXHAUSTED or SESSION_LIMIT refusal with 503 and Retry-After", async () => {
    const refusing = (code: string): Script => (input: RunAgentInput, subscriber: Subscriber<BaseEvent>) => {
      subscriber.next({ type: EventType.RUN_ERROR, code, message: "full" } as BaseEvent);
      subscriber.complete();
      return undefined;
    };
    const server = await serveAgents({ capacity: new ScriptedAgent(refusing("CAPACITY_EXHAUSTED")), sessions: new ScriptedAgent(refusing("SESSION_LIMIT")) });
    for (const name of ["capacity", "sessions"]) {
      const reply = await postJson(`${server.url}/${name}`, body("t"));
      expect(reply.status).toBe(503);
      expect(reply.headers.get("retry-after")).toBe("5");
    }
  });

  it("is on in createAntigravityApp (8 runs at once per client) unless false, and off in createAgentRouter unless given", async () => {
    const hanging: Script = (input, subscriber) => {
      subscriber.next(runStarted(input));
      return undefined;
    };
    const nine = async (url: string): Promise<number[]> => {
      const controller = new AbortController();
      try {
        const replies = await Promise.all(Array.from({ length: 9 }, (_, index) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body(`t${index}`)), signal: controller.signal })));
        return replies.map((reply) => reply.status).sort();
      } finally {
        controller.abort();
      }
    };
    const app = await serveAgents({ chat: new ScriptedAgent(hanging) });
    expect(await nine(`${app.url}/chat`)).toEqual([...Array(8).fill(200), 429]);
    const unlimited = await serveAgents({ chat: new ScriptedAgent(hanging) }, { clientLimits: false });
    expect(await nine(`${unlimited.url}/chat`)).toEqual(Array(9).fill(200));
    const router = express().use(createAgentRouter({ chat: new ScriptedAgent(hanging) }));
    const routed = await serveListener(router);
    expect(await nine(`${routed.url}/chat`)).toEqual(Array(9).fill(200));
  });

  it("counts stayOpen connects per client, and releases one when its stream closes", async () => {
    const following = new ConnectingAgent(() => new Observable<BaseEvent>(() => undefined));
    const server = await serveAgents({ chat: following }, { clientLimits: { maxOpenStreams: 2 } });
    const url = `${server.url}/chat/connect`;
    const open = (threadId: string, signal: AbortSignal) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body(threadId, { forwardedProps: { stayOpen: true } })), signal });
    const first = new AbortController();
    const rest = new AbortController();
    try {
      expect((await open("a", first.signal)).status).toBe(200);
      expect((await open("b", rest.signal)).status).toBe(200);
      const third = await open("c", rest.signal);
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("5");
      // A connect that does not stay open is not counted.
      expect((await postJson(url, body("d"))).status).toBe(200);
      first.abort();
      await expect.poll(async () => (await open("c", rest.signal)).status).toBe(200);
    } finally {
      first.abort();
      rest.abort();
    }
  });

  it("with auth, a connect claims nothing: a thread nobody owns gets an empty stream without the agent, and its first run's principal owns it", async () => {
    const ownershipStore = new MemoryOwnershipStore();
    let connects = 0;
    const agent = new ConnectingAgent(() => {
      connects += 1;
      return new Observable<BaseEvent>((subscriber) => {
        subscriber.next(runStarted({ threadId: "t", runId: "r" } as RunAgentInput));
        subscriber.next(runFinished({ threadId: "t", runId: "r" } as RunAgentInput));
        subscriber.complete();
      });
    });
    const server = await serveAgents({ chat: agent }, { authorize: (request) => request.header("x-user") ?? null, ownershipStore });
    const url = `${server.url}/chat`;
    const squat = await postJson(`${url}/connect`, body("t"), { "x-user": "mallory" });
    expect(squat.status).toBe(200);
    expect(await squat.text()).toBe("");
    expect(connects).toBe(0);
    expect(ownershipStore.stats().owners).toBe(0);
    expect((await postJson(url, body("t"), { "x-user": "alice" })).status).toBe(200);
    expect((await postJson(`${url}/connect`, body("t"), { "x-user": "mallory" })).status).toBe(403);
    const own = await postJson(`${url}/connect`, body("t"), { "x-user": "alice" });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("RUN_STARTED");
    expect(connects).toBe(1);
    await ownershipStore.close();
  });
});
