import { randomUUID } from "node:crypto";
import { EventType } from "@ag-ui/core";
import { getState, setState } from "@ag-ui-antigravity/hitl";
import { describe, expect, it } from "vitest";
import { ThreadClient, useE2EServers } from "./e2e-harness.js";

const startServer = useE2EServers();

const haiku = {
  name: "generate_haiku",
  description: "Show a haiku to the user",
  parameters: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
};

describe("HttpAgent → Express → AntigravityAgent → emulator", () => {
  it("streams a chat reply with reasoning", async () => {
    const server = await startServer({ chat: {} });
    const client = new ThreadClient(`${server.url}/chat`);
    const events = await client.say("hello over http");
    expect(events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(events.some((event) => event.type === EventType.REASONING_MESSAGE_CONTENT)).toBe(true);
    expect(client.lastAssistantText()).toContain("hello over http");
    const capabilities = await (await fetch(`${server.url}/chat/capabilities`)).json();
    expect(capabilities).toMatchObject({ reasoning: { supported: true }, transport: { streaming: true } });
  });

  it("runs a server tool that writes state; the client's state follows", async () => {
    const server = await startServer({
      weather: {
        serverTools: [
          {
            name: "get_weather",
            description: "Weather for a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            handler: async (args) => {
              setState({ ...(getState() as object), city: args.city, temperature: 18 });
              return { city: args.city, temperature: 18, conditions: "cloudy" };
            },
          },
        ],
      },
    });
    const client = new ThreadClient(`${server.url}/weather`);
    await client.say("call get_weather for Lisbon");
    expect(client.agent.state).toMatchObject({ temperature: 18 });
    expect(client.lastAssistantText()).toContain("cloudy");
    const toolResult = client.agent.messages.find((message) => message.role === "tool");
    expect(String(toolResult?.content)).toContain("cloudy");
  });

  it("parks a frontend tool across runs and resumes with the tool message", async () => {
    const server = await startServer({ haiku: {} });
    const client = new ThreadClient(`${server.url}/haiku`);
    await client.say("please use generate_haiku about rain", { tools: [haiku] });
    expect(client.finished?.outcome).toBeUndefined();
    const call = client.agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))[0];
    expect(call?.function.name).toBe("generate_haiku");
    client.agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call!.id, content: "the user loved it" });
    await client.run({ tools: [haiku] });
    expect(client.lastAssistantText()).toContain("the user loved it");
  });

  it("serves fifty threads at once on one app", async () => {
    // 50 runs from one address at once: past the app's default client limits (8 runs), on purpose.
    const server = await startServer({ chat: {} }, { clientLimits: false });
    const url = `${server.url}/chat`;
    const clients = Array.from({ length: 50 }, () => new ThreadClient(url));
    await Promise.all(clients.map((client, index) => client.say(`thread number ${index}`)));
    clients.forEach((client, index) => expect(client.lastAssistantText(), JSON.stringify(client.events).slice(0, 2000)).toContain(`thread number ${index}`));
    expect(server.agents.chat!.stats().sessions.liveSessions).toBe(50);
  }, 120_000);
});
