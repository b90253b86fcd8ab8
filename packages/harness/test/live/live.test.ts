import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { get as httpGet } from "node:http";
import { fileURLToPath } from "node:url";
import { findHarnessBinary, HarnessError, HarnessProcess, type Conversation, type ConversationConfig, type NormalizedStep, type Turn, type TurnResult } from "../../src/index.js";
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
const model = process.env.ANTIGRAVITY_LIVE_MODEL ?? undefined;
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

async function stepsOf(turn: Turn): Promise<NormalizedStep[]> {
  const steps: NormalizedStep[] = [];
  for await (const step of turn) steps.push(step);
  return steps;
}

/** A real MCP server built with the MCP SDK (tools `add_numbers`, `shout_text`, ...), run by path. */
const mcpTestServer = fileURLToPath(new URL("../../../testing/src/mcp/test-mcp-server.mjs", import.meta.url));

/** What a plain GET to the harness port gets within 3 s: a status, "no answer", or "reset". */
function plainGet(port: number): Promise<number | "no answer" | "reset"> {
  return new Promise((resolve) => {
    const request = httpGet({ host: "localhost", port, path: "/", agent: false, timeout: 3_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once("timeout", () => {
      request.destroy();
      resolve("no answer");
    });
    request.once("error", () => resolve("reset"));
  });
}

/** A conversation on a fresh harness, with the options every live test shares and `extra`. */
async function open(extra: Partial<ConversationConfig> = {}): Promise<Conversation> {
  const harness = await start();
  return harness.openConversation({ model, apiKey, workspaces: [tmpdir()], ...extra });
}

/** One turn on a fresh conversation: every step and the result. */
async function oneTurn(prepared: PreparedTurn, prompt: string): Promise<{ steps: NormalizedStep[]; result: TurnResult }> {
  const turn = (await open(prepared.config)).send(prompt);
  prepared.watch?.(turn);
  const steps = await stepsOf(turn);
  return { steps, result: await turn.result };
}

interface PreparedTurn {
  config: Partial<ConversationConfig>;
  /** Called with the turn before it is read (to subscribe to what it reports besides its steps). */
  watch?(turn: Turn): void;
  check(turn: { steps: NormalizedStep[]; result: TurnResult }): void;
}

/**
 * The single-turn features: a conversation configured for one, one prompt, and what must hold.
 * `prepare` builds each case's configuration afresh, with whatever its hooks record.
 */
const singleTurnCases: Array<{ name: string; prompt: string; prepare(): PreparedTurn }> = [
  {
    name: "text turn",
    prompt: "Reply with exactly the word: pong",
    prepare: () => ({
      config: {},
      check: ({ result }) => {
        expect(result.text.toLowerCase()).toContain("pong");
        expect(result.usage.totalTokens).toBeGreaterThan(0);
      },
    }),
  },
  {
    name: "custom tool",
    prompt: "Call secret_number and tell me the number it returns.",
    prepare: () => ({
      config: { customTools: [{ name: "secret_number", description: "Returns the secret number.", parameters: { type: "object", properties: {} }, handler: () => ({ secret: 7341 }) }] },
      check: ({ result }) => expect(result.text).toContain("7341"),
    }),
  },
  {
    name: "question",
    prompt: "Use the ask_question tool to ask me to pick red or blue, then tell me which I picked.",
    prepare: () => {
      const asked: string[] = [];
      return {
        config: {
          builtinTools: ["ask_question", "finish"],
          hooks: {
            onQuestions: ({ questions }) => {
              asked.push(...questions.map((question) => question.question));
              return { answers: questions.map((question) => ({ selected: [Math.max(0, question.choices.indexOf("blue"))] })) };
            },
          },
        },
        check: ({ result }) => {
          expect(asked.length).toBeGreaterThan(0);
          expect(result.text.toLowerCase()).toContain("blue");
        },
      };
    },
  },
  {
    name: "confirmation / approval",
    prompt: "Run the shell command `echo live-approval-ok` and tell me its output.",
    prepare: () => {
      const asked: string[] = [];
      return {
        config: {
          builtinTools: ["run_command", "finish"],
          policies: [{ tool: "run_command", decision: "confirm" }],
          hooks: {
            preTool: (args) => {
              asked.push(args.toolName);
              return { decision: "allow" };
            },
          },
        },
        check: ({ result }) => {
          expect(asked).toContain("run_command");
          expect(result.text).toContain("live-approval-ok");
        },
      };
    },
  },
  {
    name: "policy deny",
    prompt: "Run the shell command `echo should-not-run` and tell me what happened.",
    prepare: () => ({
      config: { builtinTools: ["run_command", "finish"], policies: [{ tool: "run_command", decision: "deny", reason: "commands are not allowed here" }] },
      check: ({ steps }) =>
        expect(steps.some((step) => step.tool?.name === "run_command" && step.status === "done" && JSON.stringify(step.tool.result ?? {}).includes("should-not-run"))).toBe(false),
    }),
  },
  {
    name: "subagent",
    prompt: "Ask the arithmetic_helper subagent what 12 + 30 is, then tell me its answer.",
    prepare: () => {
      const ended: string[] = [];
      return {
        config: { builtinTools: ["start_subagent", "finish"], subagents: [{ name: "arithmetic_helper", description: "Does arithmetic and answers with the number only." }] },
        watch: (turn) => turn.onSubagentEnd((end) => void ended.push(end.trajectoryId)),
        check: ({ result }) => {
          expect(ended.length).toBeGreaterThan(0);
          expect(result.text).toContain("42");
        },
      };
    },
  },
  {
    name: "MCP",
    prompt: "Use the add_numbers tool to add 1200 and 34, and tell me the result.",
    prepare: () => ({
      config: { mcpServers: [{ name: "calc", command: process.execPath, args: [mcpTestServer] }], policies: [{ tool: "*", decision: "allow" }] },
      check: ({ steps, result }) => {
        expect(steps.some((step) => step.tool?.kind === "mcp")).toBe(true);
        expect(result.text).toContain("1234");
      },
    }),
  },
  {
    name: "structured output",
    prompt: "What is the capital of France?",
    prepare: () => ({
      config: { responseSchema: { type: "object", properties: { capital: { type: "string" } }, required: ["capital"] } },
      check: ({ result }) => expect(result.structuredOutput).toMatchObject({ capital: expect.stringMatching(/paris/i) }),
    }),
  },
];

describe("live harness", () => {
  for (const testCase of singleTurnCases) {
    liveIt(testCase.name, async () => {
      const prepared = testCase.prepare();
      prepared.check(await oneTurn(prepared, testCase.prompt));
    });
  }

  liveIt("cancel keeps partial output", async () => {
    const conversation = await open();
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

  liveIt("thinking", async () => {
    const conversation = await open({ thinkingLevel: "high" });
    const steps = await stepsOf(conversation.send("Think it through, then answer: what is 17 * 23?"));
    expect(steps.some((step) => step.thinking !== "")).toBe(true);
    expect((await conversation.send("Reply with exactly the word: pong").result).text.toLowerCase()).toContain("pong");
  });

  liveIt("builtin tools", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "live-builtin-"));
    try {
      const { writeFile } = await import("node:fs/promises");
      await writeFile(join(workspace, "marker-file-4711.txt"), "hello");
      const conversation = await open({ workspaces: [workspace], builtinTools: ["list_directory", "finish"] });
      const turn = conversation.send(`List the files in ${workspace} and name the one whose name contains a number.`);
      const steps = await stepsOf(turn);
      expect(steps.some((step) => step.tool?.name === "list_directory")).toBe(true);
      expect((await turn.result).text).toContain("4711");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  liveIt("timeout", async () => {
    const conversation = await open({ turnTimeoutMs: 1_000 });
    const turn = conversation.send("Write a 3000-word essay about tides.");
    const error = await drain(turn).then(() => turn.result).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HarnessError.isInstance(error) && error.code).toBe("TIMEOUT");
    expect((await conversation.send("Reply with exactly the word: pong").result).text.toLowerCase()).toContain("pong");
  });

  liveIt("two conversations on one process", async () => {
    const harness = await start();
    const [first, second] = await Promise.all([1, 2].map(() => harness.openConversation({ model, apiKey, workspaces: [tmpdir()] })));
    const [a, b] = await Promise.all([first!.send("Reply with exactly the word: apple").result, second!.send("Reply with exactly the word: banana").result]);
    expect(a.text.toLowerCase()).toContain("apple");
    expect(b.text.toLowerCase()).toContain("banana");
    expect(first!.id).not.toBe(second!.id);
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

/**
 * What the real harness does where the client only guesses (docs/protocol.md, "Assumptions and how
 * we hedge them"). The client is correct either way; these print which way it went, and the
 * session is recorded, so the answer can be read from the recording.
 */
describe("live harness: the assumptions", () => {
  liveIt("1. resuming an id the harness does not have: empty or refused", async () => {
    const harness = await start();
    const conversationId = "0123456789abcdef0123456789abcdef";
    const outcome = await harness.openConversation({ model, apiKey, workspaces: [tmpdir()], conversationId, continuation: "create-or-resume" }).then(
      (conversation) => `started under ${conversation.id === conversationId ? "that id" : "another id"} with ${conversation.history.length} history steps`,
      (error: unknown) => `refused: ${String(error)}`,
    );
    console.info(`assumption 1: ${outcome}`);
    expect(outcome).toMatch(/^(started|refused)/);
  });

  liveIt("2. a plain HTTP GET to the harness port, and the liveness probe", async () => {
    const harness = await start();
    console.info(`assumption 2: a plain GET gets ${String(await plainGet(harness.port))}`);
    await harness.checkLiveness();
  });

  liveIt("3. what follows a denied call", async () => {
    const conversation = await open({
      builtinTools: ["run_command", "finish"],
      hooks: { preTool: () => ({ decision: "deny", reason: "denied by the live test" }) },
    });
    const steps = await stepsOf(conversation.send("Run the shell command `echo hi`."));
    const commandSteps = steps.filter((step) => step.tool?.name === "run_command");
    console.info(`assumption 3: run_command steps after the denial: ${JSON.stringify(commandSteps.map((step) => ({ status: step.status, error: step.error })))}`);
    expect(commandSteps.some((step) => step.status === "done" && JSON.stringify(step.tool?.result ?? {}).includes("hi"))).toBe(false);
  });

  liveIt("4. two subagents at once: does anything link a trajectory to its call", async () => {
    const conversation = await open({
      builtinTools: ["start_subagent", "finish"],
      subagents: [
        { name: "red_helper", description: "Answers with the word red." },
        { name: "blue_helper", description: "Answers with the word blue." },
      ],
    });
    const steps = await stepsOf(conversation.send("Start red_helper and blue_helper at the same time, in parallel, and report both answers."));
    const calls = steps.filter((step) => step.tool?.kind === "subagent");
    expect(calls.length).toBeGreaterThan(0);
    console.info(`assumption 4: subagent calls ${JSON.stringify(calls.map((step) => step.tool))}; trajectories ${JSON.stringify([...new Set(steps.filter((step) => !step.isMainTrajectory).map((step) => step.trajectoryId))])}`);
  });
});
