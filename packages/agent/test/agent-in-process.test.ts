import { randomUUID } from "node:crypto";
import { EventType, type Message } from "@ag-ui/core";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator/binary-path";
import { HarnessPool } from "@ag-ui-antigravity/pool";
import { describe, expect, it } from "vitest";
import type { AntigravityAgent } from "../src/index.js";
import { runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent } = useAgents();

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

  it("on a warm thread, sends the turn's input to the harness before RUN_STARTED goes out, and RUN_STARTED still comes first", async () => {
    const seen: string[] = [];
    const pool = new HarnessPool({
      healthCheckIntervalMs: 0,
      harness: {
        binaryPath: emulatorBinaryPath(),
        inspector: (record) => {
          if (record.direction === "send" && record.messageKey.endsWith("serInput")) seen.push(`harness ${record.messageKey}`);
        },
      },
    });
    try {
      const agent = makeAgent({ pool });
      const threadId = randomUUID();
      const messages: Message[] = [user("first")];
      const runOnce = async (): Promise<string[]> => {
        const events: string[] = [];
        await new Promise<void>((resolve, reject) => {
          runEvents(agent, threadId, messages).subscribe({
            next: (event) => {
              seen.push(event.type);
              events.push(event.type);
            },
            error: reject,
            complete: resolve,
          });
        });
        return events;
      };
      await runOnce();
      seen.length = 0;
      messages.push({ id: randomUUID(), role: "assistant", content: "an answer" }, user("second"));
      const events = await runOnce();
      expect(seen.slice(0, 2)).toEqual(["harness userInput", EventType.RUN_STARTED]);
      expect(events[0]).toBe(EventType.RUN_STARTED);
      expect(events.at(-1)).toBe(EventType.RUN_FINISHED);
      expect(events).toContain(EventType.TEXT_MESSAGE_CONTENT);
    } finally {
      await pool.close();
    }
  });
});

/** The agent's own event stream for one run (no client library in between, so the order is the emit order). */
function runEvents(agent: AntigravityAgent, threadId: string, messages: Message[]) {
  return agent.run({ threadId, runId: randomUUID(), messages: [...messages], tools: [], context: [], state: {}, forwardedProps: {} });
}
