// Clients that go away. packages/express/test/e2e/faults.e2e.test.ts checks that the next run after
// a mid-stream abort works; these check that nothing was lost: the same session and conversation
// carry on, and a parked tool call survives its client.
import { randomUUID } from "node:crypto";
import { EventType, type Tool } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { reliabilityModel, ThreadClient, userMessage, useStacks, waitFor } from "../support/stack.js";

const { startStack } = useStacks();

const pickColor: Tool = {
  name: "pick_color",
  description: "Asks the user to pick a colour in the UI",
  parameters: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
};

describe("client disconnects", () => {
  it("mid-stream: the run is cancelled, the session and its conversation survive, the thread goes on", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } });
    const agent = stack.agents.chat!;
    const client = new ThreadClient(`${stack.url}/chat`);
    await client.say("first");
    const acquiresBefore = (await agent.poolMetrics()).totals.acquires;

    client.agent.addMessage(userMessage("long turn please"));
    const running = client.run().catch((error: unknown) => error);
    await waitFor(() => client.has(EventType.TEXT_MESSAGE_CONTENT), { what: "the turn to stream" });
    client.agent.abortRun();
    await running;
    await waitFor(() => stack!.logger.matching(/run cancelled by the client/).length === 1, { what: "the server to see the disconnect" });
    expect(agent.stats().sessions).toMatchObject({ liveSessions: 1, busySessions: 0 });

    await client.say("still there?");
    expect(client.runError).toBeUndefined();
    expect(client.lastAssistantText()).toBe("ok: still there?");
    // Same session, same harness conversation: nothing was rebuilt or reopened.
    const metrics = await agent.poolMetrics();
    expect(metrics.totals.acquires).toBe(acquiresBefore);
    expect(metrics.totals.crashes).toBe(0);
    expect(stack.logger.matching(/conversation was lost|thread resumed its conversation/)).toHaveLength(0);
  });

  it("while a frontend tool is parked: a later run with the tool result (from a new client object) resumes the same turn", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } });
    const agent = stack.agents.chat!;
    const threadId = randomUUID();
    const first = new ThreadClient(`${stack.url}/chat`, { threadId });
    first.agent.addMessage(userMessage("pick a colour"));
    const running = first.run({ tools: [pickColor] }).catch((error: unknown) => error);
    // Leave the moment the tool call is complete: the turn is parked on the UI.
    await waitFor(() => first.has(EventType.TOOL_CALL_END), { what: "the tool call" });
    first.agent.abortRun();
    await running;
    const call = first.events.find((event) => event.type === EventType.TOOL_CALL_START) as { toolCallId: string; toolCallName: string } | undefined;
    expect(call?.toolCallName).toBe("pick_color");
    await waitFor(() => agent.stats().sessions.busySessions === 0, { what: "the run to end on the server" });
    expect(agent.stats().sessions.parkedSessions).toBe(1);

    // Some time later the UI answers, from a fresh client that replays the transcript.
    const later = new ThreadClient(`${stack.url}/chat`, { threadId });
    later.agent.setMessages([
      ...first.agent.messages,
      { id: randomUUID(), role: "tool", toolCallId: call!.toolCallId, content: "teal" },
    ]);
    await later.run({ tools: [pickColor] });
    expect(later.runError).toBeUndefined();
    expect(later.lastAssistantText()).toBe("You picked teal.");
    expect(agent.stats().sessions.parkedSessions).toBe(0);
    expect((await agent.poolMetrics()).totals.acquires).toBe(1);
  });
});
