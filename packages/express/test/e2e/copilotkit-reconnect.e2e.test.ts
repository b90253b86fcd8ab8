// AG-UI reconnect through CopilotKit's own client (@copilotkit/core from npm): its runtime agent
// talks to `<runtimeUrl>/agent/<id>/run` and `/connect`, which this binding serves under
// `path: "/agent"`. A page whose connection dies mid-turn is reloaded; CopilotKitCore.connectAgent
// brings the run back, and the transcript ends as an uninterrupted run's.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { CopilotKitCore, ProxiedCopilotRuntimeAgent } from "@copilotkit/core";
import { expectNoChildProcesses, fixturesDir } from "@ag-ui-antigravity/testing";
import { from, lastValueFrom, toArray } from "rxjs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type E2EServer, startE2EServer } from "./e2e-harness.js";

const model = `emulator:${join(fixturesDir, "scenarios", "reconnect.json")}`;

let server: E2EServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await expectNoChildProcesses();
});

/** The transcript with ids replaced by their order of appearance: runs on two threads compare equal. */
function shape(messages: unknown): unknown {
  const ids = new Map<string, string>();
  const rename = (value: string): string => {
    if (!ids.has(value)) ids.set(value, `#${ids.size}`);
    return ids.get(value)!;
  };
  return JSON.parse(JSON.stringify(messages), (key, value: unknown) => (["id", "toolCallId", "messageId"].includes(key) && typeof value === "string" ? rename(value) : value));
}

/**
 * `underlying`, but its response bodies end after `events` SSE messages, as when a proxy cuts the
 * stream (an early end, not an error: `@ag-ui/client` 0.0.59 rethrows a body error from its
 * reader's cancel as an unhandled rejection).
 */
function dyingAfter(events: number, underlying: PageFetch): PageFetch {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const response = await underlying(url, init);
    if (response.body === null) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += decoder.decode(value, { stream: true }).split("\n\n").length - 1;
        if (seen >= events) {
          await reader.cancel();
          controller.close();
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** One page of the app: a CopilotKitCore with CopilotKit's runtime agent for `chat` on a thread. */
type PageFetch = ProxiedCopilotRuntimeAgent["fetch"];

function page(runtimeUrl: string, threadId: string, network: (runtimeFetch: PageFetch) => PageFetch = (runtimeFetch) => runtimeFetch) {
  const agent = new ProxiedCopilotRuntimeAgent({ runtimeUrl, agentId: "chat", transport: "rest", runtimeMode: "sse" });
  agent.threadId = threadId;
  const core = new CopilotKitCore({ agents__unsafe_dev_only: { chat: agent } });
  // The core gives its agents its own fetch; the page's network sits under it.
  agent.fetch = network(agent.fetch);
  return { core, agent };
}

/** Every event the agent sees, for the verifier of the client this repository is built on. */
function recordEvents(agent: ProxiedCopilotRuntimeAgent): BaseEvent[] {
  const events: BaseEvent[] = [];
  agent.subscribe({ onEvent: ({ event }) => void events.push(event as unknown as BaseEvent) });
  return events;
}

const verified = (events: readonly BaseEvent[]) => lastValueFrom(from(events).pipe(verifyEvents(), toArray()));

describe("@copilotkit/core", () => {
  it("kill the page's connection mid-turn, reload, connectAgent: the run is replayed and finished, the transcript identical to an uninterrupted run", async () => {
    server = await startE2EServer({ chat: { model, reconnect: { onDisconnect: "continue" } } }, { path: "/agent" });
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
    expect(shape(reloaded.agent.messages)).toEqual(shape(reference.agent.messages));
    expect(String(reloaded.agent.messages.at(-1)?.content)).toContain("come back for the rest of it");

    // Reloaded again after the end: the thread comes back as a snapshot, still identical.
    const later = page(runtimeUrl, threadId);
    const laterEvents = recordEvents(later.agent);
    await later.core.connectAgent({ agent: later.agent });
    await verified(laterEvents);
    expect(laterEvents.map((event) => event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    expect(shape(later.agent.messages)).toEqual(shape(reference.agent.messages));
  });
});
