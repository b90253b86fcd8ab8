import { existsSync } from "node:fs";
import { join } from "node:path";
import express, { type Router } from "express";

/** Shown instead of the dojo when its build is missing, so the fix is one copy-paste away. */
export function dojoMissingPage(distDirectory: string): string {
  return [
    "<!doctype html><meta charset=utf-8><title>The dojo is not built</title>",
    "<body style=\"font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5\">",
    "<h1>The dojo is not built yet</h1>",
    `<p>This server serves the dojo from <code>${escapeHtml(distDirectory)}</code>, which has no <code>index.html</code>.</p>`,
    "<p>Build it, then reload this page (no restart needed):</p>",
    "<pre>pnpm --filter @ag-ui-antigravity/dojo build</pre>",
    "<p>or run <code>pnpm start</code> at the repository root, which builds everything first.</p>",
    "<p>The agent routes (<code>POST /agentic_chat</code>, …) work without it.</p>",
  ].join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * `/` redirects to `/dojo/`, and `/dojo/` serves the built dojo. Whether the build exists is checked
 * per request, so building the dojo while the server runs is enough.
 */
export function createDojoRouter(distDirectory: string): Router {
  const router = express.Router();
  const serveStatic = express.static(distDirectory, { index: "index.html", fallthrough: false, redirect: true });
  router.get("/", (_request, response) => response.redirect(302, "/dojo/"));
  router.use("/dojo", (request, response, next) => {
    if (existsSync(join(distDirectory, "index.html"))) {
      serveStatic(request, response, next);
      return;
    }
    response.status(503).type("html").send(dojoMissingPage(distDirectory));
  });
  return router;
}
