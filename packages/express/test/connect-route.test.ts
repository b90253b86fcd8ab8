import { type BaseEvent, EventType } from "@ag-ui/core";
import { Observable } from "rxjs";
import { describe, expect, it } from "vitest";
import { ScriptedAgent, echoScript } from "./helpers/fake-agents.js";
import { closeServersAfterEach, parseSseFrames, postJson, readJson, runInputBody, serveAgents } from "./helpers/server.js";

closeServersAfterEach();

/** An agent whose connect replays a fixed run: what the binding does with ids and Last-Event-ID. */
class ReplayingAgent extends ScriptedAgent {
  override clone(): ReplayingAgent {
    return new ReplayingAgent(this.script, { probe: this.probe });
  }

  protected override connect(): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      subscriber.next({ type: EventType.RUN_STARTED, threadId: "t", runId: "r" } as BaseEvent);
      subscriber.next({ type: EventType.TEXT_MESSAGE_START, messageId: "m", role: "assistant" } as BaseEvent);
      subscriber.next({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "one" } as BaseEvent);
      subscriber.next({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: "two" } as BaseEvent);
      subscriber.next({ type: EventType.TEXT_MESSAGE_END, messageId: "m" } as BaseEvent);
      subscriber.next({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" } as BaseEvent);
      subscriber.complete();
    });
  }
}

describe("the connect route", () => {
  it("answers 501 CONNECT_NOT_SUPPORTED for an agent without connect, before running anything", async () => {
    const agent = new ScriptedAgent(echoScript);
    const server = await serveAgents({ chat: agent });
    const response = await postJson(`${server.url}/chat/connect`, runInputBody());
    expect(response.status).toBe(501);
    expect((await readJson(response)).error.code).toBe("CONNECT_NOT_SUPPORTED");
    expect(agent.probe.subscriptions).toBe(0);
  });

  it("numbers events per run and sends only those after Last-Event-ID", async () => {
    const server = await serveAgents({ chat: new ReplayingAgent(echoScript) });
    const whole = await (await postJson(`${server.url}/chat/connect`, runInputBody())).text();
    expect([...whole.matchAll(/^id: (.*)$/gm)].map((match) => match[1])).toEqual(["r:0", "r:1", "r:2", "r:3", "r:4", "r:5:end"]);
    const rest = await postJson(`${server.url}/chat/connect`, runInputBody(), { "last-event-id": "r:2" });
    expect(parseSseFrames(await rest.text()).map((event: { type: string; delta?: string }) => event.delta ?? event.type)).toEqual(["two", EventType.TEXT_MESSAGE_END, EventType.RUN_FINISHED]);
  });

  it("numbers the events of a plain run too, so a cut run can be resumed", async () => {
    const server = await serveAgents({ chat: new ScriptedAgent(echoScript) });
    const text = await (await postJson(`${server.url}/chat`, runInputBody({ runId: "run-7" }))).text();
    expect(text).toMatch(/^id: run-7:0$/m);
  });
});
