import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Message, RunAgentInput, RunFinishedEvent, RunErrorEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { AntigravityAgent, type AntigravityAgentOptions } from "@ag-ui-antigravity/agent";
import { expectNoChildProcesses, fixturesDir, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach } from "vitest";
import { createAntigravityApp, type AgentRouterOptions } from "../../src/index.js";

/** A real server for one test: Express on port 0, AntigravityAgents on the emulator behind it. */
export interface E2EServer {
  url: string;
  agents: Record<string, AntigravityAgent>;
  close(): Promise<void>;
}

export const e2eScenario = join(fixturesDir, "scenarios", "agent-e2e.json");

/**
 * The preamble of every e2e file: returns a `startServer` whose servers are closed after each test,
 * and checks after the file that no emulator process is left behind.
 */
export function useE2EServers(): typeof startE2EServer {
  const started: E2EServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await expectNoChildProcesses();
  });
  return async (agentOptions, routerOptions) => {
    const server = await startE2EServer(agentOptions, routerOptions);
    started.push(server);
    return server;
  };
}

/** A transcript with ids replaced by their order of appearance: runs on two threads compare equal. */
export function transcriptShape(messages: unknown): unknown {
  const ids = new Map<string, string>();
  const rename = (value: string): string => {
    if (!ids.has(value)) ids.set(value, `#${ids.size}`);
    return ids.get(value)!;
  };
  return JSON.parse(JSON.stringify(messages), (key, value: unknown) => (["id", "toolCallId", "messageId"].includes(key) && typeof value === "string" ? rename(value) : value));
}

/**
 * `response` with a body that breaks off after `events` SSE messages, as a proxy or a network cuts a
 * stream: `breakOff` ends it there (an early close, or an error).
 */
export function cutAfterEvents(response: Response, events: number, breakOff: (controller: ReadableStreamDefaultController<Uint8Array>) => void): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(value);
      seen += decoder.decode(value, { stream: true }).split("\n\n").length - 1;
      if (seen >= events) {
        await reader.cancel();
        breakOff(controller);
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

export async function startE2EServer(
  agentOptions: Record<string, AntigravityAgentOptions>,
  routerOptions: AgentRouterOptions = {},
): Promise<E2EServer> {
  const saveDir = mkdtempSync(join(tmpdir(), "express-e2e-"));
  const agents = Object.fromEntries(
    Object.entries(agentOptions).map(([name, options]) => [name, new AntigravityAgent({ harness: "emulator", saveDir, ...options })]),
  );
  const server: EphemeralServer = await listenOnEphemeralPort(createAntigravityApp(agents, routerOptions));
  return {
    url: server.url,
    agents,
    close: async () => {
      await server.close();
      await Promise.all(Object.values(agents).map((agent) => agent.close()));
      rmSync(saveDir, { recursive: true, force: true });
    },
  };
}

export const userMessage = (content: string): Message => ({ id: randomUUID(), role: "user", content });

/** An HttpAgent on one thread, collecting the events of each run (the client verifies them as it goes). */
export class ThreadClient {
  readonly agent: HttpAgent;
  events: BaseEvent[] = [];

  constructor(url: string, options: { threadId?: string; headers?: Record<string, string> } = {}) {
    this.agent = new HttpAgent({ url, threadId: options.threadId ?? randomUUID(), ...(options.headers === undefined ? {} : { headers: options.headers }) });
  }

  async say(text: string, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
    this.agent.addMessage(userMessage(text));
    return this.run(parameters);
  }

  async run(parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
    this.events = [];
    await this.agent.runAgent(parameters, { onEvent: ({ event }) => void this.events.push(event) });
    return this.events;
  }

  get finished(): RunFinishedEvent | undefined {
    return this.events.find((event) => event.type === EventType.RUN_FINISHED) as RunFinishedEvent | undefined;
  }

  get runError(): RunErrorEvent | undefined {
    return this.events.find((event) => event.type === EventType.RUN_ERROR) as RunErrorEvent | undefined;
  }

  get interrupts() {
    const outcome = this.finished?.outcome;
    return outcome?.type === "interrupt" ? outcome.interrupts : [];
  }

  lastAssistantText(): string {
    const message = this.agent.messages.filter((candidate) => candidate.role === "assistant" && typeof candidate.content === "string").at(-1);
    return String(message?.content ?? "");
  }
}

/** POSTs a RunAgentInput by hand, for status checks HttpAgent would turn into exceptions. */
export async function postRun(url: string, input: Partial<RunAgentInput>, headers: Record<string, string> = {}) {
  const body: RunAgentInput = { threadId: randomUUID(), runId: randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...input };
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", ...headers }, body: JSON.stringify(body) });
}

/** Agent options with `toolApproval` and one server tool, `write_note`, whose calls' arguments go to `calls`. */
export const writeNote = (calls: unknown[]) => ({
  toolApproval: true,
  serverTools: [
    {
      name: "write_note",
      description: "Writes a note",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: async (args: Record<string, unknown>) => {
        calls.push(args);
        return { written: args.text };
      },
    },
  ],
});
