import { listenOnEphemeralPort } from "@ag-ui-antigravity/testing";
import express from "express";
import { describe, expect, it } from "vitest";
import { DrainGate, waitUntilIdle } from "./drain-gate.js";

describe("DrainGate", () => {
  it("lets everything through until draining, then refuses new runs (POST) with 503 but still serves reads", async () => {
    const gate = new DrainGate();
    const app = express().use(gate.handler);
    app.all("/run", (_request, response) => void response.json({ ran: true }));
    const server = await listenOnEphemeralPort(app);
    try {
      expect((await fetch(`${server.url}/run`, { method: "POST" })).status).toBe(200);
      gate.begin();
      const refused = await fetch(`${server.url}/run`, { method: "POST" });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("SHUTTING_DOWN");
      expect((await fetch(`${server.url}/run`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("waitUntilIdle", () => {
  it("resolves true once nothing is busy, and false at its timeout", async () => {
    let busy = 2;
    const timer = setTimeout(() => (busy = 0), 60);
    await expect(waitUntilIdle(() => busy, 5_000, 10)).resolves.toBe(true);
    clearTimeout(timer);
    const startedAt = Date.now();
    await expect(waitUntilIdle(() => 1, 80, 10)).resolves.toBe(false);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(75);
  });
});
