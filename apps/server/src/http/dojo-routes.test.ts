import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenOnEphemeralPort } from "@ag-ui-antigravity/testing";
import express from "express";
import { describe, expect, it } from "vitest";
import { createDojoRouter } from "./dojo-routes.js";

describe("createDojoRouter", () => {
  it("explains how to build the dojo while its dist is missing, and serves it once built, without a restart", async () => {
    const distDirectory = await mkdtemp(join(tmpdir(), "agd-dist-"));
    const app = express().use(createDojoRouter(distDirectory));
    const server = await listenOnEphemeralPort(app);
    try {
      const missing = await fetch(`${server.url}/dojo/`);
      expect(missing.status).toBe(503);
      expect(await missing.text()).toContain("pnpm --filter @ag-ui-antigravity/dojo build");

      await writeFile(join(distDirectory, "index.html"), "<!doctype html><title>built</title>");
      const built = await fetch(`${server.url}/dojo/`);
      expect(built.status).toBe(200);
      expect(await built.text()).toContain("built");
      const bare = await fetch(`${server.url}/dojo`, { redirect: "manual" });
      expect(bare.status).toBe(301);
      expect(bare.headers.get("location")).toBe("/dojo/");
    } finally {
      await server.close();
      await rm(distDirectory, { recursive: true, force: true });
    }
  });
});
