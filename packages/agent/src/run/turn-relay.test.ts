// Golden AG-UI event sequences for the turn relay: hand-written HITL run items (harness steps and
// the bridge's notifications, as the bridge yields them: the harness's mirror steps of the bridge's
// own tools are already gone) go through relayItem onto a real StepTranslator, and the events are
// compared with turn-relay.golden.json. Run with UPDATE_GOLDEN=1 to rewrite the file, then review
// the diff like code.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AGUIEvent } from "@ag-ui/client";
import type { NormalizedStep, TokenUsage } from "@ag-ui-antigravity/harness";
import type { RunItem } from "@ag-ui-antigravity/hitl";
import { sequentialIds, StepTranslator } from "@ag-ui-antigravity/translator";
import { describe, expect, it } from "vitest";
import { relayItem } from "./turn-relay.js";

const goldenPath = fileURLToPath(new URL("./turn-relay.golden.json", import.meta.url));
const updating = process.env["UPDATE_GOLDEN"] === "1";

const USAGE: TokenUsage = { promptTokens: 12, candidatesTokens: 5, totalTokens: 17, thoughtsTokens: 0, cachedContentTokens: 0 };

/** A step of the main trajectory, as the harness's StepNormalizer gives it. */
function step(stepIndex: number, shape: Partial<NormalizedStep> = {}): NormalizedStep {
  const text = shape.text ?? "";
  return {
    id: `main:${stepIndex}`,
    cascadeId: "main",
    trajectoryId: "main",
    stepIndex,
    kind: text === "" ? "unknown" : "text",
    status: "active",
    source: "model",
    target: "user",
    isMainTrajectory: true,
    text,
    textDelta: text,
    thinking: "",
    thinkingDelta: "",
    raw: {},
    ...shape,
  } as NormalizedStep;
}

/** Each flow: the items of one HITL run, in order. */
const FLOWS: Record<string, RunItem[]> = {
  "text-turn": [
    { type: "step", step: step(0, { text: "Hel" }) },
    { type: "step", step: step(0, { text: "Hello", textDelta: "lo", status: "done" }) },
    { type: "turn-ended" },
  ],
  "host-tool-reported-by-the-bridge": [
    { type: "tool-call", source: "server", toolCallId: "call-1", toolName: "lookup_weather", arguments: { city: "Oslo" } },
    { type: "tool-result", toolCallId: "call-1", toolName: "lookup_weather", content: "sunny", output: "sunny", failed: false },
    { type: "tool-call", source: "server", toolCallId: "call-2", toolName: "lookup_weather", arguments: { city: "Bergen" } },
    { type: "tool-result", toolCallId: "call-2", toolName: "lookup_weather", content: "The tool failed.", failed: true },
  ],
  "refused-host-tool-mirror": [
    // A host call refused before it ran (a policy): the bridge reports it from the harness's mirror step.
    { type: "tool-denied", toolCallId: "call-3", toolName: "confirm_booking", arguments: { seat: "12A" }, reason: "denied by policy", hostTool: true },
  ],
  "denied-calls": [
    { type: "tool-denied", toolCallId: "call-4", toolName: "confirm_booking", arguments: { seat: "1C" }, reason: "The user declined.", hostTool: true },
    { type: "tool-denied", toolCallId: "call-5", toolName: "run_command", arguments: { command: "ls" }, reason: "The user declined." },
  ],
  "approval-interrupts": [
    {
      type: "interrupt",
      interrupt: { id: "approval-1", reason: "tool_approval" } as never,
      approval: { toolCallId: "call-6", toolName: "confirm_booking", arguments: { seat: "2B" }, hostTool: true },
    },
    // An approval of a built-in: its card comes from the harness's own step.
    {
      type: "interrupt",
      interrupt: { id: "approval-2", reason: "tool_approval" } as never,
      approval: { toolCallId: "call-7", toolName: "run_command", arguments: { command: "ls" } },
    },
  ],
  "state-and-notes": [
    { type: "state", state: { cart: ["apple"] } },
    { type: "state", state: { cart: ["apple", "pear"] } },
    { type: "relayed", note: { kind: "compaction", note: { trajectoryId: "main", stepIndex: 3, summary: "Earlier: the user asked about fruit." } } },
    // A note the bridge carried that is not the agent's: nothing.
    { type: "relayed", note: { something: "else" } },
  ],
};

function relayed(items: readonly RunItem[]): AGUIEvent[] {
  const translator = new StepTranslator({ ids: sequentialIds() });
  const events: AGUIEvent[] = [];
  translator.startRun();
  for (const item of items) relayItem(item, { translator, usage: () => USAGE }, (event) => void events.push(event));
  return events;
}

describe("relayItem (golden)", () => {
  const actual = Object.fromEntries(Object.entries(FLOWS).map(([flow, items]) => [flow, relayed(items)]));

  if (updating) writeFileSync(goldenPath, `${JSON.stringify(actual, null, 2)}\n`);
  const golden = existsSync(goldenPath) ? (JSON.parse(readFileSync(goldenPath, "utf8")) as Record<string, unknown>) : {};

  it.each(Object.keys(FLOWS))("%s matches its golden sequence", (flow) => {
    expect(actual[flow]).toEqual(golden[flow]);
  });

  it("opens a host tool's card once, says a refused host call, and closes every denied call's card", () => {
    const types = (flow: string): string[] => (actual[flow] ?? []).map((event) => event.type);
    const starts = (actual["host-tool-reported-by-the-bridge"] ?? []).filter((event) => event.type === "TOOL_CALL_START");
    expect(starts.map((event) => ("toolCallId" in event ? event.toolCallId : undefined))).toEqual(["call-1", "call-2"]);
    expect(types("refused-host-tool-mirror")).toContain("TOOL_CALL_START");
    expect(types("refused-host-tool-mirror")).toContain("TOOL_CALL_RESULT");
    expect(types("denied-calls").filter((type) => type === "TOOL_CALL_START")).toHaveLength(1);
    expect(types("approval-interrupts").filter((type) => type === "TOOL_CALL_START")).toHaveLength(1);
  });
});
