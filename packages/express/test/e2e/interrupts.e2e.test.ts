import { describe, expect, it } from "vitest";
import { type E2EServer, ThreadClient, useE2EServers, writeNote } from "./e2e-harness.js";

const startServer = useE2EServers();

type QuestionMetadata = { questions: Array<{ choices: Array<{ id: string; text: string }> }> };

async function askTeaOrCoffee(server: E2EServer): Promise<ThreadClient> {
  const client = new ThreadClient(`${server.url}/questions`);
  await client.say("ask me to pick between tea, coffee or juice");
  expect(client.interrupts).toHaveLength(1);
  return client;
}

function choiceId(client: ThreadClient, text: string): string {
  const metadata = client.interrupts[0]!.metadata as QuestionMetadata;
  const choice = metadata.questions[0]!.choices.find((candidate) => candidate.text.includes(text));
  expect(choice).toBeDefined();
  return choice!.id;
}

describe("question interrupts answered in every shape the ecosystem sends", () => {
  it("through RunAgentInput.resume", async () => {
    const server = await startServer({ questions: { builtinTools: ["ask_question"] } });
    const client = await askTeaOrCoffee(server);
    const interrupt = client.interrupts[0]!;
    expect(interrupt.responseSchema).toMatchObject({ type: "object" });
    expect(interrupt.expiresAt).toBeDefined();
    await client.run({ resume: [{ interruptId: interrupt.id, status: "resolved", payload: { answers: [{ selected: [choiceId(client, "juice")] }] } }] });
    expect(client.lastAssistantText()).toContain("juice");
  });

  const commandShapes: Array<[string, (interruptId: string, choice: string) => unknown]> = [
    ["a bare value", (_interruptId, choice) => ({ answers: [{ selected: [choice] }] })],
    ["{ interruptId, payload, status }", (interruptId, choice) => ({ interruptId, status: "resolved", payload: { answers: [{ selected: [choice] }] } })],
    ["CopilotKit's { resume, interruptEvent }", (interruptId, choice) => ({ resume: { answers: [{ selected: [choice] }] }, interruptEvent: { id: interruptId } })],
  ];
  for (const [shape, command] of commandShapes) {
    it(`through forwardedProps.command as ${shape}`, async () => {
      const server = await startServer({ questions: { builtinTools: ["ask_question"] } });
      const client = await askTeaOrCoffee(server);
      const interruptId = client.interrupts[0]!.id;
      // The client library refuses a run that leaves an interrupt unaddressed; a command is an answer
      // it does not know about, so it is cleared first, as CopilotKit does.
      client.agent.pendingInterrupts = [];
      await client.run({ forwardedProps: { command: command(interruptId, choiceId(client, "coffee")) } });
      expect(client.runError).toBeUndefined();
      expect(client.lastAssistantText()).toContain("coffee");
    });
  }

  it("refuses an answer that does not validate, and the interrupt stays parked", async () => {
    const server = await startServer({ questions: { builtinTools: ["ask_question"] } });
    const client = await askTeaOrCoffee(server);
    const interruptId = client.interrupts[0]!.id;
    const tea = choiceId(client, "tea");
    await expect(client.run({ resume: [{ interruptId, status: "resolved", payload: { answers: [{ selected: ["no-such-choice"] }] } }] })).rejects.toThrow(/400|INVALID_ANSWER/);
    await client.run({ resume: [{ interruptId, status: "resolved", payload: { answers: [{ selected: [tea] }] } }] });
    expect(client.lastAssistantText()).toContain("tea");
  });
});

describe("tool approval", () => {

  it("approves: the tool runs with the model's arguments and the pending call was shown first", async () => {
    const calls: unknown[] = [];
    const server = await startServer({ approval: writeNote(calls) });
    const client = new ThreadClient(`${server.url}/approval`);
    await client.say("call write_note with text: hello");
    const interrupt = client.interrupts[0]!;
    expect(interrupt.toolCallId).toBeDefined();
    expect(interrupt.metadata).toMatchObject({ toolName: "write_note" });
    const shownCall = client.agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((call) => call.id === interrupt.toolCallId);
    expect(shownCall?.function.name).toBe("write_note");
    await client.run({ resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] });
    expect(calls).toEqual([{ text: "hello" }]);
    expect(client.lastAssistantText()).toContain("hello");
  });

  it("denies with a reason the model reads", async () => {
    const calls: unknown[] = [];
    const server = await startServer({ approval: writeNote(calls) });
    const client = new ThreadClient(`${server.url}/approval`);
    await client.say("call write_note with text: hello");
    await client.run({ resume: [{ interruptId: client.interrupts[0]!.id, status: "resolved", payload: { approved: false, reason: "not on a Sunday" } }] });
    expect(calls).toEqual([]);
    expect(client.lastAssistantText()).toContain("not on a Sunday");
    // The card of the refused call gets its result too: it never waits forever.
    const refused = client.agent.messages.find((message) => message.role === "tool");
    expect(String(refused?.content)).toContain("not on a Sunday");
  });

  it("approves with edited arguments", async () => {
    const calls: unknown[] = [];
    const server = await startServer({ approval: writeNote(calls) });
    const client = new ThreadClient(`${server.url}/approval`);
    await client.say("call write_note with text: hello");
    await client.run({ resume: [{ interruptId: client.interrupts[0]!.id, status: "resolved", payload: { approved: true, editedArgs: { text: "edited by the user" } } }] });
    expect(calls).toEqual([{ text: "edited by the user" }]);
    expect(client.lastAssistantText()).toContain("edited by the user");
  });
});
