// GET /readyz: 200 while runs would be accepted, 503 with the reason while they would be refused.
// /healthz stays liveness (the process answers), so a probe can tell "restart me" from "send me nothing".
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import type { AgentReadiness } from "@ag-ui-antigravity/foundation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAntigravityApp } from "../src/index.js";
import { toAgentRegistry } from "../src/options/agent-registry.js";
import { createReadinessHandler } from "../src/routes/readiness-handler.js";
import { ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { closeServersAfterEach, readJson, serveAgents, serveListener } from "./helpers/server.js";

closeServersAfterEach();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A scripted agent that reports a fixed readiness, counting the checks. */
class ReportingAgent extends ScriptedAgent {
  checks = 0;
  readonly #readiness: AgentReadiness;
  constructor(readiness: AgentReadiness) {
    super(echoScript);
    this.#readiness = readiness;
  }
  async readiness(): Promise<AgentReadiness> {
    this.checks += 1;
    return this.#readiness;
  }
}

describe("GET /readyz", () => {
  it("answers 200 for agents that report nothing, and is not cached by anyone", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await readJson(ready)).toEqual({ status: "ready" });
  });

  it("answers 503 with the first refusing agent's code and reason, named, with Retry-After", async () => {
    const fine = new ReportingAgent({ ready: true });
    const broken = new ReportingAgent({ ready: false, code: "THREAD_STORE_UNAVAILABLE", reason: "The agent's redis thread store cannot be reached." });
    const server = await serveAgents({ fine, broken });
    const answer = await fetch(`${server.url}/readyz`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await readJson(answer)).toEqual({ error: { code: "THREAD_STORE_UNAVAILABLE", message: "broken: The agent's redis thread store cannot be reached." } });
    // Liveness is another question: the process answers.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("shares one check between probes that arrive while it runs, and reuses its answer for a second", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      let release: (() => void) | undefined;
      let checks = 0;
      const agent = new ScriptedAgent(echoScript) as ScriptedAgent & { readiness(): Promise<AgentReadiness> };
      agent.readiness = async () => {
        checks += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return { ready: true };
      };
      const handler = createReadinessHandler(toAgentRegistry(agent));
      const answered: number[] = [];
      const probe = () =>
        new Promise<void>((resolve) => {
          const response = { set: () => response, status: (code: number) => (answered.push(code), response), json: () => resolve(), headersSent: false };
          handler({} as never, response as never, () => undefined);
        });
      const probes = Array.from({ length: 20 }, probe);
      expect(checks).toBe(1);
      release?.();
      await Promise.all(probes);
      expect(answered).toEqual(Array(20).fill(200));
      // Within a second of the answer: reused. After it: checked again.
      vi.setSystemTime(Date.now() + 999);
      const reused = probe();
      expect(checks).toBe(1);
      await reused;
      vi.setSystemTime(Date.now() + 2);
      const fresh = probe();
      expect(checks).toBe(2);
      release?.();
      await fresh;
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts a check that throws as not ready", async () => {
    const agent = new ReportingAgent({ ready: true });
    agent.readiness = async () => {
      throw new Error("boom /secret/path");
    };
    const server = await serveAgents(agent);
    const answer = await fetch(`${server.url}/readyz`);
    expect(answer.status).toBe(503);
    const body = await readJson(answer);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(body)).not.toContain("/secret/path");
  });

  it("answers 503 SERVER_CLOSED once the app is closing", async () => {
    const app = createAntigravityApp(new ReportingAgent({ ready: true }));
    const server = await serveListener(app);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await app.close();
    const closing = await fetch(`${server.url}/readyz`);
    expect(closing.status).toBe(503);
    expect((await readJson(closing)).error.code).toBe("SERVER_CLOSED");
  });

  it("moves with readyPath, and readyPath: false removes it", async () => {
    const moved = await serveAgents(new ScriptedAgent(echoScript), { readyPath: "/ready" });
    expect((await fetch(`${moved.url}/ready`)).status).toBe(200);
    const none = await serveAgents(new ScriptedAgent(echoScript), { readyPath: false });
    expect((await fetch(`${none.url}/readyz`)).status).toBe(404);
  });

  it('an AntigravityAgent with harness "discover" on a machine without the harness: 503 HARNESS_NOT_FOUND saying what to install', async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const emptyBin = mkdtempSync(join(tmpdir(), "readyz-no-harness-"));
    // Nothing on PATH (so no python3 either), no ANTIGRAVITY_HARNESS_PATH.
    vi.stubEnv("PATH", emptyBin);
    vi.stubEnv("ANTIGRAVITY_HARNESS_PATH", undefined);
    const chat = new AntigravityAgent({ harness: "discover" });
    try {
      const server = await serveAgents({ chat });
      const answer = await fetch(`${server.url}/readyz`);
      expect(answer.status).toBe(503);
      const body = await readJson(answer);
      expect(body.error.code).toBe("HARNESS_NOT_FOUND");
      expect(body.error.message).toMatch(/^chat: .*pip install google-antigravity/);
      expect(body.error.message).not.toContain(emptyBin);
    } finally {
      await chat.close();
      rmSync(emptyBin, { recursive: true, force: true });
    }
  });

  it('an AntigravityAgent on the emulator is ready, and starts no harness to say so', async () => {
    const chat = new AntigravityAgent({ harness: "emulator" });
    try {
      const server = await serveAgents({ chat });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await chat.poolMetrics()).processes).toBe(0);
    } finally {
      await chat.close();
    }
  });
});
