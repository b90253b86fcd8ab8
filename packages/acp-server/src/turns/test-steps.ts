// Normalized steps for the unit tests, as the harness client delivers them.
import type { NormalizedStep } from "@ag-ui-antigravity/harness";

export function testStep(overrides: Partial<NormalizedStep> & { stepIndex: number }): NormalizedStep {
  const trajectoryId = overrides.trajectoryId ?? "t1";
  return {
    id: `${trajectoryId}:${overrides.stepIndex}`,
    cascadeId: "c1",
    trajectoryId,
    kind: "text",
    status: "active",
    source: "model",
    target: "user",
    isMainTrajectory: true,
    text: "",
    textDelta: "",
    thinking: "",
    thinkingDelta: "",
    raw: {} as NormalizedStep["raw"],
    ...overrides,
  };
}
