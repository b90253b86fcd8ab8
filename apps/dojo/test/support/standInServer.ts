// A stand-in for apps/server: serves the built dojo under /dojo/ and answers every feature route
// with the scripted AG-UI runs in scriptedRuns.ts, over SSE encoded by @ag-ui/encoder. Every event
// is validated against the AG-UI schemas before it is sent, and every request body is validated as
// a RunAgentInput, so both halves of the contract are checked.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { AddressInfo } from "node:net";
import type { RunAgentInput } from "@ag-ui/core";
import { EventSchema, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";
import { isPause, newThreadMemory, scriptedFeatures, scriptRun, type ThreadMemory } from "./scriptedRuns.js";

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 — the dojo is at `${baseUrl}/dojo/`. */
  baseUrl: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Delay between events, so streamed text arrives in visibly separate pieces. */
const eventSpacingMs = 12;

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(() => resolve(), milliseconds));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function serveDojo(distDirectory: string, pathname: string, response: ServerResponse): Promise<void> {
  const relative = normalize(pathname.replace(/^\/dojo\/?/, "")).replace(/^(\.\.[/\\])+/, "");
  const file = relative === "" || relative === "." ? "index.html" : relative;
  try {
    const body = await readFile(join(distDirectory, file));
    response.writeHead(200, { "content-type": contentTypes[extname(file)] ?? "application/octet-stream" });
    response.end(body);
  } catch {
    sendJson(response, 404, { error: `not found: ${pathname}` });
  }
}

function capabilitiesOf(feature: string): unknown {
  return {
    identity: { name: feature, type: "antigravity-stand-in", description: `Scripted stand-in for the ${feature} demo agent` },
    transport: { streaming: true },
    state: { snapshots: true, deltas: true },
    reasoning: { supported: true, streaming: true },
    humanInTheLoop: { supported: true, interrupts: feature === "tool_approval" || feature === "questions", approvals: feature === "tool_approval", approveWithEdits: feature === "tool_approval" },
  };
}

async function runFeature(feature: string, request: IncomingMessage, response: ServerResponse, threads: Map<string, ThreadMemory>): Promise<void> {
  const body: unknown = JSON.parse(await readBody(request));
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    sendJson(response, 400, { error: "invalid RunAgentInput", issues: parsed.error.issues });
    return;
  }
  // Validated above; the body itself is used so nothing the page sent is reshaped by the schema.
  const input = body as RunAgentInput;
  const memory = threads.get(input.threadId) ?? newThreadMemory();
  threads.set(input.threadId, memory);
  const steps = scriptRun(feature, input, memory);

  const encoder = new EventEncoder({ accept: request.headers.accept ?? "text/event-stream" });
  response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache", connection: "keep-alive" });
  let closed = false;
  response.on("close", () => {
    closed = true;
  });
  for (const step of steps) {
    if (closed) return;
    if (isPause(step)) {
      await sleep(step.pauseMs);
      continue;
    }
    // A script bug must fail loudly here, not as a confusing client-side parse error.
    EventSchema.parse(step);
    response.write(encoder.encodeSSE(step));
    await sleep(eventSpacingMs);
  }
  response.end();
}

/** Starts the stand-in on an ephemeral port of 127.0.0.1, serving `distDirectory` under /dojo/. */
export async function startStandInServer(distDirectory: string): Promise<RunningServer> {
  const threads = new Map<string, ThreadMemory>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const [, first = "", second] = url.pathname.split("/");
    const handle = async (): Promise<void> => {
      if (url.pathname === "/") {
        response.writeHead(302, { location: "/dojo/" });
        response.end();
      } else if (first === "dojo") {
        await serveDojo(distDirectory, url.pathname, response);
      } else if (scriptedFeatures.includes(first) && second === "capabilities" && request.method === "GET") {
        sendJson(response, 200, capabilitiesOf(first));
      } else if (scriptedFeatures.includes(first) && second === undefined && request.method === "POST") {
        await runFeature(first, request, response, threads);
      } else {
        sendJson(response, 404, { error: `no route for ${request.method} ${url.pathname}` });
      }
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
