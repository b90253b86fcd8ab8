import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
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
});
