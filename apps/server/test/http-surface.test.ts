// The routes around the agents: capabilities (validated with AG-UI's own schema), health, metrics,
// the dojo's static files and the JSON 404.
import { AgentCapabilitiesSchema } from "@ag-ui/core/schemas";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoFeatures } from "../src/agents/demo-agent-environment.js";
import { clientFor, say } from "./support/agent-runs.js";
import { startDemoServer, testDojoPage, type RunningDemoServer } from "./support/demo-server.js";

let server: RunningDemoServer;

beforeAll(async () => {
  server = await startDemoServer();
});

afterAll(async () => {
  await server?.close();
  await expectNoChildProcesses();
});

describe("GET /<feature>/capabilities", () => {
  it.each(demoFeatures)("%s answers capabilities that AgentCapabilitiesSchema accepts", async (feature) => {
    const response = await fetch(`${server.url}/${feature}/capabilities`);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    const parsed = AgentCapabilitiesSchema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data?.identity?.name).toBe(feature);
    expect(parsed.data?.transport?.streaming).toBe(true);
  });

  it("advertises interrupts exactly where the demo raises them", async () => {
    const humanInTheLoop = async (feature: string) => ((await (await fetch(`${server.url}/${feature}/capabilities`)).json()) as { humanInTheLoop?: Record<string, unknown> }).humanInTheLoop;
    expect(await humanInTheLoop("tool_approval")).toMatchObject({ approvals: true, approveWithEdits: true, interrupts: true });
    expect(await humanInTheLoop("questions")).toMatchObject({ interrupts: true });
    expect(await humanInTheLoop("agentic_chat")).toMatchObject({ approvals: false });
  });

  it("lists the server tools of a feature", async () => {
    const body = (await (await fetch(`${server.url}/shared_state/capabilities`)).json()) as { tools?: { items?: { name: string }[] } };
    expect(body.tools?.items?.map((tool) => tool.name)).toEqual(["read_recipe", "update_recipe"]);
  });
});

describe("health, metrics, dojo and unknown routes", () => {
  it("GET /healthz is ok", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz is ready: every demo agent would accept a run", async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });

  it("GET /metrics reports the harness choice, the pool and every agent's sessions", async () => {
    await say(clientFor(server.url, "agentic_chat"), "Hello");
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    const metrics = (await response.json()) as { harness: unknown; pool: { processes: number; totals: { acquires: number } }; agents: Record<string, unknown> };
    expect(metrics.harness).toEqual({ kind: "emulator", reason: "the tests use the emulator" });
    expect(metrics.pool.processes).toBeGreaterThanOrEqual(1);
    expect(metrics.pool.totals.acquires).toBeGreaterThanOrEqual(1);
    expect(Object.keys(metrics.agents).sort()).toEqual([...demoFeatures].sort());
    // Nothing about the host's layout: no process ids, no directories.
    const text = JSON.stringify(metrics);
    expect(text).not.toMatch(/"pid"|"storageDirectory"|\/tmp\/|agd-/);
  });

  it("GET /metrics speaks the Prometheus text format to a scraper: drift, pool and sessions", async () => {
    await say(clientFor(server.url, "agentic_chat"), "Hello");
    const response = await fetch(`${server.url}/metrics`, { headers: { accept: "text/plain;version=0.0.4;q=0.5,*/*;q=0.1" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain("# TYPE antigravity_harness_protocol_drift_total counter");
    expect(text).toMatch(/^antigravity_pool_processes [1-9]/m);
    expect(text).toContain('antigravity_agent_sessions{agent="agentic_chat",state="live"}');
    expect(((await (await fetch(`${server.url}/metrics?format=prometheus`)).text()))).toContain("antigravity_pool_events_total");
  });

  it("redirects / to /dojo/ and serves the dojo build there", async () => {
    const root = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/dojo/");
    const page = await fetch(`${server.url}/dojo/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toBe(testDojoPage);
    const missingAsset = await fetch(`${server.url}/dojo/assets/missing.js`);
    expect(missingAsset.status).toBe(404);
  });

  it("answers unknown routes with a JSON 404", async () => {
    const response = await fetch(`${server.url}/not/a/route`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});
