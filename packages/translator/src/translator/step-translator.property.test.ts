import type { NormalizedStep, StepToolCall } from "@ag-ui-antigravity/harness";
import { type BaseEvent, EventType } from "@ag-ui/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replayThroughClient } from "../../test/support/agui-client.js";
import { step } from "../../test/support/steps.js";
import { sequentialIds } from "../ids/id-generator.js";
import { StepTranslator } from "./step-translator.js";

/** One step of a generated turn and the deliveries the harness makes of it, in order. */
interface ScriptedStep {
  deliveries: NormalizedStep[];
  finalText: string;
  finalThinking: string;
  call?: { name: string; arguments: Record<string, unknown> };
}

const chunk = fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 });
const stepShape = fc.record({
  text: fc.array(chunk, { maxLength: 3 }),
  thinking: fc.array(chunk, { maxLength: 2 }),
  toolArguments: fc.option(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), { nil: undefined }),
  finishes: fc.boolean(),
});
type StepShape = typeof stepShape extends fc.Arbitrary<infer Shape> ? Shape : never;

function scriptStep(trajectoryId: string, stepIndex: number, shape: StepShape): ScriptedStep {
  const deliveries: NormalizedStep[] = [];
  let thinking = "";
  let text = "";
  const base = { trajectoryId, stepIndex, isMainTrajectory: trajectoryId === "main" };
  for (const piece of shape.thinking) {
    thinking += piece;
    deliveries.push(step({ ...base, thinking, thinkingDelta: piece }));
  }
  for (const piece of shape.text) {
    text += piece;
    deliveries.push(step({ ...base, thinking, text, textDelta: piece }));
  }
  let tool: StepToolCall | undefined;
  let call: ScriptedStep["call"];
  if (shape.toolArguments !== undefined) {
    call = { name: `tool_${trajectoryId}_${stepIndex}`, arguments: shape.toolArguments };
    tool = { kind: "builtin", name: call.name, actionField: "listDirectory", arguments: shape.toolArguments };
    deliveries.push(step({ ...base, thinking, text, textDelta: "", kind: "builtin_tool", tool }));
  }
  if (shape.finishes) {
    const done = { ...base, thinking, text, textDelta: "", status: "done" as const };
    deliveries.push(step(tool === undefined ? done : { ...done, kind: "builtin_tool", tool: { ...tool, result: { output: "ok" } } }));
  }
  const scripted: ScriptedStep = { deliveries, finalText: text, finalThinking: thinking };
  if (call !== undefined) scripted.call = call;
  return scripted;
}

/** The main trajectory's `invoke_subagent` step, which stays ACTIVE until its last delivery. */
function invokeStep(): ScriptedStep {
  const tool: StepToolCall = { kind: "subagent", name: "invoke_subagent", actionField: "invokeSubagent", arguments: {} };
  const base = { stepIndex: 0, text: "Invoking subagent", kind: "subagent" as const, tool };
  return {
    deliveries: [step(base), step({ ...base, textDelta: "", status: "done" })],
    finalText: "Invoking subagent",
    finalThinking: "",
    call: { name: "invoke_subagent", arguments: {} },
  };
}

const action = fc.record({
  pick: fc.nat(),
  redeliver: fc.option(fc.nat(), { freq: 4, nil: undefined }),
  boundary: fc.constantFrom("none", "none", "none", "none", "close", "abort"),
});

const turn = fc.record({
  main: fc.array(stepShape, { minLength: 1, maxLength: 4 }),
  sub: fc.array(stepShape, { maxLength: 4 }),
  actions: fc.array(action, { minLength: 1, maxLength: 60 }),
});

describe("StepTranslator under random delivery", () => {
  it("never produces an invalid stream, a duplicated call or a broken argument buffer", async () => {
    await fc.assert(
      fc.asyncProperty(turn, async ({ main, sub, actions }) => {
        const steps = [
          invokeStep(),
          ...main.map((shape, index) => scriptStep("main", index + 1, shape)),
          // The subagent's indices overlap the main trajectory's on purpose.
          ...sub.map((shape, index) => scriptStep("sub", index, shape)),
        ];
        const queues = steps.map((scripted) => [...scripted.deliveries]);
        const delivered: NormalizedStep[] = [];
        const translator = new StepTranslator({ ids: sequentialIds() });
        const stream: BaseEvent[] = [];
        let run = 0;
        const startRun = () => {
          run += 1;
          stream.push({ type: EventType.RUN_STARTED, threadId: "thread-1", runId: `run-${run}` });
        };
        startRun();
        const actionQueue = [...actions];
        while (queues.some((queue) => queue.length > 0)) {
          const next = actionQueue.shift() ?? { pick: 0, redeliver: undefined, boundary: "none" as const };
          const open = queues.filter((queue) => queue.length > 0);
          const delivery = (open[next.pick % open.length] as NormalizedStep[]).shift() as NormalizedStep;
          delivered.push(delivery);
          stream.push(...translator.translate(delivery));
          if (next.redeliver !== undefined) stream.push(...translator.translate(delivered[next.redeliver % delivered.length] as NormalizedStep));
          if (next.boundary === "close") {
            stream.push(...translator.closeRun(), { type: EventType.RUN_FINISHED, threadId: "thread-1", runId: `run-${run}` });
            startRun();
          } else if (next.boundary === "abort") {
            // A client disconnect: the run ends without closeRun(), the next one starts clean.
            stream.push({ type: EventType.RUN_ERROR, message: "disconnected" });
            translator.startRun();
            startRun();
          }
        }
        stream.push(...translator.closeRun(), { type: EventType.RUN_FINISHED, threadId: "thread-1", runId: `run-${run}` });

        const view = await replayThroughClient(stream);
        expect(view.warnings).toEqual([]);

        const starts = stream.filter((event) => event.type === EventType.TOOL_CALL_START);
        const startedIds = starts.map((event) => event["toolCallId"] as string);
        expect(new Set(startedIds).size).toBe(startedIds.length);
        const resultIds = stream.filter((event) => event.type === EventType.TOOL_CALL_RESULT).map((event) => event["toolCallId"] as string);
        expect(new Set(resultIds).size).toBe(resultIds.length);
        const expectedCalls = steps.flatMap((scripted) => (scripted.call === undefined ? [] : [scripted.call]));
        expect(starts.map((event) => event["toolCallName"]).sort()).toEqual(expectedCalls.map((call) => call.name).sort());
        for (const start of starts) {
          const buffer = stream
            .filter((event) => event.type === EventType.TOOL_CALL_ARGS && event["toolCallId"] === start["toolCallId"])
            .map((event) => event["delta"] as string)
            .join("");
          const expected = expectedCalls.find((call) => call.name === start["toolCallName"]);
          expect(JSON.parse(buffer)).toEqual(JSON.parse(JSON.stringify(expected?.arguments)));
        }

        // Every character of text and thinking arrives exactly once, and no delta is empty.
        const deltas = (type: EventType) => stream.filter((event) => event.type === type).map((event) => event["delta"] as string);
        expect(deltas(EventType.TEXT_MESSAGE_CONTENT).every((delta) => delta !== "")).toBe(true);
        expect(deltas(EventType.TEXT_MESSAGE_CONTENT).join("").length).toBe(steps.reduce((sum, scripted) => sum + scripted.finalText.length, 0));
        expect(deltas(EventType.REASONING_MESSAGE_CONTENT).join("").length).toBe(steps.reduce((sum, scripted) => sum + scripted.finalThinking.length, 0));
      }),
      { numRuns: 150 },
    );
  });
});
