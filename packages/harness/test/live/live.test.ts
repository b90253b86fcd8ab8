import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findHarnessBinary, HarnessProcess, type Turn } from "../../src/index.js";
import { expectNoLeaks, takeLeakBaseline, type LeakBaseline } from "../support/leak-check.js";

/**
 * Live tests against the real localharness and the Gemini API. They run only when both are
 * available; otherwise each is skipped with a name that says what is missing.
 */
const binaryPath = await findHarnessBinary().catch(() => undefined);
const apiKey = process.env.GEMINI_API_KEY;
const isEmulator = binaryPath?.endsWith(".js") ?? false;
const missing = [
  ...(apiKey ? [] : ["GEMINI_API_KEY"]),
  ...(binaryPath === undefined || isEmulator ? ["the localharness binary (pip install google-antigravity, or ANTIGRAVITY_HARNESS_PATH)"] : []),
];
const ready = missing.length === 0;
const model = process.env.ANTIGRAVITY_LIVE_MODEL ?? "gemini-3.6-flash";
const liveIt = (name: string, test: () => Promise<void>, timeoutMs = 180_000): void => {
  if (ready) it(`live: ${name}`, test, timeoutMs);
  else it.skip(`live: ${name} (skipped: needs ${missing.join(" and ")})`, test);
};

let baseline: LeakBaseline;
const harnesses: HarnessProcess[] = [];
beforeEach(() => {
  baseline = takeLeakBaseline();
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
  await expectNoLeaks(baseline, [], 10_000);
});

async function start(storageDirectory?: string): Promise<HarnessProcess> {
  const harness = await HarnessProcess.start({ ...(binaryPath ? { binaryPath } : {}), ...(storageDirectory ? { storageDirectory } : {}) });
  harnesses.push(harness);
  return harness;
}

async function drain(turn: Turn): Promise<void> {
  for await (const _step of turn) void _step;
}

describe("live harness", () => {
  liveIt("text turn", async () => {
    const harness = await start();
    const conversation = await harness.openConversation({ model, apiKey, workspaces: [tmpdir()] });
    const turn = conversation.send("Reply with exactly the word: pong");
    await drain(turn);
    const result = await turn.result;
    expect(result.text.toLowerCase()).toContain("pong");
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });

  liveIt("custom tool", async () => {
    const harness = await start();
    const conversation = await harness.openConversation({
      model,
      apiKey,
      workspaces: [tmpdir()],
      customTools: [
        {
          name: "secret_number",
          description: "Returns the secret number.",
          parameters: { type: "object", properties: {} },
          handler: () => ({ secret: 7341 }),
        },
      ],
    });
    const turn = conversation.send("Call secret_number and tell me the number it returns.");
    await drain(turn);
    expect((await turn.result).text).toContain("7341");
  });

  liveIt("question", async () => {
    const harness = await start();
    const asked: string[] = [];
    const conversation = await harness.openConversation({
      model,
      apiKey,
      workspaces: [tmpdir()],
      builtinTools: ["ask_question", "finish"],
      hooks: {
        onQuestions: ({ questions }) => {
          asked.push(...questions.map((question) => question.question));
          return { answers: questions.map((question) => ({ selected: [Math.max(0, question.choices.indexOf("blue"))] })) };
        },
      },
    });
    const turn = conversation.send("Use the ask_question tool to ask me to pick red or blue, then tell me which I picked.");
    await drain(turn);
    expect(asked.length).toBeGreaterThan(0);
    expect((await turn.result).text.toLowerCase()).toContain("blue");
  });

  liveIt("cancel keeps partial output", async () => {
    const harness = await start();
    const conversation = await harness.openConversation({ model, apiKey, workspaces: [tmpdir()] });
    const turn = conversation.send("Write a 2000-word story about a lighthouse.");
    for await (const step of turn) {
      if (step.text.length > 50) turn.cancel();
    }
    const result = await turn.result;
    expect(result.cancelled).toBe(true);
    const next = conversation.send("Reply with exactly the word: pong");
    await drain(next);
    expect((await next.result).text.toLowerCase()).toContain("pong");
  });

  liveIt("cold resume recalls an earlier fact", async () => {
    const storageDirectory = await mkdtemp(join(tmpdir(), "live-resume-"));
    try {
      const first = await start(storageDirectory);
      const conversation = await first.openConversation({ model, apiKey, workspaces: [tmpdir()] });
      const planted = conversation.send("Remember this: my cat is called Bartholomew. Reply OK.");
      await drain(planted);
      const conversationId = conversation.id;
      await first.close();
      const second = await start(storageDirectory);
      const resumed = await second.openConversation({ model, apiKey, workspaces: [tmpdir()], conversationId, continuation: "resume" });
      expect(resumed.history.length).toBeGreaterThan(0);
      const turn = resumed.send("What is my cat called?");
      await drain(turn);
      expect((await turn.result).text).toContain("Bartholomew");
    } finally {
      await rm(storageDirectory, { recursive: true, force: true });
    }
  });
});
