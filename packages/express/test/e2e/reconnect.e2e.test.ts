// AG-UI reconnect over HTTP, through @ag-ui/client (AntigravityHttpAgent, an HttpAgent subclass)
// against real AntigravityAgents on the emulator: a connection cut mid-turn, Last-Event-ID resumes,
// a parked question surviving a reload, server-initiated turns, ownership and unsupported agents.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import { type BaseEvent, EventType, type Message, type RunAgentInput } from "@ag-ui/core";
import { fixturesDir } from "@ag-ui-antigravity/testing";
import type { Request } from "express";
import { createParser } from "eventsource-parser";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { AntigravityHttpAgent } from "../../src/client/index.js";
import { cutAfterEvents, transcriptShape, useE2EServers, userMessage } from "./e2e-harness.js";

const model = `emulator:${join(fixturesDir, "scenarios", "reconnect.json")}`;
const continuing = { model, reconnect: { onDisconnect: "continue" as const } };

const startServer = useE2EServers();

/** A fetch whose first response body breaks off after `events` SSE messages, as a dropped network would. */
function fetchThatDropsOnce(events: number) {
  const requests: Array<{ url: string; lastEventId: string | null }> = [];
  let dropped = false;
  const dropping = async (url: string, init: RequestInit): Promise<Response> => {
    requests.push({ url, lastEventId: new Headers(init.headers).get("last-event-id") });
    const response = await fetch(url, init);
    if (dropped || response.body === null) return response;
    dropped = true;
    return cutAfterEvents(response, events, (controller) => controller.error(new TypeError("network connection lost")));
  };
  return { fetch: dropping, requests };
}

/** POSTs to a route by hand and reads the SSE messages with their ids. */
async function rawStream(url: string, input: Partial<RunAgentInput>, headers: Record<string, string> = {}, stopAfter?: number) {
  const body: RunAgentInput = { threadId: randomUUID(), runId: randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...input };
  const controller = new AbortController();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", ...headers }, body: JSON.stringify(body), signal: controller.signal });
  const messages: Array<{ id: string | undefined; event: BaseEvent }> = [];
  if (!response.ok || response.body === null) return { response, messages };
  const parser = createParser({ onEvent: (message) => void messages.push({ id: message.id, event: JSON.parse(message.data) as BaseEvent }) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (stopAfter !== undefined && messages.length >= stopAfter) {
        // A client that lost the rest of the chunk, too: it saw exactly `stopAfter` messages.
        messages.splice(stopAfter);
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { response, messages };
}

/** Pages signed in as alice (`x-user`): without a principal, connect serves only a caller that shows the thread's transcript. */
const signedIn = (request: Request) => request.header("x-user") ?? null;
const asAlice = { "x-user": "alice" };

const verified = (events: readonly BaseEvent[]) => lastValueFrom(from(events).pipe(verifyEvents(), toArray()));

async function referenceTranscript(url: string, text: string): Promise<Message[]> {
  const reference = new HttpAgent({ url, threadId: randomUUID() });
  reference.addMessage(userMessage(text));
  await reference.runAgent();
  return reference.messages;
}

describe("a connection cut mid-turn", () => {
  it("is resumed by AntigravityHttpAgent with Last-Event-ID: the run completes, no event twice, the transcript as if never cut", async () => {
    const server = await startServer({ chat: continuing });
    const url = `${server.url}/chat`;
    const reference = await referenceTranscript(url, "long turn please");

    const network = fetchThatDropsOnce(8);
    const client = new AntigravityHttpAgent({ url, threadId: randomUUID(), fetch: network.fetch, reconnectDelayMs: 50 });
    client.addMessage(userMessage("long turn please"));
    const events: BaseEvent[] = [];
    await client.runAgent({}, { onEvent: ({ event }) => void events.push(event) });

    expect(network.requests).toHaveLength(2);
    expect(network.requests[1]).toMatchObject({ url: `${url}/connect`, lastEventId: expect.stringMatching(/^[\w-]+:\d+$/) });
    expect(transcriptShape(client.messages)).toEqual(transcriptShape(reference));
    expect(events.filter((event) => event.type === EventType.RUN_STARTED)).toHaveLength(1);
    await verified(events);
  });

  it("is re-attached by a reloaded page's connectAgent(): replayed from the start, then live", async () => {
    const server = await startServer({ chat: continuing });
    const url = `${server.url}/chat`;
    const reference = await referenceTranscript(url, "long turn please");
    const threadId = randomUUID();
    const question = userMessage("long turn please");
    const cut = await rawStream(url, { threadId, messages: [question] }, {}, 6);
    expect(cut.messages.map((message) => message.event.type)).not.toContain(EventType.RUN_FINISHED);

    const reloaded = new AntigravityHttpAgent({ url, threadId, initialMessages: [question] });
    const events: BaseEvent[] = [];
    await reloaded.connectAgent({}, { onEvent: ({ event }) => void events.push(event) });
    expect(events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(transcriptShape(reloaded.messages)).toEqual(transcriptShape(reference));
  });

  it("Last-Event-ID on the connect route sends only what came after it; both halves form one valid stream", async () => {
    const server = await startServer({ chat: continuing });
    const url = `${server.url}/chat`;
    const threadId = randomUUID();
    const runId = randomUUID();
    const input = { threadId, runId, messages: [userMessage("long turn please")] };
    const first = await rawStream(url, input, {}, 5);
    const lastId = first.messages.at(-1)!.id!;
    expect(lastId).toBe(`${runId}:4`);
    const rest = await rawStream(`${url}/connect`, input, { "last-event-id": lastId });
    expect(rest.response.status).toBe(200);
    const ids = [...first.messages, ...rest.messages].map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.messages[0]?.id).toBe(`${runId}:5`);
    const all = [...first.messages, ...rest.messages].map((message) => message.event);
    expect(all.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    await verified(all);
    // The same cursor in CopilotKit's body field works alike.
    const again = await rawStream(`${url}/connect`, { ...input, lastSeenEventId: lastId } as Partial<RunAgentInput>);
    expect(again.response.status).toBe(200);
    expect(again.messages.map((message) => message.id)).toEqual(rest.messages.map((message) => message.id));
  });

  it("refuses a Last-Event-ID it never wrote with 400", async () => {
    const server = await startServer({ chat: continuing });
    const { response } = await rawStream(`${server.url}/chat/connect`, {}, { "last-event-id": "not an id" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });
});

describe("a reloaded page", () => {
  it("gets the thread back as snapshots, and a parked question again, which it can answer", async () => {
    // Signed in: a reloaded page that knows only its thread id is served for its principal.
    const server = await startServer({ chat: { ...continuing, builtinTools: ["ask_question"] } }, { authorize: signedIn });
    const url = `${server.url}/chat`;
    const threadId = randomUUID();
    const first = new AntigravityHttpAgent({ url, threadId, headers: asAlice });
    first.addMessage(userMessage("question please"));
    await first.runAgent();
    expect(first.pendingInterrupts).toHaveLength(1);

    const reloaded = new AntigravityHttpAgent({ url, threadId, headers: asAlice });
    const events: BaseEvent[] = [];
    await reloaded.connectAgent({}, { onEvent: ({ event }) => void events.push(event) });
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(reloaded.messages).toEqual(first.messages);
    expect(reloaded.pendingInterrupts).toEqual(first.pendingInterrupts);

    const interrupt = reloaded.pendingInterrupts[0]!;
    const choices = (interrupt.metadata as { questions: Array<{ choices: Array<{ id: string; text: string }> }> }).questions[0]!.choices;
    await reloaded.runAgent({ resume: [{ interruptId: interrupt.id, status: "resolved", payload: { answers: [{ selected: [choices.find((choice) => choice.text === "Yes")!.id] }] } }] });
    expect(String(reloaded.messages.at(-1)?.content)).toContain("Answer: Yes");
  });
});

describe("server-initiated turns", () => {
  it("reach a page connected with stayOpen live, and a disconnected page on its next connect", async () => {
    const server = await startServer({ chat: continuing }, { authorize: signedIn });
    const url = `${server.url}/chat`;
    const threadId = randomUUID();
    const first = new AntigravityHttpAgent({ url, threadId, headers: asAlice });
    first.addMessage(userMessage("hello"));
    await first.runAgent();

    const open = new AntigravityHttpAgent({ url, threadId, headers: asAlice });
    const live: BaseEvent[] = [];
    const following = open.connectAgent({ forwardedProps: { stayOpen: true } }, { onEvent: ({ event }) => void live.push(event) });
    await vi.waitFor(() => expect(live.map((event) => event.type)).toContain(EventType.RUN_FINISHED));
    await server.agents["chat"]!.notify(threadId, "the build is green");
    await vi.waitFor(() => expect(String(open.messages.at(-1)?.content)).toContain("the build is green"), { timeout: 10_000 });
    open.abortRun();
    await following;

    const later = new AntigravityHttpAgent({ url, threadId, headers: asAlice });
    await later.connectAgent();
    expect(String(later.messages.at(-1)?.content)).toContain("Notification received");
    expect(later.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });
});

describe("the connect route", () => {
  it("keeps a thread to its owner, as runs do", async () => {
    const authorize = (request: Request) => ({ id: request.header("x-user") ?? "anonymous" });
    const server = await startServer({ chat: continuing }, { authorize });
    const url = `${server.url}/chat`;
    const threadId = randomUUID();
    const owner = new AntigravityHttpAgent({ url, threadId, headers: { "x-user": "alice" } });
    owner.addMessage(userMessage("hello"));
    await owner.runAgent();
    const intruder = await rawStream(`${url}/connect`, { threadId }, { "x-user": "mallory" });
    expect(intruder.response.status).toBe(403);
    const returning = await rawStream(`${url}/connect`, { threadId }, { "x-user": "alice" });
    expect(returning.response.status).toBe(200);
    expect(returning.messages.map((message) => message.event.type)).toContain(EventType.MESSAGES_SNAPSHOT);
  });

  it("also answers runs at …/run, the path CopilotKit's runtime client posts to", async () => {
    const server = await startServer({ chat: continuing });
    const { response, messages } = await rawStream(`${server.url}/chat/run`, { messages: [userMessage("hello")] });
    expect(response.status).toBe(200);
    expect(messages.at(-1)?.event.type).toBe(EventType.RUN_FINISHED);
  });
});
