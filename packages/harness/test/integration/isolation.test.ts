import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Conversation, NormalizedStep } from "../../src/index.js";
import { EmulatorFixture, FLOWS_MODEL } from "../support/emulator.js";

const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

async function runIsolated(count: number): Promise<void> {
  const harness = await fixture.start();
  const handled: string[][] = Array.from({ length: count }, () => []);
  const conversations: Conversation[] = await Promise.all(
    Array.from({ length: count }, (_unused, index) =>
      harness.openConversation({
        model: FLOWS_MODEL,
        workspaces: [`/tmp/workspace-${index}`],
        customTools: [
          {
            name: "get_weather",
            description: "Weather for a city",
            parameters: { type: "object", properties: { city: { type: "string" } } },
            handler: async (_args, context) => {
              handled[index]?.push(context.conversationId);
              // Stagger completion so the conversations interleave on the one process.
              await new Promise((resolve) => setTimeout(resolve, (count - index) * 20));
              return { owner: `conversation-${index}` };
            },
          },
        ],
      }),
    ),
  );
  expect(harness.conversationCount).toBe(count);
  expect(new Set(conversations.map((conversation) => conversation.id)).size).toBe(count);

  const outcomes = await Promise.all(
    conversations.map(async (conversation, index) => {
      const turn = conversation.send(`marker-${index}: what is the weather`);
      const steps: NormalizedStep[] = [];
      for await (const step of turn) steps.push(step);
      const echo = conversation.send(`marker-${index} echo`);
      for await (const step of echo) steps.push(step);
      return { steps, weather: await turn.result, echo: await echo.result };
    }),
  );
  outcomes.forEach((outcome, index) => {
    expect(outcome.weather.text).toContain(`conversation-${index}`);
    expect(outcome.echo.text).toBe(`echo: marker-${index} echo`);
    expect(outcome.steps.every((step) => step.cascadeId === "" || step.cascadeId === conversations[index]?.id)).toBe(true);
    expect(handled[index]).toEqual([conversations[index]?.id]);
  });

  // Closing one conversation leaves the others working.
  await conversations[0]?.close();
  expect(harness.conversationCount).toBe(count - 1);
  const survivor = conversations[count - 1];
  const after = survivor?.send("still here?");
  if (after !== undefined) {
    for await (const _step of after) void _step;
    expect((await after.result).text).toBe("echo: still here?");
  }
}

describe("several conversations on one process", () => {
  it("two conversations stay isolated", async () => {
    await runIsolated(2);
  });

  it("eight conversations stay isolated", async () => {
    await runIsolated(8);
  });

  it("a failed conversation init spares the process and its other conversations", async () => {
    const harness = await fixture.start();
    const healthy = await harness.openConversation({ model: FLOWS_MODEL, workspaces: ["/tmp"] });
    await expect(harness.openConversation({ model: "emulator:/definitely/missing/scenario.json", workspaces: ["/tmp"] })).rejects.toMatchObject({
      code: "INIT_FAILED",
    });
    const turn = healthy.send("plain still works");
    for await (const _step of turn) void _step;
    expect((await turn.result).text).toBe("Final answer");
    expect(harness.hasExited).toBe(false);
  });
});
