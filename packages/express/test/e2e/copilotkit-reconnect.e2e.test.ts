// AG-UI reconnect through CopilotKit's own client (@copilotkit/core from npm): its runtime agent
// talks to `<runtimeUrl>/agent/<id>/run` and `/connect`, which this binding serves under
// `path: "/agent"`. A page whose connection dies mid-turn is reloaded; CopilotKitCore.connectAgent
// brings the run back, and the transcript ends as an uninterrupted run's.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { CopilotKitCore, ProxiedCopilotRuntimeAgent } from "@copilotkit/core";
import { fixturesDir } from "@ag-ui-antigravity/testing";
import type { Request } from "express";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { cutAfterEvents, transcriptShape, useE2EServers } from "./e2e-harness.js";

const model = `emulator:${join(fixturesDir, "scenarios", "reconnect.json")}`;

const startServer = useE2EServers();

/**
 * `underlying`, but its response bodies end after `events` SSE messages, as when a proxy cuts the
 * stream (an early end, not an error: `@ag-ui/client` 0.0.59 rethrows a body error from its
 * reader's cancel as an unhandled rejection).
 */
function dyingAfter(events: number, underlying: PageFetch): PageFetch {
  return async (url: string, init: RequestInit): Promise<Response> => cutAfterEvents(await underlying(url, init), events, (controller) => controller.close());
}

/** One page of the app: a CopilotKitCore with CopilotKit's runtime agent for `chat` on a thread. */
type PageFetch = ProxiedCopilotRuntimeAgent["fetch"];

function page(runtimeUrl: string, threadId: string, network: (runtimeFetch: PageFetch) => PageFetch = (runtimeFetch) => runtimeFetch) {
  const agent = new ProxiedCopilotRuntimeAgent({ runtimeUrl, agentId: "chat", transport: "rest", runtimeMode: "sse" });
  agent.threadId = threadId;
  const core = new CopilotKitCore({ agents__unsafe_dev_only: { chat: agent } });
  // The core gives its agents its own fetch; the page's network sits under it. The page signs in
  // (a reloaded page knows only its thread id: without a principal, connect would not serve it).
  const runtimeFetch = agent.fetch;
  agent.fetch = network((url, init) => runtimeFetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), "x-user": "visitor" } }));
  return { core, agent };
}

const authorize = (request: Request) => request.header("x-user") ?? null;

/** Every event the agent sees, for the verifier of the client this repository is built on. */
function recordEvents(agent: ProxiedCopilotRuntimeAgent): BaseEvent[] {
  const events: BaseEvent[] = [];
  agent.subscribe({ onEvent: ({ event }) => void events.push(event as unknown as BaseEvent) });
  return events;
}

const verified = (events: readonly BaseEvent[]) => lastValueFrom(from(events).pipe(verifyEvents(), toArray()));

describe("@copilotkit/core", () => {
  it("kill the page's connection mid-turn, reload, connectAgent: the run is replayed and finished, the transcript identical to an uninterrupted run", async () => {
    const server = await startServer({ chat: { model, reconnect: { onDisconnect: "continue" } } }, { path: "/agent", authorize });
    const runtimeUrl = server.url;

    const reference = page(runtimeUrl, randomUUID());
    const referenceEvents = recordEvents(reference.agent);
    reference.agent.addMessage({ id: randomUUID(), role: "user", content: "long turn please" });
    await reference.core.runAgent({ agent: reference.agent });
    expect(referenceEvents.at(-1)?.type).toBe("RUN_FINISHED");
    await verified(referenceEvents);

    const threadId = randomUUID();
    const first = page(runtimeUrl, threadId, (runtimeFetch) => dyingAfter(12, runtimeFetch));
    const firstEvents = recordEvents(first.agent);
    first.agent.addMessage({ id: randomUUID(), role: "user", content: "long turn please" });
    await first.core.runAgent({ agent: first.agent }).catch(() => undefined);
    expect(firstEvents.some((event) => event.type === "TEXT_MESSAGE_CONTENT")).toBe(true);
    expect(firstEvents.some((event) => event.type === "RUN_FINISHED")).toBe(false);

    // The reloaded page knows only its thread id.
    const reloaded = page(runtimeUrl, threadId);
    const reloadedEvents = recordEvents(reloaded.agent);
    await reloaded.core.connectAgent({ agent: reloaded.agent });
    expect(reloadedEvents[0]?.type).toBe("RUN_STARTED");
    expect(reloadedEvents.at(-1)?.type).toBe("RUN_FINISHED");
    await verified(reloadedEvents);
    expect(transcriptShape(reloaded.agent.messages)).toEqual(transcriptShape(reference.agent.messages));
    expect(String(reloaded.agent.messages.at(-1)?.content)).toContain("come back for the rest of it");

    // Reloaded again after the end: the thread comes back as a snapshot, still identical.
    const later = page(runtimeUrl, threadId);
    const laterEvents = recordEvents(later.agent);
    await later.core.connectAgent({ agent: later.agent });
    await verified(laterEvents);
    expect(laterEvents.map((event) => event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    expect(transcriptShape(later.agent.messages)).toEqual(transcriptShape(reference.agent.messages));
  });
});
