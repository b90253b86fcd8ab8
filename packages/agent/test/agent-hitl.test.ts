import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { EventType, type BaseEvent, type ToolCallResultEvent, type ToolCallStartEvent } from "@ag-ui/core";
import { getState, setState } from "@ag-ui-antigravity/hitl";
import { describe, expect, it } from "vitest";
import { lastAssistantText, runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir } = useAgents();

/** The server tool the scenario calls for "call get_weather", with the handler a test needs. */
function weatherTool(handler: (args: Record<string, unknown>) => Promise<unknown>) {
  return {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    handler,
  };
}

describe("human in the loop through the agent", () => {
  it("runs a server tool that writes state before its result, and the model reads the result", async () => {
    const agent = makeAgent({
      serverTools: [
        weatherTool(async (args) => {
          setState({ ...(getState() as Record<string, unknown>), lastCity: args.city });
          return { city: args.city, temperature: 21, conditions: "sunny" };
        }),
      ],
    });
    agent.addMessage(user("Please call get_weather for Paris"));
    const { events } = await runWith(agent);
    const types = events.map((event) => event.type);
    const stateIndex = types.findIndex((type) => type === EventType.STATE_SNAPSHOT || type === EventType.STATE_DELTA);
    const resultIndex = types.indexOf(EventType.TOOL_CALL_RESULT);
    expect(types).toContain(EventType.TOOL_CALL_START);
    expect(stateIndex).toBeGreaterThan(-1);
    expect(resultIndex).toBeGreaterThan(stateIndex);
    expect(agent.state).toMatchObject({ lastCity: expect.any(String) });
    expect(lastAssistantText(agent)).toContain("sunny");
  });

  it("sends a server tool's state writes as one snapshot, then deltas against it; a key the client's patch guard refuses as a snapshot", async () => {
    const agent = makeAgent({
      serverTools: [
        weatherTool(async () => {
          setState({ cities: ["Paris"] });
          setState({ cities: ["Paris", "Rome"], unit: "C" });
          setState(JSON.parse('{"cities": ["Rome"], "__proto__": {"polluted": true}}') as Record<string, unknown>);
          setState({ cities: ["Rome"] });
          return { temperature: 21 };
        }),
      ],
    });
    agent.addMessage(user("Please call get_weather for Paris"));
    const { events } = await runWith(agent);
    const stateEvents = events.filter((event) => event.type === EventType.STATE_SNAPSHOT || event.type === EventType.STATE_DELTA);
    expect(stateEvents.map((event) => event.type)).toEqual([EventType.STATE_SNAPSHOT, EventType.STATE_DELTA, EventType.STATE_SNAPSHOT, EventType.STATE_SNAPSHOT]);
    expect(agent.state).toEqual({ cities: ["Rome"] });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("parks a frontend tool, ends the run, and resumes when a later run brings the tool result", async () => {
    const agent = makeAgent();
    const tools = [
      {
        name: "generate_haiku",
        description: "Show a haiku to the user",
        parameters: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
      },
    ];
    agent.addMessage(user("Use generate_haiku about autumn"));
    const first = await runWith(agent, { tools });
    expect(first.finished?.outcome).toBeUndefined();
    const call = agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((toolCall) => toolCall.function.name === "generate_haiku");
    expect(call).toBeDefined();
    expect(JSON.parse(call!.function.arguments)).toMatchObject({ topic: expect.any(String) });
    expect(agent.stats().sessions.parkedSessions).toBe(1);

    agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call!.id, content: "haiku shown and liked" });
    await runWith(agent, { tools });
    expect(lastAssistantText(agent)).toContain("haiku shown and liked");
    expect(agent.stats().sessions.parkedSessions).toBe(0);
  });

  it("turns ask_question into an interrupt whose answer, sent as a resume entry, reaches the model", async () => {
    const agent = makeAgent({ builtinTools: ["ask_question"] });
    agent.addMessage(user("ask me to choose between tea, coffee or juice"));
    const first = await runWith(agent);
    expect(first.finished?.outcome?.type).toBe("interrupt");
    const interrupt = first.finished?.outcome?.type === "interrupt" ? first.finished.outcome.interrupts[0] : undefined;
    expect(interrupt?.responseSchema).toBeDefined();
    const choices = (interrupt?.metadata as { questions?: Array<{ choices: Array<{ id: string; text: string }> }> } | undefined)?.questions?.[0]?.choices ?? [];
    const coffee = choices.find((choice) => choice.text.includes("coffee"));
    expect(coffee).toBeDefined();

    await runWith(agent, { resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { answers: [{ selected: [coffee!.id] }] } }] });
    expect(lastAssistantText(agent)).toContain("coffee");
  });

  it("gates a tool behind an approval interrupt; a denial reaches the model", async () => {
    const calls: unknown[] = [];
    const agent = makeAgent({
      toolApproval: true,
      serverTools: [
        {
          name: "write_note",
          description: "Writes a note to disk",
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          handler: async (args) => {
            calls.push(args);
            return { written: true };
          },
        },
      ],
    });
    agent.addMessage(user("call write_note with hello"));
    const first = await runWith(agent);
    expect(first.finished?.outcome?.type).toBe("interrupt");
    const interrupt = first.finished?.outcome?.type === "interrupt" ? first.finished.outcome.interrupts[0] : undefined;
    await runWith(agent, { resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: false, reason: "not today" } }] });
    expect(calls).toHaveLength(0);
    expect(lastAssistantText(agent)).toContain("not today");
  });
});

/** Every tool call the client saw across these runs, with how many results each got. */
function callCards(events: readonly BaseEvent[]): Map<string, { name: string; results: string[] }> {
  const cards = new Map<string, { name: string; results: string[] }>();
  for (const event of events) {
    if (event.type === EventType.TOOL_CALL_START) {
      const start = event as ToolCallStartEvent;
      cards.set(start.toolCallId, { name: start.toolCallName, results: [] });
    } else if (event.type === EventType.TOOL_CALL_RESULT) {
      const result = event as ToolCallResultEvent;
      cards.get(result.toolCallId)?.results.push(typeof result.content === "string" ? result.content : JSON.stringify(result.content));
    }
  }
  return cards;
}

// What the real harness sends about a call the user denied is not known (docs/protocol.md,
// "Assumptions and how we hedge them"): an error step, nothing, or a step of another shape. The
// card is closed, once, from the agent's own knowledge in every case.
describe.each(["error", "none", "done"])("a denied call's card, when the harness follows a denial with: %s", (deniedStep) => {
  const env = { ANTIGRAVITY_EMULATOR_DENIED_STEP: deniedStep };
  const deny = async (agent: ReturnType<typeof makeAgent>, first: Awaited<ReturnType<typeof runWith>>) => {
    const interrupt = first.finished?.outcome?.type === "interrupt" ? first.finished.outcome.interrupts[0] : undefined;
    expect(interrupt).toBeDefined();
    return runWith(agent, { resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: false, reason: "not today" } }] });
  };

  it("a server tool: closed with a result saying it did not run, and why", async () => {
    const calls: unknown[] = [];
    const agent = makeAgent({
      env,
      toolApproval: true,
      serverTools: [{ name: "write_note", description: "Writes a note", parameters: { type: "object", properties: { text: { type: "string" } } }, handler: (args) => void calls.push(args) }],
    });
    agent.addMessage(user("call write_note with hello"));
    const first = await runWith(agent);
    const second = await deny(agent, first);
    expect(second.finished).toBeDefined();
    expect(calls).toHaveLength(0);
    const cards = [...callCards([...first.events, ...second.events]).values()].filter((card) => card.name === "write_note");
    expect(cards).toHaveLength(1);
    expect(cards[0]!.results).toEqual(["Not run: not today"]);
  });

  it("a built-in tool a policy denies (no human asked): its card is closed by the end of the turn at the latest", async () => {
    const agent = makeAgent({ env, workspaceRoot: tempDir(), builtinTools: ["list_directory"], policies: [{ tool: "list_directory", decision: "deny", reason: "not here" }] });
    agent.addMessage(user("list the files"));
    const { events, finished } = await runWith(agent);
    expect(finished).toBeDefined();
    const cards = [...callCards(events).values()].filter((card) => card.name === "list_directory");
    expect(cards).toHaveLength(1);
    expect(cards[0]!.results).toHaveLength(1);
    if (deniedStep === "error") expect(cards[0]!.results[0]).toContain("not here");
    if (deniedStep === "none") expect(cards[0]!.results[0]).toContain("without reporting");
  });

  it("a built-in tool: closed with a result saying it did not run, and why", async () => {
    const workspaceRoot = tempDir();
    const agent = makeAgent({ env, toolApproval: true, workspaceRoot, builtinTools: ["list_directory"] });
    agent.addMessage(user("list the files"));
    const first = await runWith(agent);
    const second = await deny(agent, first);
    expect(second.finished).toBeDefined();
    const cards = [...callCards([...first.events, ...second.events]).values()].filter((card) => card.name === "list_directory");
    expect(cards).toHaveLength(1);
    expect(cards[0]!.results).toEqual(["Not run: not today"]);
  });
});

describe("subagents and server-tool context", () => {
  it("brackets a subagent with SUBAGENT_STARTED and SUBAGENT_FINISHED when its trajectory ends", async () => {
    const { fixturesDir } = await import("@ag-ui-antigravity/testing");
    const agent = makeAgent({
      model: `emulator:${join(fixturesDir, "scenarios", "subagent.json")}`,
      subagents: [{ name: "test_helper", description: "Helps with tests" }],
    });
    agent.addMessage(user("delegate this"));
    const { events } = await runWith(agent);
    const types = events.map((event) => event.type);
    const started = types.indexOf(EventType.SUBAGENT_STARTED);
    const finished = types.indexOf(EventType.SUBAGENT_FINISHED);
    expect(started).toBeGreaterThan(-1);
    expect(finished).toBeGreaterThan(started);
    const finishedEvent = events[finished] as { outcome?: { type: string } };
    expect(finishedEvent.outcome?.type).not.toBe("suspended");
  });

  // Whether the real harness runs subagents at once, and links a trajectory to its call when it
  // does, is not known (docs/protocol.md, "Assumptions and how we hedge them"): one subagent's
  // answer must never be shown as another's; when it cannot tell, it says so.
  it.each([
    ["one after another", "0"],
    ["at once", "1"],
  ])("never shows one subagent's answer under another's call: subagents run %s", async (_label, parallel) => {
    const { fixturesDir } = await import("@ag-ui-antigravity/testing");
    const warnings: string[] = [];
    const agent = makeAgent({
      model: `emulator:${join(fixturesDir, "scenarios", "subagents-parallel.json")}`,
      subagents: [
        { name: "alpha", description: "Answers the first part" },
        { name: "beta", description: "Answers the second part" },
      ],
      env: { ANTIGRAVITY_EMULATOR_PARALLEL_SUBAGENTS: parallel },
      logger: { warn: (_details: unknown, message: string) => void warnings.push(message) },
    });
    agent.addMessage(user("delegate both parts"));
    const { events } = await runWith(agent);
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    const calls = [...callCards(events).entries()].filter(([, card]) => card.name === "invoke_subagent");
    expect(calls).toHaveLength(2);
    const [alphaCallId, alphaCard] = calls[0]!;
    const [betaCallId, betaCard] = calls[1]!;
    expect(alphaCard.results).toHaveLength(1);
    expect(betaCard.results).toHaveLength(1);
    expect(alphaCard.results[0]).not.toContain("Beta");
    expect(betaCard.results[0]).not.toContain("Alpha");
    // The text a subagent run shows is never attributed to a run linked to the other call.
    const linkedTo = new Map<string, string>();
    for (const event of events) {
      const started = event as { type: string; subagentRunId?: string; parentToolCallId?: string };
      if (started.type === EventType.SUBAGENT_STARTED && started.parentToolCallId !== undefined && started.subagentRunId !== undefined) linkedTo.set(started.subagentRunId, started.parentToolCallId);
    }
    for (const event of events) {
      const content = event as { type: string; subagentRunId?: string; delta?: string };
      if (content.type !== EventType.TEXT_MESSAGE_CONTENT || content.subagentRunId === undefined) continue;
      const call = linkedTo.get(content.subagentRunId);
      if (call === alphaCallId) expect(content.delta).not.toMatch(/Beta/);
      if (call === betaCallId) expect(content.delta).not.toMatch(/Alpha/);
    }
    const unmatched = warnings.filter((message) => message.includes("did not say which invoke_subagent call started it"));
    if (parallel === "1") {
      expect(unmatched.length).toBeGreaterThan(0);
    } else {
      expect(unmatched).toEqual([]);
      expect(alphaCard.results[0]).toContain("Alpha answers first part");
      expect(betaCard.results[0]).toContain("Beta answers second part");
    }
  });

  it("tells a server tool whose thread it serves and that thread's workspace", async () => {
    const workspaceRoot = tempDir();
    const seen: Array<{ threadId: string; workspace?: string }> = [];
    const agent = makeAgent({
      workspaceRoot,
      serverTools: [
        {
          name: "where_am_i",
          description: "Reports the thread",
          parameters: { type: "object", properties: {} },
          handler: async (_args, context) => {
            seen.push({ threadId: context.threadId, ...(context.workspace === undefined ? {} : { workspace: context.workspace }) });
            return { ok: true };
          },
        },
      ],
    });
    agent.addMessage(user("call where_am_i"));
    await runWith(agent);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.threadId).toBe(agent.threadId);
    expect(seen[0]?.workspace?.startsWith(workspaceRoot)).toBe(true);
  });
});
