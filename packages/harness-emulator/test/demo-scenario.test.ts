// The built-in `demo` scenario, as the demo apps rely on it (see README "The demo scenario").
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundViolations, reapLeaks, toolCallArguments, spawnEmulator, type EmulatorProcess, type Message, type RawConversation } from "./support/emulator-driver.js";

let emulator: EmulatorProcess;
const conversations: RawConversation[] = [];
const workspace = mkdtempSync(join(tmpdir(), "demo-workspace-"));
writeFileSync(join(workspace, "notes.md"), "# notes\n");

const haikuSchema = { type: "object", properties: { japanese: { type: "array", items: { type: "string" } }, english: { type: "array", items: { type: "string" } } }, required: ["japanese", "english"] };
const planSchema = {
  type: "object",
  properties: { steps: { type: "array", items: { type: "object", properties: { description: { type: "string" }, status: { type: "string", enum: ["enabled", "disabled"] } }, required: ["description", "status"] } } },
  required: ["steps"],
};
const tools = [
  { name: "get_weather", description: "Weather for a city", parametersJsonSchema: JSON.stringify({ type: "OBJECT", properties: { location: { type: "STRING" } }, required: ["location"] }) },
  { name: "generate_haiku", description: "Show a haiku", parametersJsonSchema: JSON.stringify(haikuSchema) },
  { name: "confirm_plan", description: "Plan of steps for the user to approve", parametersJsonSchema: JSON.stringify(planSchema) },
  { name: "write_note", description: "Writes a note", parametersJsonSchema: JSON.stringify({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }) },
];
const config = {
  models: [{ name: "gemini-3.6-flash", types: ["MODEL_TYPE_TEXT"] }],
  tools,
  workspaces: [{ filesystemWorkspace: { directory: workspace } }],
  policyConfig: { rules: [{ tool: "write_note", name: "approve_writes", decision: "POLICY_DECISION_ASK_USER" }] },
};

async function open(extra: Record<string, unknown> = {}): Promise<RawConversation> {
  const conversation = await emulator.connect();
  conversations.push(conversation);
  await conversation.init({ ...config, ...extra });
  return conversation;
}

function answer(turn: Message[]): string {
  return turn.filter((message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].source === "SOURCE_MODEL" && message["stepUpdate"].target === "TARGET_USER").at(-1)?.["stepUpdate"].text ?? "";
}

async function turnOf(conversation: RawConversation, text: string): Promise<Message[]> {
  conversation.say(text);
  return conversation.untilIdle();
}

beforeAll(async () => {
  emulator = await spawnEmulator();
});

afterAll(async () => {
  await Promise.all(conversations.map((conversation) => conversation.close()));
  expect((await emulator.stop()).code).toBe(0);
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

describe("demo scenario", () => {
  it("echoes any other message with a thinking span and several text deltas", async () => {
    const conversation = await open();
    conversation.say("Good morning!");
    const turn = await conversation.untilIdle();
    expect(turn.some((message) => message["stepUpdate"]?.thinkingDelta)).toBe(true);
    expect(turn.filter((message) => message["stepUpdate"]?.textDelta).length).toBeGreaterThan(2);
    expect(answer(turn)).toContain('You said: "Good morning!"');
  });

  it("calls a named tool with schema-valid arguments filled from the message and replies with the result", async () => {
    const conversation = await open();
    const ajv = new Ajv({ strict: false });
    conversation.say("What's the weather in Tokyo? Use get_weather.");
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    expect(call["toolCall"].name).toBe("get_weather");
    expect(toolCallArguments(call["toolCall"])).toEqual({ location: "Tokyo" });
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: JSON.stringify({ temperature: 18, conditions: "clear" }) } });
    expect(answer(await conversation.untilIdle())).toContain('{"temperature":18,"conditions":"clear"}');
    for (const [name, schema] of [
      ["generate_haiku", haikuSchema],
      ["confirm_plan", planSchema],
    ] as const) {
      conversation.say(`please ${name} about autumn`);
      const frontendCall = await conversation.next((message) => message["toolCall"] !== undefined);
      expect(ajv.validate(schema, toolCallArguments(frontendCall["toolCall"]))).toBe(true);
      conversation.send({ toolResponse: { id: frontendCall["toolCall"].id, responseJson: JSON.stringify({ result: "shown" }) } });
      expect(answer(await conversation.untilIdle())).toContain("It returned: shown");
    }
  });

  it("gates a write-capable tool behind an ASK_USER policy confirmation", async () => {
    const conversation = await open();
    conversation.say('write_note text: "buy milk"');
    const waiting = await conversation.next((message) => message["stepUpdate"]?.state === "STATE_WAITING_FOR_USER");
    expect(waiting["stepUpdate"].toolConfirmationRequest).toEqual({});
    conversation.send({ toolConfirmation: { trajectoryId: waiting["stepUpdate"].trajectoryId, stepIndex: waiting["stepUpdate"].stepIndex, accepted: true } });
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    expect(toolCallArguments(call["toolCall"])).toEqual({ text: "buy milk" });
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: '{"result": "saved"}' } });
    expect(answer(await conversation.untilIdle())).toContain("It returned: saved");
  });

  it("lists the first workspace when asked to list files, only if list_directory is enabled", async () => {
    const conversation = await open();
    conversation.say("Can you list the files?");
    const turn = await conversation.untilIdle();
    expect(turn.some((message) => message["stepUpdate"]?.listDirectory?.directoryPath === workspace)).toBe(true);
    expect(answer(turn)).toContain("notes.md");
    const disabled = await open({ harnessSideTools: { listDir: { enabled: false } } });
    disabled.say("Can you list the files?");
    const echoed = await disabled.untilIdle();
    expect(echoed.some((message) => message["stepUpdate"]?.listDirectory)).toBe(false);
  });

  it("asks a question with choices taken from the message and names the answer (an INTERACTIVE agent)", async () => {
    const conversation = await open({ agentBehavior: "AGENT_BEHAVIOR_INTERACTIVE" });
    conversation.say("ask me to choose between tea, coffee or juice");
    const waiting = await conversation.next((message) => message["stepUpdate"]?.state === "STATE_WAITING_FOR_USER");
    expect(waiting["stepUpdate"].questionsRequest.questions[0].multipleChoice.choices).toEqual(["tea", "coffee", "juice"]);
    conversation.send({
      questionResponse: { trajectoryId: waiting["stepUpdate"].trajectoryId, stepIndex: waiting["stepUpdate"].stepIndex, response: { answers: [{ multipleChoiceAnswer: { selectedChoiceIndices: [1] } }] } },
    });
    expect(answer(await conversation.untilIdle())).toBe("You chose: coffee.");
  });

  it("does not ask when autonomous, the default from 0.1.11: it picks the first choice itself", async () => {
    for (const extra of [{}, { agentBehavior: "AGENT_BEHAVIOR_AUTONOMOUS" }, { agentBehavior: "AGENT_BEHAVIOR_MINIMAL" }]) {
      const conversation = await open(extra);
      const turn = await turnOf(conversation, "ask me to choose between tea, coffee or juice");
      expect(turn.some((message) => message["stepUpdate"]?.questionsRequest !== undefined)).toBe(false);
      expect(answer(turn)).toBe("You chose: tea.");
    }
  });

  it("answers the newest message of a rebuilt transcript, not a tool an earlier turn named", async () => {
    const conversation = await open();
    const turn = await turnOf(conversation, "user: please get_weather for Oslo\n\nassistant: It is cold.\n\nuser: thanks, bye");
    expect(turn.some((message) => message["toolCall"] !== undefined)).toBe(false);
    expect(answer(turn)).toContain("You said:");
  });

  it("recaps the conversation's earlier user messages, in order and quoted", async () => {
    const conversation = await open();
    expect(answer(await turnOf(conversation, "recap"))).toBe("Recap of your earlier messages:\n(none)");
    await turnOf(conversation, "My name is Ada.");
    conversation.send({ automatedTrigger: "daily check" });
    await conversation.untilIdle();
    await turnOf(conversation, 'I like "quotes".');
    const expected = 'Recap of your earlier messages:\n1. "recap"\n2. "My name is Ada."\n3. "I like \\"quotes\\"."';
    expect(answer(await turnOf(conversation, "Please recap what I said."))).toBe(expected);
  });

  it("acknowledges automated triggers", async () => {
    const conversation = await open();
    conversation.say("first");
    await conversation.untilIdle();
    conversation.send({ automatedTrigger: "daily check" });
    expect(answer(await conversation.untilIdle())).toBe('Trigger received: "daily check".');
  });
});
