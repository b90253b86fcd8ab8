// Every demo route driven by @ag-ui/client's HttpAgent against the real server on the emulator.
// HttpAgent runs its verifier on every event, so each completed run is also a protocol check.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, recordRun, say, toolMessage, userMessage, type RecordedRun } from "./support/agent-runs.js";
import { startDemoServer, type RunningDemoServer } from "./support/demo-server.js";
import { changeBackgroundTool, generateHaikuTool, generateTaskStepsTool } from "./support/dojo-frontend-tools.js";

let server: RunningDemoServer;

beforeAll(async () => {
  server = await startDemoServer();
});

afterAll(async () => {
  await server?.close();
  await expectNoChildProcesses();
});

function onlyCall(run: RecordedRun, name: string): { id: string; name: string; args: any } {
  const calls = run.toolCalls.filter((call) => call.name === name);
  expect(calls, `one ${name} call in ${run.types.join(",")}`).toHaveLength(1);
  return calls[0]!;
}

function interruptsOf(run: RecordedRun): any[] {
  expect(run.finished.type).toBe("RUN_FINISHED");
  expect(run.finished.outcome?.type).toBe("interrupt");
  return run.finished.outcome?.interrupts ?? [];
}

describe("agentic_chat", () => {
  it("greets with streamed text after a reasoning block", async () => {
    const agent = clientFor(server.url, "agentic_chat");
    const run = await say(agent, "Hello there", [changeBackgroundTool]);
    expect(run.types[0]).toBe("RUN_STARTED");
    expect(run.types.at(-1)).toBe("RUN_FINISHED");
    expect(run.types.indexOf("REASONING_START")).toBeGreaterThan(0);
    expect(run.types.indexOf("REASONING_START")).toBeLessThan(run.types.indexOf("TEXT_MESSAGE_START"));
    expect(run.types.filter((type) => type === "TEXT_MESSAGE_CONTENT").length).toBeGreaterThan(1);
    expect(run.text).toMatch(/^Hello! I am the agentic chat demo/);
  });

  it("calls the server's get_weather and continues with the page's change_background across two runs", async () => {
    const agent = clientFor(server.url, "agentic_chat");
    const weather = await say(agent, "What's the weather in Tokyo?", [changeBackgroundTool]);
    const call = onlyCall(weather, "get_weather");
    expect(call.args).toEqual({ location: "Tokyo" });
    expect(JSON.parse(weather.toolResults.get(call.id) ?? "null")).toMatchObject({ location: "Tokyo", unit: "°C", source: "simulated" });
    expect(weather.text).toContain("the card shows the details");

    const background = await say(agent, "Change the background to blue", [changeBackgroundTool]);
    const frontendCall = onlyCall(background, "change_background");
    expect(frontendCall.args).toEqual({ background: expect.stringContaining("linear-gradient") });
    // The frontend tool's call stays open: the run ends successfully and the page answers it.
    expect(background.toolResults.has(frontendCall.id)).toBe(false);
    expect(background.finished.outcome?.type ?? "success").toBe("success");

    agent.addMessage(toolMessage(frontendCall.id, JSON.stringify({ status: "success", message: "Background changed." })));
    const answered = await recordRun(agent, { tools: [changeBackgroundTool] });
    // This text follows the tool call in the scenario: the parked turn went on with the page's answer.
    expect(answered.text).toBe("Done: I asked the page to change the background; its answer is in the card above.");
  });
  it("reports a model failure as RUN_ERROR with a code, and the thread goes on afterwards", async () => {
    const agent = clientFor(server.url, "agentic_chat");
    agent.addMessage(userMessage("Please fail now"));
    const events: any[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) }).catch(() => undefined);
    const error = events.at(-1);
    expect(error.type).toBe("RUN_ERROR");
    expect(error.code).toMatch(/^MODEL_ERROR/);
    expect(error.message).toContain("The model is unavailable");
    const next = await say(agent, "Hello again");
    expect(next.text).toMatch(/^Hello!/);
  });
});

describe("backend_tool_rendering", () => {
  it("returns structured weather in TOOL_CALL_RESULT, for the question and for a follow-up place", async () => {
    const agent = clientFor(server.url, "backend_tool_rendering");
    const first = await say(agent, "What's the weather in San Francisco?");
    const call = onlyCall(first, "get_weather");
    expect(first.types.indexOf("TOOL_CALL_START")).toBeLessThan(first.types.indexOf("TOOL_CALL_RESULT"));
    const report = JSON.parse(first.toolResults.get(call.id) ?? "null");
    expect(report).toEqual({
      location: "San Francisco",
      temperature: expect.any(Number),
      feels_like: expect.any(Number),
      unit: "°C",
      conditions: expect.any(String),
      humidity: expect.any(Number),
      wind_speed: expect.any(Number),
      wind_unit: "km/h",
      source: "simulated",
    });

    const second = await say(agent, "And in New York?");
    expect(onlyCall(second, "get_weather").args).toEqual({ location: "New York" });
  });
});

describe("human_in_the_loop", () => {
  it("parks on generate_task_steps and carries out only the steps the user kept", async () => {
    const agent = clientFor(server.url, "human_in_the_loop");
    const proposal = await say(agent, "Plan a trip to Mars", [generateTaskStepsTool]);
    const call = onlyCall(proposal, "generate_task_steps");
    const steps = call.args.steps as { description: string; status: string }[];
    expect(steps.map((step) => step.description)).toEqual(["Build the rocket", "Train the crew", "Launch", "Land on Mars", "Set up the base"]);
    expect(steps.every((step) => step.status === "enabled")).toBe(true);
    expect(proposal.toolResults.has(call.id)).toBe(false);

    const answer = { accepted: true, steps: steps.map((step, index) => ({ ...step, status: index === 1 ? "disabled" : "enabled" })) };
    agent.addMessage(toolMessage(call.id, JSON.stringify(answer)));
    const executed = await recordRun(agent, { tools: [generateTaskStepsTool] });
    onlyCall(executed, "execute_plan");
    expect(executed.text).toContain("Executing 4 steps: Build the rocket; Launch; Land on Mars; Set up the base. Skipped 1 step the user switched off.");
  });

  it("does nothing when the plan is rejected", async () => {
    const agent = clientFor(server.url, "human_in_the_loop");
    const proposal = await say(agent, "Plan a birthday party", [generateTaskStepsTool]);
    const call = onlyCall(proposal, "generate_task_steps");
    agent.addMessage(toolMessage(call.id, JSON.stringify({ accepted: false, steps: call.args.steps })));
    const rejected = await recordRun(agent, { tools: [generateTaskStepsTool] });
    expect(rejected.text).toContain("The user rejected the plan, so nothing was done.");
  });
});

describe("tool_based_generative_ui", () => {
  it("calls generate_haiku with three lines in each language and finishes after the page's answer", async () => {
    const agent = clientFor(server.url, "tool_based_generative_ui");
    const run = await say(agent, "Write me a haiku about autumn", [generateHaikuTool]);
    const call = onlyCall(run, "generate_haiku");
    expect(call.args.japanese).toHaveLength(3);
    expect(call.args.english).toHaveLength(3);
    agent.addMessage(toolMessage(call.id, "Haiku generated!"));
    const followUp = await recordRun(agent, { tools: [generateHaikuTool] });
    expect(followUp.text).toBe("I hope you enjoy the haiku.");
  });
});

describe("shared_state", () => {
  const recipe = {
    title: "Make Your Recipe",
    skill_level: "Intermediate",
    cooking_time: "45 min",
    // A keyword of another rule, in the state: the emulator must match the user's words only.
    special_preferences: ["Vegetarian"],
    ingredients: [
      { icon: "🥕", name: "Carrots", amount: "3 large, grated" },
      { icon: "🌾", name: "All-Purpose Flour", amount: "2 cups" },
      { icon: "🥔", name: "Potatoes", amount: "12" },
    ],
    instructions: ["Preheat oven to 350°F (175°C)"],
  };

  it("sees the page's edits and streams its own back as a snapshot and deltas", async () => {
    const agent = clientFor(server.url, "shared_state", { state: { recipe } });
    const read = await say(agent, "Give me all the ingredients");
    onlyCall(read, "read_recipe");
    expect(read.text).toContain("Ingredients: Carrots (3 large, grated), All-Purpose Flour (2 cups), Potatoes (12).");

    // The user edits the title in the page; the next run carries it.
    agent.setState({ recipe: { ...recipe, title: "Potato bake" } });
    const improved = await say(agent, "Improve the recipe");
    const stateTypes = improved.types.filter((type) => type.startsWith("STATE_"));
    expect(stateTypes[0]).toBe("STATE_SNAPSHOT");
    expect(stateTypes.filter((type) => type === "STATE_DELTA").length).toBeGreaterThanOrEqual(2);
    expect(improved.types.indexOf("STATE_SNAPSHOT")).toBeLessThan(improved.types.indexOf("TOOL_CALL_RESULT"));
    const state = agent.state as { recipe: typeof recipe };
    expect(state.recipe.title).toBe("Potato bake");
    expect(state.recipe.ingredients.map((ingredient) => ingredient.name)).toEqual(["Carrots", "All-Purpose Flour", "Potatoes", "Garlic", "Fresh herbs"]);
    expect(state.recipe.instructions).toHaveLength(2);
    expect(improved.text).toBe("I added garlic and fresh herbs, and a step to finish with the herbs.");
  });
});

describe("agentic_generative_ui", () => {
  it("streams task progress as a STATE_SNAPSHOT then one STATE_DELTA per step, within the run", async () => {
    const agent = clientFor(server.url, "agentic_generative_ui");
    const run = await say(agent, "Plan a product launch");
    const stateEvents = run.events.filter((event) => event.type.startsWith("STATE_")) as any[];
    expect(stateEvents[0].type).toBe("STATE_SNAPSHOT");
    expect(stateEvents[0].snapshot.steps.map((step: { status: string }) => step.status)).toEqual(["pending", "pending", "pending", "pending"]);
    expect(stateEvents.slice(1).map((event) => event.type)).toEqual(["STATE_DELTA", "STATE_DELTA", "STATE_DELTA", "STATE_DELTA"]);
    expect(run.types.lastIndexOf("STATE_DELTA")).toBeLessThan(run.types.indexOf("RUN_FINISHED"));
    expect((agent.state as { steps: unknown[] }).steps).toEqual([
      { description: "Research the market", status: "completed" },
      { description: "Write the plan", status: "completed" },
      { description: "Build the prototype", status: "completed" },
      { description: "Launch", status: "completed" },
    ]);
    expect(run.text).toContain("Completed 4 steps");
  });
});

describe("tool_approval", () => {
  it("parks write_file on an approval interrupt; approve-with-edits writes the edited file, deny tells the model why", async () => {
    const agent = clientFor(server.url, "tool_approval");
    const asked = await say(agent, "Write a file called notes.txt saying hello");
    const [approval] = interruptsOf(asked);
    const call = onlyCall(asked, "write_file");
    expect(approval).toMatchObject({ reason: "tool_call", toolCallId: call.id, metadata: { toolName: "write_file", arguments: { path: "notes.txt", content: "hello" } } });
    expect(approval.responseSchema.properties).toHaveProperty("editedArgs");
    expect(agent.pendingInterrupts.map((pending) => pending.id)).toEqual([approval.id]);

    const approved = await recordRun(agent, {
      resume: [{ interruptId: approval.id, status: "resolved", payload: { approved: true, editedArgs: { path: "notes.txt", content: "hello, edited" } } }],
    });
    // The resumed run answers the original call; it does not start it again.
    expect(approved.toolCalls).toEqual([]);
    expect(JSON.parse(approved.toolResults.get(call.id) ?? "null")).toEqual({ ok: true, path: "notes.txt", bytes: 13 });
    expect(agent.pendingInterrupts).toEqual([]);
    const written = await findWrittenFile(server.demo.temporaryRoot, "notes.txt");
    expect(written).toBe("hello, edited");

    const again = await say(agent, "Write it again");
    const [second] = interruptsOf(again);
    const denied = await recordRun(agent, { resume: [{ interruptId: second.id, status: "resolved", payload: { approved: false, message: "Not today" } }] });
    expect(denied.text).toContain("Not today");
  });
});

describe("questions", () => {
  it("asks a multiple-choice question and resumes with the chosen option", async () => {
    const agent = clientFor(server.url, "questions");
    const asked = await say(agent, "Help me pick a programming language");
    const [question] = interruptsOf(asked);
    expect(question.reason).toBe("input_required");
    expect(question.metadata.questions[0]).toMatchObject({
      question: "Which language would you like to learn?",
      choices: [
        { id: "0", text: "TypeScript" },
        { id: "1", text: "Python" },
        { id: "2", text: "Go" },
      ],
    });
    // The dojo answers in the reference adapter's shape; the agent accepts it.
    const answered = await recordRun(agent, {
      resume: [{ interruptId: question.id, status: "resolved", payload: { responses: [{ selected_option_ids: ["1"], freeform_response: "", skipped: false }] } }],
    });
    expect(answered.text).toContain("You chose: Python");
  });

  it("asks for structured input with plan_weekend's form, and handles a cancelled question", async () => {
    const agent = clientFor(server.url, "questions");
    const asked = await say(agent, "Plan my weekend");
    const [form] = interruptsOf(asked);
    expect(form).toMatchObject({ reason: "input_required", toolCallId: onlyCall(asked, "plan_weekend").id, responseSchema: { required: ["budget", "currency"] } });
    const answered = await recordRun(agent, { resume: [{ interruptId: form.id, status: "resolved", payload: { budget: 200, currency: "EUR", outdoors: true } }] });
    expect(answered.text).toContain("Planning a weekend for 200 EUR outdoors.");

    const again = await say(agent, "Help me pick a programming language");
    const [question] = interruptsOf(again);
    const cancelled = await recordRun(agent, { resume: [{ interruptId: question.id, status: "cancelled" }] });
    expect(cancelled.finished.type).toBe("RUN_FINISHED");
    expect(agent.pendingInterrupts).toEqual([]);
  });
});

/** The write_file sandboxes are per conversation; the test does not know the conversation id, so it looks in each. */
async function findWrittenFile(temporaryRoot: string, name: string): Promise<string | undefined> {
  const root = join(temporaryRoot, "files", "tool_approval");
  for (const directory of await readdir(root)) {
    const content = await readFile(join(root, directory, name), "utf8").catch(() => undefined);
    if (content !== undefined) return content;
  }
  return undefined;
}
