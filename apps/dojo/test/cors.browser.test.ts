// A page served from one origin calls an agent served by createAntigravityApp on another, in
// Debian's Chromium: with `cors` listing the page's origin the run streams; with the default (no
// CORS) the browser refuses the response. Real agent, real emulator, real browser.
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAntigravityApp } from "@ag-ui-antigravity/express";
import { expectNoChildProcesses, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromiumPath, launchChromium } from "./support/browser.js";

const suiteName =
  chromiumPath === undefined
    ? "CORS browser test SKIPPED: no Chromium binary at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)"
    : "a page on another origin calls createAntigravityApp in Chromium";

/** What the page's fetch saw: the status and body, or the error the browser raised. */
interface PageFetch {
  status?: number;
  body?: string;
  error?: string;
}

describe.skipIf(chromiumPath === undefined)(suiteName, () => {
  const agent = new AntigravityAgent({ harness: "emulator" });
  let pageServer: EphemeralServer;
  let withCors: EphemeralServer;
  let withoutCors: EphemeralServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    pageServer = await listenOnEphemeralPort((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another origin</title><p>app</p>");
    });
    withCors = await listenOnEphemeralPort(createAntigravityApp({ chat: agent }, { cors: { origins: [pageServer.url], credentials: true } }));
    withoutCors = await listenOnEphemeralPort(createAntigravityApp({ chat: agent }));
    browser = await launchChromium(chromiumPath as string);
    page = await browser.newPage();
    await page.goto(pageServer.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([pageServer, withCors, withoutCors].map((server) => server?.close()));
    await agent.close();
    await expectNoChildProcesses();
  }, 30_000);

  /** The page POSTs a run, as a browser app would, with credentials and an auth header (so a preflight). */
  function runFromPage(url: string): Promise<PageFetch> {
    return page.evaluate(async (target) => {
      const input = {
        threadId: crypto.randomUUID(),
        runId: crypto.randomUUID(),
        messages: [{ id: crypto.randomUUID(), role: "user", content: "hello from another origin" }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      };
      try {
        const response = await fetch(target, {
          method: "POST",
          credentials: "include",
          headers: { "content-type": "application/json", accept: "text/event-stream", authorization: "Bearer page-token" },
          body: JSON.stringify(input),
        });
        return { status: response.status, body: await response.text() };
      } catch (error) {
        return { error: String(error) };
      }
    }, url);
  }

  test("with cors listing the page's origin, the run streams to the page", async () => {
    expect(new URL(pageServer.url).origin).not.toBe(new URL(withCors.url).origin);
    const result = await runFromPage(`${withCors.url}/chat`);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(200);
    const events = (result.body ?? "")
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice("data: ".length)) as { type: string; delta?: string });
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");
    const text = events.map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? (event.delta ?? "") : "")).join("");
    expect(text).toContain("hello from another origin");
  });

  test("without cors (the default), the browser refuses the response", async () => {
    const result = await runFromPage(`${withoutCors.url}/chat`);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/TypeError/);
  });
});
