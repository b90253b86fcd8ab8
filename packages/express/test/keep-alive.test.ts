import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { KEEP_ALIVE_COMMENT } from "../src/index.js";
import { AgentProbe, ScriptedAgent, hangingScript, runFinished, runStarted, textMessage } from "./helpers/fake-agents.js";
import { clientWithMessage, postJson, runInputBody, serveAgents, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

/** Reads a streaming body until `predicate` holds for the text so far, then cancels it. */
async function readUntil(response: Response, predicate: (text: string) => boolean): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!predicate(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe("keep-alives and the first-event wait", () => {
  it("writes keep-alive comments on an idle stream", async () => {
    const server = await serveAgents(new ScriptedAgent(hangingScript), { keepAliveIntervalMs: 40 });
    const response = await postJson(server.url, runInputBody());
    const text = await readUntil(response, (soFar) => soFar.split(KEEP_ALIVE_COMMENT).length - 1 >= 2);

    expect(text).toMatch(/^(id: [^\n]*\n)?data: \{"type":"RUN_STARTED"/);
    expect(text.split(KEEP_ALIVE_COMMENT).length - 1).toBeGreaterThanOrEqual(2);
  });

  it("keeps HttpAgent's parser happy when keep-alives interleave with events", async () => {
    const slowStart = new ScriptedAgent((input, subscriber) => {
      subscriber.next(runStarted(input));
      const timer = setTimeout(() => {
        for (const event of textMessage("m", "late")) subscriber.next(event);
        subscriber.next(runFinished(input));
        subscriber.complete();
      }, 150);
      return () => clearTimeout(timer);
    });
    const server = await serveAgents(slowStart, { keepAliveIntervalMs: 20 });
    const result = await clientWithMessage(server.url, "wait").runAgent();
    expect(result.newMessages[0]).toMatchObject({ content: "late" });
  });

  it("starts the stream when the agent is silent past firstEventTimeoutMs", async () => {
    let release: () => void = () => undefined;
    const probe = new AgentProbe();
    const gated = new ScriptedAgent(
      (_input, subscriber) => {
        release = () => {
          subscriber.next({ type: EventType.RUN_ERROR, code: "THREAD_BUSY", message: "late refusal" } as never);
          subscriber.complete();
        };
      },
      { probe },
    );
    const server = await serveAgents(gated, { firstEventTimeoutMs: 30, keepAliveIntervalMs: 0 });

    // Headers arrive while the agent has emitted nothing.
    const response = await postJson(server.url, runInputBody());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    release();
    // Too late to become a 409: the refusal travels as an event.
    expect(await response.text()).toContain('"code":"THREAD_BUSY"');
  });
});
