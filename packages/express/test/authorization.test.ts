import type { Request } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ExpressBindingError, type AuthorizeRequest } from "../src/index.js";
import { AgentProbe, ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { clientWithMessage, postJson, runInputBody, serveAgents, readJson, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

afterEach(() => {
  vi.restoreAllMocks();
});

/** `x-user` names the caller; `x-user: banned` is known but refused. */
const authorizeByHeader: AuthorizeRequest = (request: Request) => {
  const user = request.header("x-user");
  if (user === "banned") throw new ExpressBindingError("FORBIDDEN", "banned");
  return user === undefined ? null : { id: user, role: "tester" };
};

describe("authorize hook and thread ownership", () => {
  it("refuses a request without a principal with 401 and a refused principal with 403", async () => {
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }), { authorize: authorizeByHeader });

    const anonymous = await postJson(server.url, runInputBody());
    expect(anonymous.status).toBe(401);
    expect((await readJson(anonymous)).error.code).toBe("UNAUTHENTICATED");
    const banned = await postJson(server.url, runInputBody(), { "x-user": "banned" });
    expect(banned.status).toBe(403);
    expect((await readJson(banned)).error.code).toBe("FORBIDDEN");
    const capabilities = await fetch(`${server.url}/capabilities`);
    expect(capabilities.status).toBe(401);
    expect(probe.subscriptions).toBe(0);
  });

  it("lets the creator continue a thread and refuses another principal with the same 403 as any refusal", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const probe = new AgentProbe();
    const server = await serveAgents(new ScriptedAgent(echoScript, { probe }), { authorize: authorizeByHeader });

    const alice = clientWithMessage(server.url, "mine", { threadId: "shared-thread", headers: { "x-user": "alice" } });
    await alice.runAgent();
    alice.addMessage({ id: "second", role: "user", content: "still mine" });
    await alice.runAgent();

    const mallory = clientWithMessage(server.url, "let me in", { threadId: "shared-thread", headers: { "x-user": "mallory" } });
    const refusal = await mallory.runAgent().then(
      () => undefined,
      (error: unknown) => error as { status?: number; payload?: unknown },
    );
    const banned = await readJson(await postJson(server.url, runInputBody(), { "x-user": "banned" }));

    expect(refusal?.status).toBe(403);
    // Identical to a plain refusal: nothing says the thread exists or whose it is.
    expect(refusal?.payload).toEqual(banned);
    expect(JSON.stringify(refusal?.payload)).not.toContain("alice");
    expect(probe.subscriptions).toBe(2);

    const ownThread = clientWithMessage(server.url, "hello", { threadId: "mallory-thread", headers: { "x-user": "mallory" } });
    await expect(ownThread.runAgent()).resolves.toBeDefined();
  });

  it("fails closed when the hook throws something unexpected, and logs it", async () => {
    const warnings: Record<string, unknown>[] = [];
    const server = await serveAgents(new ScriptedAgent(echoScript), {
      authorize: () => {
        throw new Error("token service down");
      },
      logger: { warn: (fields) => void warnings.push(fields) },
    });
    const response = await postJson(server.url, runInputBody());
    expect(response.status).toBe(401);
    expect(JSON.stringify(await readJson(response))).not.toContain("token service");
    expect(warnings).toHaveLength(1);
  });
});
