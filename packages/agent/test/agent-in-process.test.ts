import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseEvent, Message } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AntigravityAgent } from "../src/index.js";

const agents: AntigravityAgent[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});
afterAll(async () => {
  await expectNoChildProcesses();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function makeAgent(options: ConstructorParameters<typeof AntigravityAgent>[0] = {}): AntigravityAgent {
  const saveDir = mkdtempSync(join(tmpdir(), "agent-test-"));
  directories.push(saveDir);
  const agent = new AntigravityAgent({ harness: "emulator", saveDir, ...options });
  agents.push(agent);
  return agent;
}

function user(content: string): Message {
  return { id: randomUUID(), role: "user", content };
}

/** Runs the agent as a client library would (AbstractAgent.runAgent), collecting every event. */
async function runWith(agent: AntigravityAgent, parameters: Parameters<AntigravityAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  const result = await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  return { events, result };
}

describe("AntigravityAgent in process (the client library drives it as an AbstractAgent)", () => {
  it("streams a chat reply that quotes the user, with reasoning, and finishes with usage", async () => {
    const agent = makeAgent();
    agent.addMessage(user("hello there"));
    const { events } = await runWith(agent);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe(EventType.RUN_STARTED);
    expect(types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(types).toContain(EventType.REASONING_START);
    expect(types.filter((type) => type === EventType.TEXT_MESSAGE_CONTENT).length).toBeGreaterThan(1);
    const assistant = agent.messages.find((message) => message.role === "assistant");
    expect(typeof assistant?.content === "string" ? assistant.content : "").toContain("hello there");
  });

  it("keeps one conversation per thread across runs and forwards every new user message in order", async () => {
    const agent = makeAgent();
    agent.addMessage(user("first message"));
    await runWith(agent);
    agent.addMessages([user("second message"), user("third message")]);
    await runWith(agent);
    const replies = agent.messages.filter((message) => message.role === "assistant").map((message) => String(message.content));
    expect(replies).toHaveLength(2);
    expect(replies[1]).toContain("second message");
    expect(replies[1]).toContain("third message");
    expect(agent.stats().sessions.liveSessions).toBe(1);
  });
});
