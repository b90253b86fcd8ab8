import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseEvent, Message, RunFinishedEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach } from "vitest";
import { AntigravityAgent, type AntigravityAgentOptions } from "../../src/index.js";

/**
 * Agents on the emulator for one test file: each gets its own save dir, every agent is closed
 * after each test, and the file ends with a check that no harness process outlived it.
 */
export function useAgents() {
  const agents: AntigravityAgent[] = [];
  const directories: string[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });
  afterAll(async () => {
    await expectNoChildProcesses();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });
  const tempDir = (): string => {
    const directory = mkdtempSync(join(tmpdir(), "agent-test-"));
    directories.push(directory);
    return directory;
  };
  const makeAgent = (options: AntigravityAgentOptions = {}): AntigravityAgent => {
    const agent = new AntigravityAgent({ harness: "emulator", saveDir: tempDir(), ...options });
    agents.push(agent);
    return agent;
  };
  return { makeAgent, tempDir, track: (agent: AntigravityAgent) => void agents.push(agent) };
}

export const user = (content: string): Message => ({ id: randomUUID(), role: "user", content });

/** Runs the agent as a client library would (AbstractAgent.runAgent), collecting every event. */
export async function runWith(agent: AntigravityAgent, parameters: Parameters<AntigravityAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  const result = await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  const finished = events.find((event) => event.type === EventType.RUN_FINISHED) as RunFinishedEvent | undefined;
  return { events, result, finished };
}

export const lastAssistantText = (agent: AntigravityAgent): string =>
  String(agent.messages.filter((message) => message.role === "assistant" && typeof message.content === "string").at(-1)?.content ?? "");
