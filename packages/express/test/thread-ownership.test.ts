import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import type { Request } from "express";
import type { Subscriber, TeardownLogic } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { FileOwnershipStore, MemoryOwnershipStore, type AuthorizeRequest, type ThreadOwnershipStore } from "../src/index.js";
import { AgentProbe, ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { closeServersAfterEach, postJson, readJson, runInputBody, serveAgents } from "./helpers/server.js";

closeServersAfterEach();

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const authorizeByHeader: AuthorizeRequest = (request: Request) => request.header("x-user") ?? null;

/** Refuses (a first RUN_ERROR the binding answers with 400) every run whose last message says "refuse". */
function refusingScript(input: RunAgentInput, subscriber: Subscriber<BaseEvent>): TeardownLogic {
  const last = input.messages.at(-1);
  if (last?.role === "user" && last.content === "refuse") {
    subscriber.next({ type: EventType.RUN_ERROR, code: "INVALID_INPUT", message: "refused" } as BaseEvent);
    subscriber.complete();
    return undefined;
  }
  return echoScript(input, subscriber);
}

const run = (url: string, user: string, threadId: string, content = "hello") =>
  postJson(url, runInputBody({ threadId, messages: [{ id: "m1", role: "user", content }] }), { "x-user": user });

describe("thread ownership through the binding", () => {
  it("a run the agent refuses before it starts does not claim the thread", async () => {
    const server = await serveAgents(new ScriptedAgent(refusingScript), { authorize: authorizeByHeader });
    expect((await run(server.url, "mallory", "t", "refuse")).status).toBe(400);
    expect((await run(server.url, "alice", "t")).status).toBe(200);
    expect((await run(server.url, "mallory", "t")).status).toBe(403);
  });

  it("refused runs (another principal's, and ones the agent refuses) never change a thread's owner", async () => {
    const owners = new MemoryOwnershipStore({ maxEntries: 50 });
    const server = await serveAgents(new ScriptedAgent(refusingScript), { authorize: authorizeByHeader, ownershipStore: owners });
    expect((await run(server.url, "alice", "alices-thread")).status).toBe(200);
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch += 1) {
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0 ? run(server.url, `mallory-${index}`, "alices-thread") : run(server.url, `mallory-${index}`, `other-${batch}-${index}`, "refuse"),
        ),
      );
      for (const reply of replies) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 400: 100, 403: 100 });
    expect(await owners.ownerOf({ agentId: "agent", threadId: "alices-thread" })).toBe("alice");
    expect(owners.stats().owners).toBe(1);
    expect((await run(server.url, "alice", "alices-thread")).status).toBe(200);
  });

  it("ownership survives a restart with a FileOwnershipStore", async () => {
    const directory = mkdtempSync(join(tmpdir(), "owners-"));
    directories.push(directory);
    const probe = new AgentProbe();
    const first = await serveAgents({ chat: new ScriptedAgent(echoScript, { probe }) }, { authorize: authorizeByHeader, ownershipStore: new FileOwnershipStore({ directory }) });
    expect((await run(`${first.url}/chat`, "alice", "t")).status).toBe(200);
    await first.close();
    const second = await serveAgents({ chat: new ScriptedAgent(echoScript, { probe }) }, { authorize: authorizeByHeader, ownershipStore: new FileOwnershipStore({ directory }) });
    expect((await run(`${second.url}/chat`, "mallory", "t")).status).toBe(403);
    expect((await run(`${second.url}/chat`, "alice", "t")).status).toBe(200);
    expect(probe.subscriptions).toBe(2);
  });

  it("fails closed: a store that cannot be reached refuses the run with 503, a full one with 503 OWNERSHIP_FULL", async () => {
    const broken: ThreadOwnershipStore = {
      claim: () => Promise.reject(new Error("connection refused 10.0.0.7:6379")),
      release: () => Promise.resolve(),
      ownerOf: () => Promise.resolve(undefined),
      stats: () => ({ kind: "broken", refusedFull: 0 }),
      close: () => Promise.resolve(),
    };
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }), { authorize: authorizeByHeader, ownershipStore: broken, logger: { error: () => undefined } });
    const reply = await run(server.url, "alice", "t");
    expect(reply.status).toBe(503);
    const body = await readJson(reply);
    expect(body.error.code).toBe("OWNERSHIP_UNAVAILABLE");
    expect(JSON.stringify(body)).not.toContain("10.0.0.7");

    const full = await serveAgents(new ScriptedAgent(echoScript, { probe }), { authorize: authorizeByHeader, maxThreadOwners: 1, logger: { warn: () => undefined } });
    expect((await run(full.url, "alice", "t1")).status).toBe(200);
    const refused = await run(full.url, "bob", "t2");
    expect(refused.status).toBe(503);
    expect((await readJson(refused)).error.code).toBe("OWNERSHIP_FULL");
    expect((await run(full.url, "alice", "t1")).status).toBe(200);
    expect(probe.subscriptions).toBe(2);
  });
});
