import { HttpAgent } from "@ag-ui/client";
import { expectNoActiveHandles, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach } from "vitest";
import { createAntigravityApp, type AgentOrAgents, type AgentRouterOptions } from "../../src/index.js";

const openServers: EphemeralServer[] = [];

/**
 * Registers, for the calling test file, the hook that closes every server its tests opened. Called
 * from each file (not at this module's top level) because test files share this module when Vitest
 * runs them without isolation.
 */
export function closeServersAfterEach(): void {
  afterEach(async () => {
    await Promise.all(openServers.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    // No socket, server or timer of ours may outlive the file (the pipes are Vitest's own).
    await expectNoActiveHandles({ allow: ["PipeWrap"] });
  });
}

/** Serves the app on port 0; the server is closed after the current test. */
export async function serveAgents(agents: AgentOrAgents, options: AgentRouterOptions = {}): Promise<EphemeralServer> {
  const server = await listenOnEphemeralPort(createAntigravityApp(agents, options));
  openServers.push(server);
  return server;
}

/** Serves any request listener (an app the test built itself) on port 0, closed after the test. */
export async function serveListener(listener: Parameters<typeof listenOnEphemeralPort>[0]): Promise<EphemeralServer> {
  const server = await listenOnEphemeralPort(listener);
  openServers.push(server);
  return server;
}

/** A real AG-UI client on `url` with one user message already in its history. */
export function clientWithMessage(url: string, text: string, options: { threadId?: string; headers?: Record<string, string> } = {}): HttpAgent {
  const agent = new HttpAgent({
    url,
    ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  agent.addMessage({ id: `user-${Math.random().toString(36).slice(2)}`, role: "user", content: text });
  return agent;
}

/** A minimal valid RunAgentInput body. */
export function runInputBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    threadId: "thread-1",
    runId: "run-1",
    messages: [{ id: "m1", role: "user", content: "hello" }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...overrides,
  };
}

/** POSTs a JSON body with fetch, as a client other than HttpAgent would. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Parses SSE `data:` frames of a finished body into events, ignoring comment and `id:` lines. */
export function parseSseFrames(text: string): any[] {
  return text
    .split("\n\n")
    .map((frame) => frame.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice("data: ".length)));
}

/** A response's JSON body, loosely typed for assertions. */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
