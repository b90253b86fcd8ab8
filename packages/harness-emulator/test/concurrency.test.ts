// One process, 200 conversations at once: isolation, a parked custom tool, and a killed socket.
import { afterAll, beforeAll, expect, it } from "vitest";
import { configFor, outboundViolations, reapLeaks, spawnEmulator, type EmulatorProcess, type RawConversation } from "./support/emulator-driver.js";

const conversationCount = 200;
let emulator: EmulatorProcess;
const conversations: RawConversation[] = [];

beforeAll(async () => {
  emulator = await spawnEmulator({ env: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "2" } });
});

afterAll(async () => {
  await Promise.all(conversations.map((conversation) => conversation.close()));
  expect((await emulator.stop()).code).toBe(0);
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

it(`serves ${conversationCount} concurrent conversations; a parked tool and a killed socket disturb no one`, { timeout: 90_000 }, async () => {
  const tools = [{ name: "slow_tool", parametersJsonSchema: "{}" }];
  const opened = await Promise.all(
    Array.from({ length: conversationCount }, async (_unused, index) => {
      const conversation = await emulator.connect();
      conversations.push(conversation);
      const init = await conversation.init(configFor("custom", { tools, workspaces: [{ filesystemWorkspace: { directory: `/tmp/workspace-${index}` } }] }));
      return { conversation, cascadeId: init["initializeConversationResponse"].cascadeId as string };
    }),
  );
  expect(new Set(opened.map((entry) => entry.cascadeId)).size).toBe(conversationCount);

  // Conversation 0 parks on a custom tool that the test does not answer until everyone else is done.
  const parked = opened[0]!.conversation;
  parked.say("use slow_tool");
  const call = await parked.next((message) => message["toolCall"] !== undefined);
  // Conversation 1 is killed mid-turn.
  const victim = opened[1]!.conversation;
  victim.say("about to be killed");
  await victim.next((message) => message["trajectoryStateUpdate"]?.state === "STATE_RUNNING");
  victim.socket.terminate();

  const started = Date.now();
  const finished = await Promise.all(
    opened.slice(2).map(async ({ conversation }, index) => {
      conversation.say(`message ${index}`);
      const turn = await conversation.untilIdle({ timeoutMs: 60_000 });
      return turn.filter((message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].source === "SOURCE_MODEL").at(-1)!["stepUpdate"].text as string;
    }),
  );
  const elapsed = Date.now() - started;
  finished.forEach((text, index) => expect(text).toBe(`fast reply to message ${index}`));
  // Generous bound: the point is that nobody waited for the parked tool (which never answers here).
  expect(elapsed).toBeLessThan(45_000);
  expect(parked.messages.some((message) => message["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE")).toBe(false);

  // The parked turn resumes whenever its result finally arrives.
  parked.send({ toolResponse: { id: call["toolCall"].id, responseJson: '{"result": "worth the wait"}' } });
  const resumed = await parked.untilIdle();
  expect(resumed.some((message) => message["stepUpdate"]?.text === "Result: worth the wait")).toBe(true);
  expect(emulator.child.exitCode).toBeNull();
});
