import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HarnessError, type ConversationConfig, type HarnessProcess, type NormalizedStep, type Turn, type WireRecord } from "../../src/index.js";
import { compareHarnessVersions } from "../../src/protocol/harness-versions.js";
import { EmulatorFixture, FLOWS_MODEL, MCP_TEST_SERVER } from "./emulator.js";

/**
 * Every flow of the protocol fixtures (fixtures/protocol/*.json), driven through the public API
 * against the emulator process, once per harness release the suite is defined for: the client pins
 * the release (`harnessVersion`), which also sets the emulator's profile, and each must work as well
 * as the others.
 */
const workspace = tmpdir();

async function collect(turn: Turn): Promise<NormalizedStep[]> {
  const steps: NormalizedStep[] = [];
  for await (const step of turn) steps.push(step);
  return steps;
}

async function collectUntilError(turn: Turn): Promise<{ steps: NormalizedStep[]; error: unknown }> {
  const steps: NormalizedStep[] = [];
  try {
    for await (const step of turn) steps.push(step);
  } catch (error) {
    return { steps, error };
  }
  return { steps, error: undefined };
}

export function defineFlowSuite(version: string): void {
  const atLeast = (release: string): boolean => compareHarnessVersions(version, release) >= 0;
  describe(`fixture flows against the emulator (harness ${version})`, () => {
    const fixture = new EmulatorFixture();
    beforeEach(() => fixture.begin());
    afterEach(() => fixture.end());

    async function open(config: ConversationConfig = {}, options: { inspector?: (record: WireRecord) => void; logger?: { warn: (fields: Record<string, unknown>, message?: string) => void }; storageDirectory?: string } = {}) {
      const harness = await fixture.start({ harnessVersion: version, ...options });
      const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: [workspace], ...config });
      return { harness, conversation };
    }

    /** Another conversation on a process the test already started: the flows share one process per test. */
    async function openOn(harness: HarnessProcess, config: ConversationConfig = {}) {
      const conversation = await harness.openConversation({ model: FLOWS_MODEL, workspaces: [workspace], ...config });
      return { harness, conversation };
    }

    it("handshake and init (handshake.json, init.json): a 32-hex conversation id, no history", async () => {
      const records: WireRecord[] = [];
      const { conversation } = await open({}, { inspector: (record) => records.push(record) });
      expect(conversation.id).toMatch(/^[0-9a-f]{32}$/);
      expect(conversation.history).toEqual([]);
      expect(records.map((record) => `${record.channel}:${record.messageKey}`).slice(0, 4)).toEqual([
        "harness:InputConfig",
        "harness:OutputConfig",
        "ws:config",
        "ws:initializeConversationResponse",
      ]);
    });

    it("plain text turn (plain_text_turn.json): streamed deltas add up to the answer; PostTurn sees it", async () => {
      const postTurn: string[] = [];
      const { conversation } = await open({ hooks: { postTurn: ({ responseText }) => void postTurn.push(responseText) } });
      const turn = conversation.send("a plain question");
      const steps = await collect(turn);
      const result = await turn.result;
      expect(result.text).toBe("Final answer");
      const answerSteps = steps.filter((step) => step.source === "model" && step.kind === "text");
      expect(answerSteps.map((step) => step.textDelta).join("")).toBe("Final answer");
      expect(steps.every((step) => step.event !== undefined)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(postTurn).toEqual(["Final answer"]);
    });

    it("thinking turn (thinking_turn.json): thinking deltas separate from the answer", async () => {
      const { conversation } = await open();
      const turn = conversation.send("think hard");
      const steps = await collect(turn);
      expect(steps.map((step) => step.thinkingDelta).join("")).toBe("Let me think about this carefully.");
      expect((await turn.result).text).toBe("Thought it through.");
    });

    it("builtin tool (builtin_tools.json): arguments first, results at DONE; Pre/PostTool hooks see the call", async () => {
      const preTool: string[] = [];
      const postTool: string[] = [];
      const { conversation } = await open({
        hooks: {
          preTool: ({ toolName }) => void preTool.push(toolName),
          postTool: ({ toolName, result }) => void postTool.push(`${toolName}:${result === "" ? "empty" : "result"}`),
        },
      });
      const turn = conversation.send("please list files here");
      const steps = await collect(turn);
      const done = steps.filter((step) => step.tool?.name === "list_directory" && step.status === "done").at(-1);
      expect(done?.kind).toBe("builtin_tool");
      expect(done?.tool?.arguments).toHaveProperty("directoryPath");
      expect(done?.tool?.result).toHaveProperty("results");
      expect((await turn.result).text).toContain("Listed:");
      expect(preTool).toContain("list_directory");
      expect(postTool).toContain("list_directory:result");
    });

    it("custom tool (custom_tool.json): the handler's result reaches the model; errors become tool errors", async () => {
      const calls: unknown[] = [];
      const { harness, conversation } = await open({
        customTools: [
          {
            name: "get_weather",
            description: "Weather for a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            handler: async (args, context) => {
              calls.push({ args, conversationId: context.conversationId });
              return { forecast: `sunny in ${String(args.city)}` };
            },
          },
        ],
      });
      const turn = conversation.send("what is the weather");
      const steps = await collect(turn);
      expect(calls).toEqual([{ args: { city: "SF" }, conversationId: conversation.id }]);
      expect(steps.some((step) => step.kind === "custom_tool" && step.tool?.name === "get_weather")).toBe(true);
      expect((await turn.result).text).toContain("sunny in SF");

      const failing = await openOn(harness, {
        customTools: [
          {
            name: "get_weather",
            description: "Weather for a city",
            parameters: { type: "object" },
            handler: () => {
              throw new Error("weather service down");
            },
          },
        ],
      });
      const failed = failing.conversation.send("weather again");
      await collect(failed);
      expect((await failed.result).text).toContain("weather service down");
    });

    it("pre-tool edit: the hook's edited arguments reach a custom tool, in the release's own shape", async () => {
      const calls: unknown[] = [];
      const records: WireRecord[] = [];
      const { conversation } = await open(
        {
          hooks: { preTool: ({ toolName, arguments: args }) => (toolName === "get_weather" ? { decision: "allow", arguments: { ...args, city: "Lisbon" } } : undefined) },
          customTools: [
            {
              name: "get_weather",
              description: "Weather for a city",
              parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
              handler: async (args) => {
                calls.push(args);
                return { forecast: `rain in ${String(args.city)}` };
              },
            },
          ],
        },
        { inspector: (record) => records.push(record) },
      );
      const turn = conversation.send("what is the weather");
      await collect(turn);
      expect(calls).toEqual([{ city: "Lisbon" }]);
      expect((await turn.result).text).toContain("rain in Lisbon");
      // 0.1.17 replaced the JSON string (modifiedArgumentsJson) with a genai Struct (modifiedArgs).
      const sent = JSON.stringify(records.filter((record) => record.channel === "ws" && record.direction === "send").map((record) => record.message));
      expect(sent).toContain(atLeast("0.1.17") ? '"modifiedArgs"' : '"modifiedArgumentsJson"');
      expect(sent).not.toContain(atLeast("0.1.17") ? '"modifiedArgumentsJson"' : '"modifiedArgs"');
    });

    it("MCP tool (a stdio server built with the MCP SDK): the call runs through the pre-tool hook, which can edit it", async () => {
      const { conversation } = await open({
        model: "emulator:demo",
        mcpServers: [{ name: "calc", command: process.execPath, args: [MCP_TEST_SERVER, "--name", "calc"] }],
        policies: [{ tool: "*", decision: "allow" }],
        hooks: { preTool: ({ toolName }) => (toolName?.includes("add_numbers") === true ? { decision: "allow", arguments: { a: 20, b: 22 } } : undefined) },
      });
      const turn = conversation.send("please use add_numbers");
      const steps = await collect(turn);
      expect(steps.some((step) => step.kind === "mcp_tool")).toBe(true);
      expect((await turn.result).text).toContain("20 + 22 = 42");
    });

    it("ask_question (ask_question.json): the onQuestions answer reaches the model; without one, nobody is asked", async () => {
      const { harness, conversation } = await open({
        builtinTools: ["list_directory", "ask_question", "finish"],
        hooks: { onQuestions: ({ questions }) => ({ answers: questions.map(() => ({ selected: [1] })) }) },
      });
      const turn = conversation.send("ask me a question");
      const steps = await collect(turn);
      expect(steps.some((step) => step.kind === "question" && step.questions?.[0]?.question === "Which color?")).toBe(true);
      expect((await turn.result).text).toContain("blue");

      const defaulted = await openOn(harness, { builtinTools: ["ask_question", "finish"] });
      const unanswered = defaulted.conversation.send("ask me again");
      const unansweredSteps = await collect(unanswered);
      if (atLeast("0.1.11")) {
        // No onQuestions, so the client does not ask for an interactive agent; an autonomous one decides alone.
        expect(unansweredSteps.some((step) => step.kind === "question")).toBe(false);
      } else {
        expect((await unanswered.result).text).toContain("unanswered");
      }
    });

    it("tool confirmation (tool_confirmation.json): an allowed command is accepted, a denied one is refused", async () => {
      const allowed = await open({ builtinTools: ["run_command", "finish"], policies: [{ tool: "run_command", decision: "allow" }] });
      const turn = allowed.conversation.send("confirm command please");
      const steps = await collect(turn);
      expect(steps.some((step) => step.tool?.name === "run_command")).toBe(true);
      expect(steps.some((step) => step.tool?.name === "run_command" && step.status === "error")).toBe(false);

      const denied = await openOn(allowed.harness, {
        builtinTools: ["run_command", "finish"],
        policies: [{ tool: "run_command", decision: "deny", reason: "no shell here" }],
      });
      const refused = denied.conversation.send("confirm command please");
      const refusedSteps = await collect(refused);
      const runSteps = refusedSteps.filter((step) => step.tool?.name === "run_command");
      expect(runSteps.every((step) => step.status !== "done" || step.tool?.result === undefined)).toBe(true);
      expect((await refused.result).text).toContain("no shell here");
    });

    it("error steps (error_steps.json): 401 is yielded then raised; 429 and trajectory failures fail the turn", async () => {
      const { conversation } = await open();
      const auth = await collectUntilError(conversation.send("fail auth now"));
      expect(auth.steps.some((step) => step.status === "error" && step.error?.httpCode === 401)).toBe(true);
      expect(HarnessError.isInstance(auth.error) && auth.error.code).toBe("TURN_FAILED");

      const rate = await collectUntilError(conversation.send("rate limit me"));
      expect(rate.steps.some((step) => step.error?.httpCode === 429)).toBe(true);
      expect(rate.error).toMatchObject({ code: "TURN_FAILED", message: expect.stringContaining("Resource exhausted") });

      const broken = await collectUntilError(conversation.send("break down"));
      expect(broken.error).toMatchObject({ code: "TURN_FAILED", message: expect.stringContaining("Trajectory execution failed") });

      const after = conversation.send("plain again");
      await collect(after);
      expect((await after.result).text).toBe("Final answer");
    });

    it("cancel and halt (cancel_halt.json): cancel keeps the partial text; a pre-turn denial is CANCELLED", async () => {
      const { harness, conversation } = await open();
      const turn = conversation.send("a slow answer");
      const seen: string[] = [];
      for await (const step of turn) {
        if (step.source === "model" && step.text !== "") seen.push(step.text);
        if (seen.length === 2) turn.cancel();
      }
      const result = await turn.result;
      expect(result.cancelled).toBe(true);
      expect(result.text.length).toBeGreaterThan(0);
      expect("I am working on a long answer that streams slowly so that it can be cancelled midway through.".startsWith(result.text)).toBe(true);
      expect(result.text.length).toBeLessThan(90);

      const next = conversation.send("plain after cancel");
      await collect(next);
      expect((await next.result).text).toBe("Final answer");

      const denying = await openOn(harness, { hooks: { preTurn: () => ({ decision: "deny", reason: "Denied by hook" }) } });
      await expect(denying.conversation.send("Hello").result).rejects.toMatchObject({ code: "CANCELLED", message: expect.stringContaining("Denied by hook") });
    });

    it("cold resume (cold_resume.json): a new process on the same storage directory returns the history", async () => {
      const storageDirectory = await mkdtemp(join(tmpdir(), "resume-"));
      try {
        const first = await open({}, { storageDirectory });
        const turn = first.conversation.send("a plain fact to remember");
        await collect(turn);
        const conversationId = first.conversation.id;
        await first.harness.close();

        const second = await open({ conversationId, continuation: "resume" }, { storageDirectory });
        expect(second.conversation.id).toBe(conversationId);
        expect(second.conversation.history.length).toBeGreaterThan(0);
        expect(second.conversation.history.some((step) => step.text === "Final answer")).toBe(true);
        if (atLeast("0.1.10")) expect(second.conversation.usage.totalTokens).toBeGreaterThan(0);
      } finally {
        await rm(storageDirectory, { recursive: true, force: true });
      }
    });

    it("subagent (subagent.json): subagent steps are marked, its idle does not end the turn", async () => {
      const { conversation } = await open({ subagents: [{ name: "helper", description: "helps" }] });
      const turn = conversation.send("delegate this");
      const ended: string[] = [];
      turn.onSubagentEnd((end) => void ended.push(end.trajectoryId));
      const steps = await collect(turn);
      expect(steps.some((step) => !step.isMainTrajectory && step.text.includes("Subagent result"))).toBe(true);
      // The subagent's end is observable (it is a trajectory state, not a step), exactly once.
      const subagentTrajectories = new Set(steps.filter((step) => !step.isMainTrajectory).map((step) => step.trajectoryId));
      expect(ended).toEqual([...subagentTrajectories]);
      expect(steps.some((step) => step.kind === "subagent")).toBe(true);
      expect((await turn.result).text).toContain("The helper said");
    });

    it("hooks (hooks.json): session start fires, session end runs its handshake on close", async () => {
      const events: string[] = [];
      const { conversation } = await open({
        hooks: { sessionStart: () => void events.push("start"), sessionEnd: () => void events.push("end") },
      });
      await collect(conversation.send("plain hello"));
      await conversation.close();
      expect(events).toEqual(["start", "end"]);
    });

    it("usage (usage.json): per-turn usage is the difference of cumulative totals, in the dialect's own shape", async () => {
      const records: WireRecord[] = [];
      const { conversation } = await open({}, { inspector: (record) => records.push(record) });
      const first = conversation.send("plain one");
      await collect(first);
      const firstResult = await first.result;
      const second = conversation.send("plain two");
      await collect(second);
      const secondResult = await second.result;
      expect(firstResult.usage.totalTokens).toBeGreaterThan(0);
      expect(secondResult.cumulativeUsage.totalTokens).toBe(firstResult.cumulativeUsage.totalTokens + secondResult.usage.totalTokens);
      expect(conversation.usage).toEqual(secondResult.cumulativeUsage);
      const received = records.filter((record) => record.direction === "receive").map((record) => record.message as Record<string, any>);
      const idleStates = received.filter((message) => message.trajectoryStateUpdate !== undefined).map((message) => message.trajectoryStateUpdate.state);
      if (!atLeast("0.1.9")) {
        expect(received.some((message) => message.usageUpdate !== undefined)).toBe(false);
        expect(received.some((message) => message.usageMetadata !== undefined)).toBe(true);
        expect(idleStates).toContain("STATE_IDLE");
        expect(idleStates).not.toContain("STATE_FULLY_IDLE");
      } else {
        expect(received.some((message) => message.usageUpdate !== undefined)).toBe(true);
        expect(idleStates).toContain("STATE_FULLY_IDLE");
      }
    });

    if (atLeast("0.1.10")) {
      it("policy decision (policy_decision.json): a dynamic confirm rule is answered through the pre-tool hook", async () => {
        const records: WireRecord[] = [];
        const asked: string[] = [];
        const { conversation } = await open(
          {
            builtinTools: ["run_command", "finish"],
            sendPoliciesToHarness: true,
            policies: [{ tool: "run_command", decision: "confirm" }],
            hooks: { preTool: ({ toolName, reason }) => (asked.push(`${toolName}:${reason}`), { decision: "deny", reason: "the human said no" }) },
          },
          { inspector: (record) => records.push(record) },
        );
        const turn = conversation.send("confirm command please");
        await collect(turn);
        expect(records.some((record) => record.messageKey === "policyDecisionRequest")).toBe(true);
        const response = records.find((record) => record.messageKey === "policyDecisionResponse")?.message as { policyDecisionResponse: { outcome: string } };
        expect(response.policyDecisionResponse.outcome).toBe("POLICY_EVALUATION_OUTCOME_DENY");
        expect(asked).toEqual(["run_command:policy-confirm"]);
        expect((await turn.result).text).toContain("the human said no");
      });
    }

    it("inputs, triggers and compaction (inputs_triggers_compaction.json)", async () => {
      const { conversation } = await open({ triggers: [{ message: "nightly check", intervalMs: 150 }] });
      const triggerTurns: Turn[] = [];
      conversation.onTriggerTurn((turn) => triggerTurns.push(turn));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(triggerTurns).toHaveLength(0);

      const multimodal = conversation.send([{ text: "compact please" }, { media: { mimeType: "image/png", data: new Uint8Array([137, 80, 78, 71]) } }]);
      const steps = await collect(multimodal);
      expect(steps.some((step) => step.kind === "compaction")).toBe(true);
      expect((await multimodal.result).text).toBe("Compacted.");

      const iterator = conversation.triggerTurns[Symbol.asyncIterator]();
      const triggered = (await iterator.next()).value as Turn;
      expect(triggered.origin).toBe("trigger");
      const triggerResult = await triggered.result;
      expect(triggerResult.text).toBe("trigger ack: nightly check");
      expect(triggerTurns[0]).toBe(triggered);
    });

    it("structured output (structured_output.json): the finish output is parsed", async () => {
      const { conversation } = await open({ responseSchema: { type: "object", properties: { answer: { type: "number" } } } });
      const turn = conversation.send("structured please");
      await collect(turn);
      const result = await turn.result;
      expect(result.structuredOutput).toEqual({ answer: 42 });
      expect(JSON.parse(result.structuredOutputText ?? "")).toEqual({ answer: 42 });
    });

    it("version aliases and drift (version_aliases.json): unknown fields, enums and events are tolerated, each new kind warned live, and reported once at close", async () => {
      const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
      const { harness, conversation } = await open({}, { logger: { warn: (fields, message = "") => void warnings.push({ message, fields }) } });
      const turn = conversation.send("show some drift");
      await collect(turn);
      expect((await turn.result).text).toBe("Still fine.");
      await harness.close();
      const driftWarnings = warnings.filter((warning) => warning.message.includes("drift"));
      // One warning per new kind as it first appears, then one summary at close.
      const closeReports = driftWarnings.filter((warning) => warning.fields?.drift !== undefined);
      expect(closeReports).toHaveLength(1);
      expect((closeReports[0]?.fields?.drift as { total: number }).total).toBeGreaterThan(0);
      expect(driftWarnings.length).toBeGreaterThan(1);
    });
  });
}
