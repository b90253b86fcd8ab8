import { describe, expect, it } from "vitest";
import { DriftRegistry } from "./drift.js";
import { OutputEventSchema } from "./messages.js";
import { parseOutputEvent } from "./parse.js";
import { plainTextStepEvent } from "./text-step-fast-path.js";

const textFrame = {
  seqNum: "41",
  timestampMicros: "1733000000000000",
  stepUpdate: { cascadeId: "c", trajectoryId: "t", stepIndex: 3, state: "STATE_ACTIVE", source: "SOURCE_MODEL", target: "TARGET_USER", text: "Hello wor", textDelta: "wor" },
};

describe("the text step fast path", () => {
  it("takes a plain text or thinking step update as is, equal to what the schema parse returns", () => {
    const thinking = { stepUpdate: { trajectoryId: "t", stepIndex: 0, state: "STATE_ACTIVE", thinking: "hmm", thinkingDelta: "m" } };
    for (const frame of [textFrame, thinking]) {
      expect(plainTextStepEvent(frame)).toBe(frame);
      expect(parseOutputEvent(JSON.stringify(frame))).toEqual(OutputEventSchema.parse(frame));
    }
  });

  it("leaves anything else to the full parse, which still records drift and renames snake_case keys", () => {
    const unusual = [
      { stepUpdate: { ...textFrame.stepUpdate, newField: 1 } },
      { stepUpdate: { ...textFrame.stepUpdate, state: "STATE_TELEPORTING" } },
      { stepUpdate: { ...textFrame.stepUpdate, state: 1 } },
      { stepUpdate: { ...textFrame.stepUpdate, stepIndex: "3" } },
      { stepUpdate: { ...textFrame.stepUpdate, text: 5 } },
      { stepUpdate: { trajectory_id: "t", text: "x" } },
      { stepUpdate: textFrame.stepUpdate, usageUpdate: {} },
      { stepUpdate: { ...textFrame.stepUpdate, customTool: {} } },
      { stepUpdate: [] },
      { ...textFrame, seqNum: "4.5" },
      { ...textFrame, seqNum: true },
      { trajectoryStateUpdate: { trajectoryId: "t", state: "STATE_FULLY_IDLE" } },
    ];
    for (const frame of unusual) expect(plainTextStepEvent(frame)).toBeUndefined();
    const drift = new DriftRegistry();
    const renamed = parseOutputEvent(JSON.stringify({ stepUpdate: { trajectory_id: "t", state: "STATE_TELEPORTING", extra: true } }), { drift });
    expect(renamed.stepUpdate?.trajectoryId).toBe("t");
    const report = drift.snapshot();
    expect(report.enumValues).toHaveLength(1);
    expect(report.unknownFields).toHaveLength(1);
    expect(() => parseOutputEvent(JSON.stringify({ stepUpdate: { ...textFrame.stepUpdate, text: 5 } }))).toThrow(/stepUpdate\.text/);
  });
});
