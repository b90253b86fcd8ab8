// A refused request leaves the thread as it was, and long threads live on (issue 39, finding 10).
// Clients resend their whole history with every run, so a message the server refused comes back
// with every later run, and a thread that outgrew the forwarded window comes back whole too.
import { randomUUID } from "node:crypto";
import type { BaseEvent, Message } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { AntigravityAgent } from "../src/index.js";
import { useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir, track } = useAgents();

async function run(agent: AntigravityAgent, threadId: string, messages: Message[]) {
  const copy = agent.clone();
  copy.threadId = threadId;
  copy.setMessages(messages);
  const events: BaseEvent[] = [];
  await copy.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  const last = events.at(-1) as { type: string; code?: string } | undefined;
  const reply = String(copy.messages.filter((message) => message.role === "assistant").at(-1)?.content ?? "");
  return { events, messages: copy.messages, last, reply };
}

const brokenImage = (text: string): Message => ({
  id: randomUUID(),
  role: "user",
  content: [
    { type: "text", text },
    { type: "image", source: { type: "data", value: "this is not base64!", mimeType: "image/png" } },
  ],
});

describe("a refused request leaves the thread as it was", () => {
  it("a message with a broken attachment is refused; the next message, with that one still in the history, runs", async () => {
    const agent = makeAgent({ model: "emulator:demo" });
    const threadId = randomUUID();
    const first = await run(agent, threadId, [user("hello")]);
    expect(first.last?.type).toBe(EventType.RUN_FINISHED);
    const broken = brokenImage("look at this");
    const refused = await run(agent, threadId, [...first.messages, broken]);
    expect(refused.last).toMatchObject({ type: EventType.RUN_ERROR, code: "INVALID_INPUT" });
    // An AG-UI client keeps the refused message and resends it with its next one.
    const next = await run(agent, threadId, [...first.messages, broken, user("and this one?")]);
    expect(next.last?.type, JSON.stringify(next.last)).toBe(EventType.RUN_FINISHED);
    expect(next.events.some((event) => event.type === EventType.MESSAGES_SNAPSHOT)).toBe(false);
    expect(next.reply).toContain("and this one?");
    // The thread goes on normally afterwards.
    const after = await run(agent, threadId, [...next.messages, user("still fine?")]);
    expect(after.last?.type).toBe(EventType.RUN_FINISHED);
    expect(after.reply).toContain("still fine?");
  });

  it("after a request refused for duplicate message ids, the next good run forwards only its new message", async () => {
    const agent = makeAgent({ model: "emulator:demo" });
    const threadId = randomUUID();
    const first = await run(agent, threadId, [user("My name is Ada.")]);
    const twice = user("two");
    const refused = await run(agent, threadId, [...first.messages, twice, { id: twice.id, role: "user", content: "three" }]);
    expect(refused.last).toMatchObject({ type: EventType.RUN_ERROR, code: "INVALID_INPUT" });
    const next = await run(agent, threadId, [...first.messages, twice, user("Please recap.")]);
    expect(next.last?.type).toBe(EventType.RUN_FINISHED);
    expect(next.events.some((event) => event.type === EventType.MESSAGES_SNAPSHOT)).toBe(false);
    expect(next.reply).toContain('"My name is Ada."');
    expect(next.reply).not.toContain("edited the conversation");
  });
});

describe("long threads live on", () => {
  it("a thread of 600 user messages keeps running, also after a cold resume on a restarted agent, forwarding only its new message", async () => {
    const saveDir = tempDir();
    const threadId = randomUUID();
    const history: Message[] = Array.from({ length: 600 }, (_, index) => user(`m${index}`));
    // The first reply echoes 600 messages: no pause between its tokens.
    const env = { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0" };
    const before = makeAgent({ model: "emulator:demo", saveDir, env });
    const first = await run(before, threadId, history);
    expect(first.last?.type, JSON.stringify(first.last)).toBe(EventType.RUN_FINISHED);
    await before.close();

    const after = new AntigravityAgent({ harness: "emulator", model: "emulator:demo", saveDir, env });
    track(after);
    const resumed = await run(after, threadId, [...first.messages, user("the six hundred and first")]);
    expect(resumed.last?.type, JSON.stringify(resumed.last)).toBe(EventType.RUN_FINISHED);
    // Not rebuilt from the transcript: only the new message went to the model.
    expect(resumed.events.some((event) => event.type === EventType.MESSAGES_SNAPSHOT)).toBe(false);
    expect(resumed.reply).toContain('You said: "the six hundred and first"');
    const later = await run(after, threadId, [...resumed.messages, user("and one more")]);
    expect(later.last?.type).toBe(EventType.RUN_FINISHED);
    expect(later.reply).toContain('You said: "and one more"');
  });
});
