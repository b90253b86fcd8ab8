// The loose ends a user met, end to end: @ag-ui/client's HttpAgent (its verifier checks every
// event) against AntigravityAgents served by the Express binding, on the emulator's newest release.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { createAntigravityApp, type AntigravityApp } from "@ag-ui-antigravity/express";
import { expectNoChildProcesses, fixturesDir, listenOnEphemeralPort, type EphemeralServer } from "@ag-ui-antigravity/testing";
import { HttpAgent, type BaseEvent, type Message } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorBinaryPath } from "../src/harness/harness-choice.js";

let directory: string;
let agents: AntigravityAgent[];
let app: AntigravityApp;
let server: EphemeralServer;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "loose-ends-"));
  const harness = { path: emulatorBinaryPath() };
  const approve = new AntigravityAgent({
    harness,
    model: `emulator:${join(fixturesDir, "scenarios", "harness-features.json")}`,
    workspaces: [directory],
    builtinTools: ["list_directory"],
    toolApproval: true,
  });
  const demo = new AntigravityAgent({ harness, builtinTools: ["ask_question"], agentBehavior: "autonomous" });
  // Options its harness's release lacks: refused before any run starts.
  const old = new AntigravityAgent({ harness, harnessVersion: "0.1.10", budget: { maxToolCalls: 5 }, logger: {} });
  agents = [approve, demo, old];
  app = createAntigravityApp({ approve, demo, old }, { clientLimits: false });
  server = await listenOnEphemeralPort(app);
});

afterAll(async () => {
  await server?.close();
  await app?.close();
  await Promise.all((agents ?? []).map((agent) => agent.close()));
  await rm(directory, { recursive: true, force: true });
  await expectNoChildProcesses();
});

type AnyEvent = BaseEvent & Record<string, any>;

async function send(route: string, content: Message["content"]): Promise<{ agent: HttpAgent; events: AnyEvent[] }> {
  const agent = new HttpAgent({ url: `${server.url}/${route}`, threadId: `thread-${randomUUID()}` });
  agent.addMessage({ id: randomUUID(), role: "user", content } as Message);
  const events: AnyEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event as AnyEvent) }).catch(() => undefined);
  return { agent, events };
}

describe("loose ends, over HTTP", () => {
  it("an approval of a built-in call carries the id of the TOOL_CALL_START the client holds", async () => {
    const { agent, events } = await send("approve", "use many tools");
    const card = events.find((event) => event.type === "TOOL_CALL_START" && event["toolCallName"] === "list_directory");
    const interrupt = events.at(-1)?.["outcome"]?.interrupts?.[0];
    expect(interrupt).toMatchObject({ reason: "tool_call", toolCallId: card?.["toolCallId"] });
    expect(agent.pendingInterrupts.map((pending) => pending.toolCallId)).toEqual([card?.["toolCallId"]]);
  });

  it("audio and video attachments reach the model as media, not as notes that it could not see them", async () => {
    const { events } = await send("demo", [
      { type: "text", text: "hear and watch this" },
      { type: "audio", source: { type: "data", value: "UklGRg==", mimeType: "audio/wav" } },
      { type: "video", source: { type: "data", value: "AAAAGGZ0eXA=", mimeType: "video/mp4" } },
    ]);
    const text = events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").map((event) => event["delta"]).join("");
    expect(text).toContain('You said: "hear and watch this"');
    expect(text).not.toContain("attached");
  });

  it("an option the harness's release lacks refuses every run before it starts: HTTP 503, CONFIG_INVALID naming it", async () => {
    const response = await fetch(`${server.url}/old`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [{ id: randomUUID(), role: "user", content: "hi" }], tools: [], context: [], state: {}, forwardedProps: {} }),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining("budget needs harness 0.1.11 or newer") });
  });

  it("an autonomous agent decides for itself instead of asking", async () => {
    const { agent, events } = await send("demo", "Ask me to choose between tea, coffee or juice");
    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    expect(events.at(-1)?.["outcome"]).toBeUndefined();
    expect(agent.messages.at(-1)?.content).toContain("You chose: tea");
  });
});
