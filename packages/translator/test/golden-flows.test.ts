// Golden AG-UI event sequences for every captured harness flow: fixture StepUpdates go through the
// harness's own parser and StepNormalizer, then through the translator, and the result is compared
// with fixtures/agui/<flow>.json. Run with UPDATE_GOLDEN=1 to rewrite the files, then review the
// diff like code.
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StepNormalizer } from "@ag-ui-antigravity/harness";
import { parseOutputEvent, usageOf } from "@ag-ui-antigravity/harness/protocol";
import { type BaseEvent, EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { sequentialIds, StepTranslator } from "../src/index.js";
import { replayThroughClient } from "./support/agui-client.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const protocolDir = join(root, "fixtures/protocol");
const goldenDir = join(root, "fixtures/agui");
const updating = process.env["UPDATE_GOLDEN"] === "1";

interface FixtureFrame {
  direction: string;
  channel: string;
  json: unknown;
}

/**
 * Fixtures whose notes say they hold independent examples reusing one step id: there, a step that
 * already finished and shows up again starts a new example (a new turn) instead of being treated
 * as the harness re-broadcasting it.
 */
const EXAMPLE_FIXTURES = new Set(["builtin_tools", "custom_tool", "thinking_turn"]);

/**
 * Only subagent.json captures subagents. In the other fixtures a step of another trajectory is a
 * separate example (the SDK tests each used their own ids), so it starts a new turn there.
 */
const SUBAGENT_FIXTURES = new Set(["subagent"]);

/** Harness payloads the translator (or its usage accounting) consumes. */
const TRANSLATED_PAYLOADS = ["stepUpdate", "usageUpdate", "usageMetadata"];

/** Client frames that start a turn. */
const TURN_INPUTS = ["userInput", "complexUserInput", "automatedTrigger"];

const flows = readdirSync(protocolDir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => file.slice(0, -".json".length))
  .filter((flow) => framesOf(flow).some((frame) => isHarnessFrame(frame) && TRANSLATED_PAYLOADS.some((key) => hasKey(frame.json, key))));

function framesOf(flow: string): FixtureFrame[] {
  return (JSON.parse(readFileSync(join(protocolDir, `${flow}.json`), "utf8")) as { messages: FixtureFrame[] }).messages;
}

function isHarnessFrame(frame: FixtureFrame): boolean {
  return frame.direction === "harness->client" && frame.channel === "ws";
}

function hasKey(value: unknown, key: string): boolean {
  return typeof value === "object" && value !== null && key in value;
}

interface GoldenRun {
  /** The fixture frames the run covers, as `messages[first..last]`. */
  frames: string;
  events: BaseEvent[];
}

/** What the agent's run loop will do, reduced to the translator's part: one run per turn. */
function translateFlow(flow: string): GoldenRun[] {
  const frames = framesOf(flow);
  const translator = new StepTranslator({ ids: sequentialIds(), usage: { provider: "google" } });
  const normalizer = new StepNormalizer();
  const runs: GoldenRun[] = [];
  let current: { first: number; last: number; events: BaseEvent[]; mainTrajectoryId?: string; finished: Set<string> } | undefined;

  const finishRun = () => {
    if (current === undefined) return;
    const runId = `run-${runs.length + 1}`;
    const usage = translator.settleRunUsage();
    const finished: BaseEvent = { type: EventType.RUN_FINISHED, threadId: "thread-1", runId, ...(usage.length > 0 ? { usage } : {}) };
    runs.push({
      frames: `messages[${current.first}..${current.last}]`,
      events: [{ type: EventType.RUN_STARTED, threadId: "thread-1", runId }, ...current.events, ...translator.closeRun(), finished],
    });
    translator.reset();
    normalizer.reset();
    current = undefined;
  };

  frames.forEach((frame, index) => {
    if (frame.direction === "client->harness" && TURN_INPUTS.some((key) => hasKey(frame.json, key))) {
      finishRun();
      return;
    }
    if (!isHarnessFrame(frame)) return;
    const event = parseOutputEvent(frame.json);
    const stepUpdate = event.stepUpdate;
    const usage = usageOf(event);
    const trajectoryUpdate = event.trajectoryStateUpdate;
    if (stepUpdate === undefined && usage === undefined && trajectoryUpdate === undefined) return;
    const stepKey = `${stepUpdate?.trajectoryId ?? ""}:${String(stepUpdate?.stepIndex ?? 0)}`;
    if (stepUpdate !== undefined && EXAMPLE_FIXTURES.has(flow) && current?.finished.has(stepKey)) finishRun();
    const otherTrajectory = current?.mainTrajectoryId !== undefined && (stepUpdate?.trajectoryId ?? "") !== current.mainTrajectoryId;
    if (stepUpdate !== undefined && otherTrajectory && !SUBAGENT_FIXTURES.has(flow)) finishRun();
    current ??= { first: index, last: index, events: [], finished: new Set() };
    current.last = index;
    if (usage !== undefined) translator.recordUsage(usage);
    if (stepUpdate !== undefined) {
      // The main trajectory is the one of the turn's first step (docs/protocol.md, "Turn end").
      current.mainTrajectoryId ??= stepUpdate.trajectoryId ?? "";
      const step = normalizer.normalize(stepUpdate, { mainTrajectoryId: current.mainTrajectoryId, event });
      current.events.push(...translator.translate(step));
      if (step.status === "done" || step.status === "error") current.finished.add(stepKey);
    }
    const idle = trajectoryUpdate?.state === "STATE_FULLY_IDLE" || trajectoryUpdate?.state === "STATE_IDLE";
    if (trajectoryUpdate !== undefined && idle && trajectoryUpdate.trajectoryId !== current.mainTrajectoryId) {
      const end = trajectoryUpdate.error ? { trajectoryId: trajectoryUpdate.trajectoryId ?? "", error: trajectoryUpdate.error } : { trajectoryId: trajectoryUpdate.trajectoryId ?? "" };
      current.events.push(...translator.finishSubagent(end));
    }
  });
  finishRun();
  return runs;
}

describe("golden AG-UI sequences of the captured harness flows", () => {
  it("covers every fixture flow that carries steps or usage", () => {
    expect(flows.length).toBeGreaterThanOrEqual(10);
  });

  it.each(flows)("%s", async (flow) => {
    const runs = translateFlow(flow);
    const stream = runs.flatMap((run) => run.events);
    const view = await replayThroughClient(stream);
    expect(view.warnings).toEqual([]);
    for (const message of view.messages) {
      if (message.role !== "assistant") continue;
      for (const call of message.toolCalls ?? []) expect(() => JSON.parse(call.function.arguments) as unknown).not.toThrow();
    }
    const golden = {
      flow,
      source: `fixtures/protocol/${flow}.json`,
      producedBy: "packages/translator/test/golden-flows.test.ts (UPDATE_GOLDEN=1 to rewrite)",
      runs,
      messages: view.messages,
      state: view.state,
    };
    const file = join(goldenDir, `${flow}.json`);
    if (updating) {
      mkdirSync(goldenDir, { recursive: true });
      writeFileSync(file, `${JSON.stringify(golden, null, 2)}\n`);
      return;
    }
    expect(existsSync(file), `${file} is missing: run the tests with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(golden).toEqual(JSON.parse(readFileSync(file, "utf8")) as unknown);
  });
});
