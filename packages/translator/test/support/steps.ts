// Hand-written NormalizedStep values, so unit tests read as the harness's behaviour.
import type { NormalizedStep, StepToolCall } from "@ag-ui-antigravity/harness";

export type StepShape = Partial<Omit<NormalizedStep, "raw">> & { trajectoryId?: string; stepIndex?: number };

/** A model step of the main trajectory `main`, ACTIVE unless told otherwise. */
export function step(shape: StepShape = {}): NormalizedStep {
  const trajectoryId = shape.trajectoryId ?? "main";
  const stepIndex = shape.stepIndex ?? 0;
  const text = shape.text ?? "";
  const thinking = shape.thinking ?? "";
  return {
    id: `${trajectoryId}:${stepIndex}`,
    cascadeId: "main",
    kind: text !== "" ? "text" : thinking !== "" ? "thinking" : "unknown",
    status: "active",
    source: "model",
    target: "user",
    isMainTrajectory: trajectoryId === "main",
    textDelta: text,
    thinkingDelta: thinking,
    raw: {},
    ...shape,
    trajectoryId,
    stepIndex,
    text,
    thinking,
  } as NormalizedStep;
}

/** A built-in tool step (`list_directory` unless told otherwise). */
export function toolStep(shape: StepShape & { call?: Partial<StepToolCall> } = {}): NormalizedStep {
  const { call, ...rest } = shape;
  const tool: StepToolCall = { kind: "builtin", name: "list_directory", actionField: "listDirectory", arguments: { directoryPath: "/tmp" }, ...call };
  const kind = tool.kind === "builtin" ? "builtin_tool" : tool.kind === "mcp" ? "mcp_tool" : tool.kind === "custom" ? "custom_tool" : "subagent";
  return step({ kind, target: "environment", ...rest, tool });
}
