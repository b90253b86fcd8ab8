// The whole stack for one fault case: Express on port 0 in front of AntigravityAgents on emulator
// processes, driven by @ag-ui/client's HttpAgent or by hand-made requests. Shaped after
// packages/express/test/e2e/e2e-harness.ts, plus what the fault cases need on top: a recording
// logger, the pool's pids, and the agents' own state.
import { randomUUID } from "node:crypto";
import { type Agent, request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { getHeapSpaceStatistics } from "node:v8";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { EventType, type BaseEvent, type Message, type RunAgentInput, type RunErrorEvent, type RunFinishedEvent } from "@ag-ui/core";
import { AntigravityAgent, type AntigravityAgentOptions } from "@ag-ui-antigravity/agent";
import { createAntigravityApp, type AgentRouterOptions } from "@ag-ui-antigravity/express";
import { expectNoChildProcesses, fixturesDir, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach } from "vitest";

export const reliabilityModel = `emulator:${join(fixturesDir, "scenarios", "reliability.json")}`;
export const faultsModel = `emulator:${join(fixturesDir, "scenarios", "faults.json")}`;

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  details: Record<string, unknown>;
}

/** A pino-shaped logger that keeps every line, for assertions on what the operator sees. */
export class RecordingLogger {
  readonly lines: LogLine[] = [];
  readonly debug = (details: Record<string, unknown>, message = ""): void => void this.lines.push({ level: "debug", message, details });
  readonly info = (details: Record<string, unknown>, message = ""): void => void this.lines.push({ level: "info", message, details });
  readonly warn = (details: Record<string, unknown>, message = ""): void => void this.lines.push({ level: "warn", message, details });
  readonly error = (details: Record<string, unknown>, message = ""): void => void this.lines.push({ level: "error", message, details });

  matching(pattern: RegExp, level?: LogLine["level"]): LogLine[] {
    return this.lines.filter((line) => pattern.test(line.message) && (level === undefined || line.level === level));
  }
}

export interface Stack {
  url: string;
  agents: Record<string, AntigravityAgent>;
  logger: RecordingLogger;
  saveDir: string;
  server: EphemeralServer;
  close(): Promise<void>;
}

/**
 * The preamble of every fault-suite file: a `startStack` whose stacks are closed after each test, a
 * `scratchDir` removed after each test (after the stack that used it), and, after the file, a check
 * that no emulator process is left behind. `closeTimeoutMs` is for stacks that take long to close.
 */
export function useStacks(options: { closeTimeoutMs?: number } = {}): { startStack: typeof startStack; scratchDir(prefix: string): string } {
  const stacks: Stack[] = [];
  const scratch: string[] = [];
  afterEach(async () => {
    await Promise.all(stacks.splice(0).map((stack) => stack.close()));
    for (const directory of scratch.splice(0)) rmSync(directory, { recursive: true, force: true });
  }, options.closeTimeoutMs);
  afterAll(async () => {
    await expectNoChildProcesses();
  });
  return {
    startStack: async (agentOptions, routerOptions) => {
      const stack = await startStack(agentOptions, routerOptions);
      stacks.push(stack);
      return stack;
    },
    scratchDir: (prefix) => {
      const directory = mkdtempSync(join(tmpdir(), prefix));
      scratch.push(directory);
      return directory;
    },
  };
}

export async function startStack(
  agentOptions: Record<string, AntigravityAgentOptions>,
  routerOptions: AgentRouterOptions = {},
): Promise<Stack> {
  const saveDir = mkdtempSync(join(tmpdir(), "reliability-"));
  const logger = new RecordingLogger();
  const agents = Object.fromEntries(
    // Each agent under its own id: they share the save dir, and thread state is kept per agent.
    Object.entries(agentOptions).map(([name, options]) => [name, new AntigravityAgent({ agentId: name, harness: "emulator", saveDir, logger, ...options })]),
  );
  const server = await listenOnEphemeralPort(createAntigravityApp(agents, { logger, ...routerOptions }));
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    agents,
    logger,
    saveDir,
    server,
    close: () => {
      closing ??= (async () => {
        await server.close();
        await Promise.all(Object.values(agents).map((agent) => agent.close({ deadlineMs: 5_000 })));
        // Not rmSync: after thousands of threads this takes seconds, and the loop must stay free meanwhile.
        await rm(saveDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

export const userMessage = (content: string): Message => ({ id: randomUUID(), role: "user", content });

/** An HttpAgent on one thread, keeping the events of its latest run and when each arrived. */
export class ThreadClient {
  readonly agent: HttpAgent;
  events: BaseEvent[] = [];
  arrivals: number[] = [];

  constructor(url: string, options: { threadId?: string; headers?: Record<string, string> } = {}) {
    this.agent = new HttpAgent({ url, threadId: options.threadId ?? randomUUID(), ...(options.headers === undefined ? {} : { headers: options.headers }) });
  }

  get threadId(): string {
    return this.agent.threadId;
  }

  async say(text: string, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
    this.agent.addMessage(userMessage(text));
    return this.run(parameters);
  }

  async run(parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
    this.events = [];
    this.arrivals = [];
    await this.agent.runAgent(parameters, {
      onEvent: ({ event }) => {
        this.events.push(event);
        this.arrivals.push(performance.now());
      },
    });
    return this.events;
  }

  has(type: EventType): boolean {
    return this.events.some((event) => event.type === type);
  }

  arrivalOf(type: EventType): number | undefined {
    const index = this.events.findIndex((event) => event.type === type);
    return index < 0 ? undefined : this.arrivals[index];
  }

  get finished(): RunFinishedEvent | undefined {
    return this.events.find((event) => event.type === EventType.RUN_FINISHED) as RunFinishedEvent | undefined;
  }

  get runError(): RunErrorEvent | undefined {
    return this.events.find((event) => event.type === EventType.RUN_ERROR) as RunErrorEvent | undefined;
  }

  lastAssistantText(): string {
    const message = this.agent.messages.filter((candidate) => candidate.role === "assistant" && typeof candidate.content === "string").at(-1);
    return String(message?.content ?? "");
  }
}

/** A RunAgentInput with every field, for hand-made requests. */
export function runInput(input: Partial<RunAgentInput> = {}): RunAgentInput {
  return { threadId: randomUUID(), runId: randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...input };
}

/** POSTs a RunAgentInput by hand, for status checks HttpAgent would turn into exceptions. */
export function postRun(url: string, input: Partial<RunAgentInput>, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify(runInput(input)),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Reads an SSE response to its end and returns the `type` of every event. */
export async function eventTypesOf(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => String((JSON.parse(line.slice(5)) as { type?: unknown }).type));
}

export async function waitFor(condition: () => boolean, options: { timeoutMs?: number; what: string }): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Data on the heap after full collections (the test process runs with --expose-gc), once `quiet()`
 * holds. Two things are left out because they vary with the machine's load, not with what the code
 * keeps: compiled code (V8 optimizes more functions the longer a case runs, ~1.5 MiB in a loaded
 * run), and work still in flight (pass `quiet`, e.g. "no store write pending and no conversation
 * still closing": a pending transcript write holds its text, and each conversation its last turn's
 * steps, 900 kB for a 900 kB prompt; a loaded run measured 6 such conversations more than the
 * sessions that own them, still closing).
 */
export async function settledHeapBytes(quiet?: () => boolean | Promise<boolean>): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("run with --expose-gc");
  const deadline = Date.now() + 120_000;
  while (quiet !== undefined && !(await quiet())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for in-flight work to end before measuring the heap");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (let round = 0; round < 4; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return getHeapSpaceStatistics()
    .filter((space) => !space.space_name.startsWith("code_"))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/** What a raw POST got back. */
export interface RawReply {
  status: number;
  body: string;
}

/**
 * POSTs `body` as is over a keep-alive `agent` (node:http, not fetch: the fuzz cases need bodies and
 * headers fetch would rewrite, and thousands of requests need pooled connections).
 */
export function postRaw(url: URL, agent: Agent, body: Buffer, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: "POST", agent, headers: { accept: "text/event-stream", ...headers, "content-length": String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
