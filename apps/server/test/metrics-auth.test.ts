// With AUTH_TOKENS, /metrics asks for a token as the agent routes do (issue 39, finding 8).
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type RunningDemoServer } from "./support/demo-server.js";

const token = "metrics-test-token-0123456789";
let server: RunningDemoServer;

beforeAll(async () => {
  server = await startDemoServer({ authTokens: new Map([[token, "alice"]]) });
});

afterAll(async () => {
  await server?.close();
  await expectNoChildProcesses();
});

describe("GET /metrics with AUTH_TOKENS", () => {
  it("refuses a caller without a token, or with a wrong one, with 401 and says nothing of the server", async () => {
    for (const headers of [{}, { authorization: "Bearer not-a-token-of-this-server" }, { accept: "text/plain" }]) {
      const response = await fetch(`${server.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: { code: "UNAUTHENTICATED", message: "Authentication is required." } });
    }
  });

  it("answers a caller with a token, in JSON and in Prometheus's format", async () => {
    const json = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { pool?: unknown }).pool).toBeDefined();
    const text = await fetch(`${server.url}/metrics?format=prometheus`, { headers: { authorization: `Bearer ${token}` } });
    expect(text.status).toBe(200);
    await text.text();
  });

  it("keeps /healthz open for probes", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
