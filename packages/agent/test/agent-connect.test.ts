// AG-UI `connect` in process: AbstractAgent.connectAgent() (with @ag-ui/client's verifier in its
// pipeline) against runs that lost their client, idle and parked threads, and server-initiated turns.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { type BaseEvent, EventType, type Message, type RunAgentInput } from "@ag-ui/core";
import { fixturesDir } from "@ag-ui-antigravity/testing";
import { firstValueFrom, filter, take, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import type { AntigravityAgent, AntigravityAgentOptions } from "../src/index.js";
import { lastAssistantText, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent } = useAgents();
const model = `emulator:${join(fixturesDir, "scenarios", "reconnect.json")}`;
const reconnecting = (options: AntigravityAgentOptions = {}) => makeAgent({ model, reconnect: { onDisconnect: "continue" }, ...options });

/** A client of the thread: a clone with its own messages, as a reloaded page would be. */
function clientOf(agent: AntigravityAgent, threadId: string, messages: Message[] = []): AntigravityAgent {
  const client = agent.clone();
  client.threadId = threadId;
  client.setMessages(messages);
  client.setState({});
  return client;
}

/** The transcript with ids replaced by their order of appearance: two runs of one scenario compare equal. */
function shape(messages: readonly Message[]): unknown {
  const ids = new Map<string, string>();
  const id = (value: string) => ids.get(value) ?? (ids.set(value, `#${ids.size}`), `#${ids.size - 1}`);
  return JSON.parse(JSON.stringify(messages), (key, value: unknown) => ((key === "id" || key === "toolCallId" || key === "messageId") && typeof value === "string" ? id(value) : value));
}

function input(threadId: string, messages: Message[], extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return { threadId, runId: randomUUID(), messages, state: {}, tools: [], context: [], forwardedProps: {}, ...extra };
}

async function connectWith(client: AntigravityAgent, forwardedProps: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await client.connectAgent({ forwardedProps }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

describe("connect", () => {
  it("re-attaches to a run whose client went away mid-turn: replayed from its start, then live, the transcript as if never cut", async () => {
    const agent = reconnecting();
    // The uninterrupted reference, on a thread of its own.
    const reference = clientOf(agent, randomUUID(), [user("long turn please")]);
    await reference.runAgent();

    const threadId = randomUUID();
    const question = user("long turn please");
    const seen: BaseEvent[] = [];
    const subscription = agent.run(input(threadId, [question])).subscribe((event) => void seen.push(event));
    await vi.waitFor(() => expect(seen.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT).length >= 2).toBe(true), { timeout: 20_000 });
    subscription.unsubscribe();
    expect(seen.some((event) => event.type === EventType.RUN_FINISHED)).toBe(false);

    // The reloaded page holds only what it had sent.
    const reloaded = clientOf(agent, threadId, [question]);
    const events = await connectWith(reloaded);
    expect(events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(shape(reloaded.messages)).toEqual(shape(reference.messages));
    expect(lastAssistantText(reloaded)).toContain("come back for the rest of it");
  });

  it("on an idle thread sends the transcript and state as snapshots, which a fresh page adopts", async () => {
    const agent = reconnecting();
    const threadId = randomUUID();
    const first = clientOf(agent, threadId, [user("hello there")]);
    await first.runAgent();
    const fresh = clientOf(agent, threadId);
    const events = await connectWith(fresh);
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(fresh.messages).toEqual(first.messages);
    expect(lastAssistantText(fresh)).toBe("ok: hello there");
  });

  it("on a parked thread sends the pending question again, and its answer resumes the turn", async () => {
    const agent = reconnecting({ builtinTools: ["ask_question"] });
    const threadId = randomUUID();
    const first = clientOf(agent, threadId, [user("question please")]);
    await first.runAgent();
    expect(first.pendingInterrupts).toHaveLength(1);

    const reloaded = clientOf(agent, threadId);
    await connectWith(reloaded);
    expect(reloaded.pendingInterrupts).toEqual(first.pendingInterrupts);
    const interrupt = reloaded.pendingInterrupts[0]!;
    const choices = (interrupt.metadata as { questions?: Array<{ choices: Array<{ id: string; text: string }> }> } | undefined)?.questions?.[0]?.choices ?? [];
    const yes = choices.find((choice) => choice.text === "Yes");
    expect(yes).toBeDefined();
    await reloaded.runAgent({ resume: [{ interruptId: interrupt.id, status: "resolved", payload: { answers: [{ selected: [yes!.id] }] } }] });
    expect(lastAssistantText(reloaded)).toContain("Answer: Yes");
  });

  it("gives nothing for a thread it does not know, and the client keeps its messages", async () => {
    const agent = reconnecting();
    const client = clientOf(agent, randomUUID(), [user("kept")]);
    expect(await connectWith(client)).toEqual([]);
    expect(client.messages).toHaveLength(1);
  });

  it("after a rebuild from the client's edited history, a MESSAGES_SNAPSHOT states that history", async () => {
    const agent = reconnecting();
    const threadId = randomUUID();
    await clientOf(agent, threadId, [user("hello")]).runAgent();
    const edited = [user("hello, edited")];
    const events = await firstValueFrom(agent.run(input(threadId, edited)).pipe(toArray()));
    expect(events.map((event) => event.type).slice(0, 2)).toEqual([EventType.RUN_STARTED, EventType.MESSAGES_SNAPSHOT]);
    expect(events[1]).toMatchObject({ messages: edited });
  });

  it("a 900 kB message is not kept: a fresh page is told the snapshot is incomplete, a page holding it gets it whole", async () => {
    const agent = reconnecting({ reconnect: { onDisconnect: "continue", maxTranscriptBytes: 64 * 1024 } });
    const threadId = randomUUID();
    const document = user(`long turn please ${"x".repeat(900_000)}`);
    const first = clientOf(agent, threadId, [document]);
    await first.runAgent();
    const held = agent.stats().connectHeldBytes;
    expect(held.transcripts).toBeLessThan(64 * 1024);
    expect(held.replay).toBeLessThan(64 * 1024);

    const fresh = clientOf(agent, threadId);
    const freshEvents = await connectWith(fresh);
    expect(freshEvents.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.CUSTOM, EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(freshEvents[1]).toMatchObject({ name: "antigravity.transcript_incomplete", value: { reason: "thread_limit", omittedMessages: 1, stateOmitted: false } });
    expect(fresh.messages).toEqual(first.messages.slice(1));
    expect(lastAssistantText(fresh)).toContain("come back for the rest of it");

    const holding = clientOf(agent, threadId, [document, ...first.messages.slice(1)]);
    const holdingEvents = await connectWith(holding);
    expect(holdingEvents.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(holding.messages).toEqual(first.messages);
  });

  it("RUN_STARTED carries the run's input", async () => {
    const agent = reconnecting();
    const threadId = randomUUID();
    const message = user("hello input");
    const events = await firstValueFrom(agent.run(input(threadId, [message])).pipe(toArray()));
    const started = events[0] as { type: EventType; input?: RunAgentInput };
    expect(started.type).toBe(EventType.RUN_STARTED);
    expect(started.input?.messages).toEqual([message]);
  });
});

describe("triggers", () => {
  it("a trigger's turn reaches a client connected with stayOpen, and a disconnected one in the next connect's snapshot", async () => {
    const agent = reconnecting({ triggers: [{ message: "daily digest", intervalMs: 1_500 }] });
    const threadId = randomUUID();
    await clientOf(agent, threadId, [user("hello")]).runAgent();

    const open = clientOf(agent, threadId);
    const live: BaseEvent[] = [];
    const following = open.connectAgent({ forwardedProps: { stayOpen: true } }, { onEvent: ({ event }) => void live.push(event) });
    await vi.waitFor(() => expect(open.messages.some((message) => String(message.content).includes("Trigger received: daily digest"))).toBe(true), { timeout: 20_000 });
    expect(live.filter((event) => event.type === EventType.RUN_STARTED).length).toBeGreaterThanOrEqual(2);
    await open.detachActiveRun();
    await following;

    const later = clientOf(agent, threadId);
    await connectWith(later);
    expect(later.messages.some((message) => String(message.content).includes("Trigger received: daily digest"))).toBe(true);
    expect(later.messages.filter((message) => message.role === "user")).toHaveLength(1);
    // The trigger's own message is the harness's input, not something the assistant said.
    expect(later.messages.some((message) => message.role === "assistant" && message.content === "daily digest")).toBe(false);
  });
});

describe("notify", () => {
  it("reaches a client connected with stayOpen, live, as its own run", async () => {
    const agent = reconnecting();
    const threadId = randomUUID();
    await clientOf(agent, threadId, [user("hello")]).runAgent();

    const watcher = agent.connect(input(threadId, [], { forwardedProps: { stayOpen: true } }));
    const received = firstValueFrom(
      watcher.pipe(
        filter((event) => event.type === EventType.RUN_FINISHED),
        take(2), // the snapshot's run, then the notification's
        toArray(),
      ),
    );
    await agent.notify(threadId, "your report is ready");
    const finished = await received;
    expect(finished).toHaveLength(2);

    const later = clientOf(agent, threadId);
    await connectWith(later);
    expect(lastAssistantText(later)).toContain("Notification received");
    expect(lastAssistantText(later)).toContain("your report is ready");
    // The notification is not put in the user's mouth.
    expect(later.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });

  it("waits while the thread is busy, then runs; a disconnected client sees it in the next connect's snapshot", async () => {
    const agent = reconnecting();
    const threadId = randomUUID();
    const client = clientOf(agent, threadId, [user("long turn please")]);
    const running = client.runAgent();
    await vi.waitFor(() => expect(client.messages.some((message) => message.role === "assistant")).toBe(true), { timeout: 20_000 });
    const notified = agent.notify(threadId, "while you were busy");
    await running;
    await notified;
    const reloaded = clientOf(agent, threadId);
    await connectWith(reloaded);
    const texts = reloaded.messages.filter((message) => message.role === "assistant").map((message) => String(message.content));
    expect(texts[0]).toContain("come back for the rest of it");
    expect(texts.at(-1)).toContain("while you were busy");
  });

  it("refuses a thread it has never run", async () => {
    const agent = reconnecting();
    await expect(agent.notify(randomUUID(), "nobody there")).rejects.toMatchObject({ code: "UNKNOWN_THREAD" });
  });
});
