// Nothing handed to the wrong party (issue 39): a thread's one record (conversation, owner,
// transcript) in the agent's store, asked by the binding. Real AntigravityAgents on the emulator, a
// save dir shared across a restart, @ag-ui/client's HttpAgent and raw requests as clients.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { type BaseEvent, EventType, type Message, type RunAgentInput } from "@ag-ui/core";
import { AntigravityAgent, type AntigravityAgentOptions } from "@ag-ui-antigravity/agent";
import { expectNoChildProcesses, fixturesDir, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import type { Request } from "express";
import { createParser } from "eventsource-parser";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type AgentRouterOptions, createAntigravityApp } from "../../src/index.js";
import { userMessage } from "./e2e-harness.js";

const model = `emulator:${join(fixturesDir, "scenarios", "reconnect.json")}`;
const authorize = (request: Request) => ({ id: request.header("x-user") ?? "anonymous" });

const directories: string[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0).reverse()) await server.close();
});
afterAll(async () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  await expectNoChildProcesses();
});

function saveDir(): string {
  const directory = mkdtempSync(join(tmpdir(), "express-records-"));
  directories.push(directory);
  return directory;
}

/** A server as an app is started: agents with a save dir and default settings, bound by name. */
async function serve(agents: Record<string, AntigravityAgentOptions>, options: AgentRouterOptions = {}): Promise<{ url: string; agents: Record<string, AntigravityAgent>; close(): Promise<void> }> {
  const built = Object.fromEntries(Object.entries(agents).map(([name, agentOptions]) => [name, new AntigravityAgent({ harness: "emulator", model, ...agentOptions })]));
  const server: EphemeralServer = await listenOnEphemeralPort(createAntigravityApp(built, options));
  let closed: Promise<void> | undefined;
  const handle = {
    url: server.url,
    agents: built,
    close: () =>
      (closed ??= (async () => {
        await server.close();
        await Promise.all(Object.values(built).map((agent) => agent.close()));
      })()),
  };
  servers.push(handle);
  return handle;
}

/** A run or connect by hand, its status and its SSE events (with ids). */
async function post(url: string, input: Partial<RunAgentInput>, headers: Record<string, string> = {}) {
  const body: RunAgentInput = { threadId: randomUUID(), runId: randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...input };
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  const events: Array<{ id: string | undefined; event: BaseEvent }> = [];
  if (response.ok && response.headers.get("content-type")?.includes("text/event-stream") === true) {
    const parser = createParser({ onEvent: (message) => void events.push({ id: message.id, event: JSON.parse(message.data) as BaseEvent }) });
    parser.feed(text);
  }
  return { status: response.status, text, events: events.map((entry) => entry.event), ids: events.map((entry) => entry.id) };
}

const snapshotOf = (events: readonly BaseEvent[]): Message[] | undefined => (events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as { messages?: Message[] } | undefined)?.messages;
const texts = (messages: readonly Message[] | undefined): string[] => (messages ?? []).flatMap((message) => (typeof message.content === "string" ? [`${message.role}: ${message.content}`] : []));

describe("a restart hands no thread to anyone else", () => {
  it("with a save dir and default settings: after a restart another principal's run on a remembered thread is refused (403), the owner's runs (200)", async () => {
    const directory = saveDir();
    const threadId = randomUUID();
    const first = await serve({ chat: { saveDir: directory } }, { authorize });
    const alice = new HttpAgent({ url: `${first.url}/chat`, threadId, headers: { "x-user": "alice" } });
    alice.addMessage(userMessage("my secret is 42"));
    await alice.runAgent();
    await first.close();

    const second = await serve({ chat: { saveDir: directory } }, { authorize });
    const mallory = await post(`${second.url}/chat`, { threadId, messages: [userMessage("what was the secret?")] }, { "x-user": "mallory" });
    expect(mallory.status).toBe(403);
    expect(mallory.text).not.toContain("42");
    alice.url = `${second.url}/chat`;
    alice.addMessage(userMessage("still mine?"));
    const events: BaseEvent[] = [];
    await alice.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    // Resumed, not rebuilt: only the new message went to the model.
    expect(events.some((event) => event.type === EventType.MESSAGES_SNAPSHOT)).toBe(false);
  });

  it("a reload after a restart gets the thread back: connect gives the snapshot of what the thread said", async () => {
    const directory = saveDir();
    const threadId = randomUUID();
    const first = await serve({ chat: { saveDir: directory } }, { authorize });
    const alice = new HttpAgent({ url: `${first.url}/chat`, threadId, headers: { "x-user": "alice" } });
    alice.addMessage(userMessage("hello before the restart"));
    await alice.runAgent();
    await first.close();

    const second = await serve({ chat: { saveDir: directory } }, { authorize });
    // A reloaded page: nothing but the thread id.
    const reloaded = await post(`${second.url}/chat/connect`, { threadId }, { "x-user": "alice" });
    expect(reloaded.status).toBe(200);
    expect(texts(snapshotOf(reloaded.events))).toEqual(["user: hello before the restart", "assistant: ok: hello before the restart"]);
    const intruder = await post(`${second.url}/chat/connect`, { threadId }, { "x-user": "mallory" });
    expect(intruder.status).toBe(403);
  });

  it("two agents on one save dir without an agentId keep their threads apart (each under its route name)", async () => {
    const directory = saveDir();
    const threadId = "the-same-thread-id";
    const server = await serve({ alpha: { saveDir: directory }, beta: { saveDir: directory } });
    const alpha = await post(`${server.url}/alpha`, { threadId, messages: [userMessage("alpha's private note")] });
    expect(alpha.status).toBe(200);
    // beta's first run on the same id starts its own conversation: nothing of alpha's reaches it.
    const beta = await post(`${server.url}/beta`, { threadId, messages: [userMessage("recap")] });
    expect(beta.status).toBe(200);
    expect(beta.text).not.toContain("alpha's private note");
    const betaConnect = await post(`${server.url}/beta/connect`, { threadId, messages: [] });
    expect(betaConnect.text).not.toContain("alpha's private note");
  });

  it("refuses at start two agents that would share records, naming the clash", async () => {
    const directory = saveDir();
    const one = new AntigravityAgent({ harness: "emulator", saveDir: directory, agentId: "chat" });
    try {
      expect(() => new AntigravityAgent({ harness: "emulator", saveDir: directory, agentId: "chat" })).toThrow(/Two agents would share thread records[\s\S]*"chat"/);
      const unnamed = new AntigravityAgent({ harness: "emulator", saveDir: directory });
      expect(() => createAntigravityApp({ chat: unnamed })).toThrow(/Two agents would share thread records/);
      await unnamed.close();
    } finally {
      await one.close();
    }
  });
});

describe("connect without authorize", () => {
  it("serves the thread only to a caller that shows its transcript (its newest user message); a thread id alone gets an empty stream", async () => {
    const server = await serve({ chat: { saveDir: saveDir(), builtinTools: ["ask_question"] } });
    const threadId = randomUUID();
    const asked = userMessage("question please");
    const run = await post(`${server.url}/chat`, { threadId, messages: [asked] });
    const interrupt = (run.events.find((event) => event.type === EventType.RUN_FINISHED) as { outcome?: { interrupts?: Array<{ id: string }> } }).outcome?.interrupts?.[0];
    expect(interrupt).toBeDefined();
    const stranger = await post(`${server.url}/chat/connect`, { threadId, messages: [] });
    expect(stranger.status).toBe(200);
    expect(stranger.events).toEqual([]);
    expect(stranger.text).not.toContain(interrupt!.id);
    const forged = await post(`${server.url}/chat/connect`, { threadId, messages: [{ id: asked.id, role: "user", content: "not what was said" }] });
    expect(forged.events).toEqual([]);
    const participant = await post(`${server.url}/chat/connect`, { threadId, messages: [asked] });
    expect(texts(snapshotOf(participant.events))).toContain("user: question please");
  });
});

describe("Last-Event-ID names a run", () => {
  it("resumes that run, or says it is over and sends the snapshot: never another run from its start", async () => {
    const server = await serve({ chat: { saveDir: saveDir(), reconnect: { onDisconnect: "continue", replayGraceMs: 0 } } });
    const threadId = randomUUID();
    const first = userMessage("hello");
    const firstRun = await post(`${server.url}/chat`, { threadId, runId: "run-a", messages: [first] });
    expect(firstRun.ids.at(-1)).toMatch(/^run-a:\d+:end$/);
    // The client lost run-a's stream after its second event; run-a ended meanwhile and is no longer
    // held, and run-b is in flight.
    const second = userMessage("long turn please");
    const inFlight = post(`${server.url}/chat`, { threadId, runId: "run-b", messages: [first, { id: randomUUID(), role: "assistant", content: "ok: hello" }, second] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await post(`${server.url}/chat/connect`, { threadId, messages: [first, second] }, { "last-event-id": "run-a:1" });
    expect(resumed.status).toBe(200);
    const runIds = resumed.events.filter((event) => event.type === EventType.RUN_STARTED).map((event) => (event as unknown as { runId: string }).runId);
    expect(runIds).not.toContain("run-b");
    expect(resumed.events[0]).toMatchObject({ type: EventType.RUN_ERROR, code: "REPLAY_UNAVAILABLE" });
    expect(snapshotOf(resumed.events)).toBeDefined();
    await inFlight;
    // A client that saw run-a's end resumes nothing: it follows what is in flight, or gets the snapshot.
    const after = await post(`${server.url}/chat/connect`, { threadId, messages: [first, second] }, { "last-event-id": "run-a:3:end" });
    expect(after.events.some((event) => event.type === EventType.RUN_ERROR)).toBe(false);
    expect(snapshotOf(after.events)).toBeDefined();
  });
});

describe("GET /<agent>/threads", () => {
  it("lists the caller's threads, the most recently active first, with their first message; never another's; not without authorize", async () => {
    const server = await serve({ chat: { saveDir: saveDir() } }, { authorize });
    const [one, two] = [randomUUID(), randomUUID()];
    await post(`${server.url}/chat`, { threadId: one, messages: [userMessage("first thread of alice")] }, { "x-user": "alice" });
    await post(`${server.url}/chat`, { threadId: two, messages: [userMessage("second thread of alice")] }, { "x-user": "alice" });
    await post(`${server.url}/chat`, { threadId: randomUUID(), messages: [userMessage("mallory's")] }, { "x-user": "mallory" });
    const response = await fetch(`${server.url}/chat/threads`, { headers: { "x-user": "alice" } });
    expect(response.status).toBe(200);
    const { threads } = (await response.json()) as { threads: Array<{ threadId: string; lastActivityAt: string; firstUserMessage?: string }> };
    expect(threads.map((thread) => [thread.threadId, thread.firstUserMessage])).toEqual([
      [two, "second thread of alice"],
      [one, "first thread of alice"],
    ]);
    expect(Number.isNaN(Date.parse(threads[0]!.lastActivityAt))).toBe(false);
    const limited = (await (await fetch(`${server.url}/chat/threads?limit=1`, { headers: { "x-user": "alice" } })).json()) as { threads: unknown[] };
    expect(limited.threads).toHaveLength(1);
    expect((await fetch(`${server.url}/chat/threads?limit=9999`, { headers: { "x-user": "alice" } })).status).toBe(400);
    const open = await serve({ chat: { saveDir: saveDir() } });
    expect((await fetch(`${open.url}/chat/threads`)).status).toBe(403);
  });
});
