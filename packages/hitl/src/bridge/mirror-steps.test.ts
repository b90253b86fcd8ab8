import type { NormalizedStep, StepToolCall } from "@ag-ui-antigravity/harness";
import { describe, expect, it } from "vitest";
import { itemOfStep } from "./mirror-steps.js";

const HOST_TOOLS: ReadonlySet<string> = new Set(["lookup_weather"]);

function toolStep(tool: Partial<StepToolCall> & { kind: StepToolCall["kind"]; name: string }, shape: Partial<NormalizedStep> = {}): NormalizedStep {
  return {
    id: "main:1",
    cascadeId: "main",
    trajectoryId: "main",
    stepIndex: 1,
    kind: tool.kind === "custom" ? "custom_tool" : "builtin_tool",
    status: "done",
    source: "model",
    target: "environment",
    isMainTrajectory: true,
    text: "",
    textDelta: "",
    thinking: "",
    thinkingDelta: "",
    raw: {},
    tool: { actionField: "customTool", arguments: { city: "Oslo" }, ...tool } as StepToolCall,
    ...shape,
  } as NormalizedStep;
}

describe("itemOfStep", () => {
  it("drops the harness's mirror of a call of the bridge's own tools: the bridge reports that call itself", () => {
    expect(itemOfStep(toolStep({ kind: "custom", name: "lookup_weather", callId: "call-1" }), HOST_TOOLS)).toBeUndefined();
    expect(itemOfStep(toolStep({ kind: "custom", name: "lookup_weather", callId: "call-1" }, { status: "active" }), HOST_TOOLS)).toBeUndefined();
  });

  it("reports a host call the harness refused as tool-denied, with the harness's reason", () => {
    const refused = toolStep({ kind: "custom", name: "lookup_weather", callId: "call-2" }, { status: "error", error: { message: "denied by policy" } } as Partial<NormalizedStep>);
    expect(itemOfStep(refused, HOST_TOOLS)).toEqual({ type: "tool-denied", toolCallId: "call-2", toolName: "lookup_weather", arguments: { city: "Oslo" }, reason: "denied by policy", hostTool: true });
  });

  it("passes every other step on: built-ins, and custom tools that are not the bridge's", () => {
    const builtin = toolStep({ kind: "builtin", name: "list_directory", callId: "call-3" });
    const foreign = toolStep({ kind: "custom", name: "someone_elses", callId: "call-4" }, { status: "error" });
    expect(itemOfStep(builtin, HOST_TOOLS)).toEqual({ type: "step", step: builtin });
    expect(itemOfStep(foreign, HOST_TOOLS)).toEqual({ type: "step", step: foreign });
  });
});
