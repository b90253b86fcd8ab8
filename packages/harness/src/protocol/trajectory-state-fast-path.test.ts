import { describe, expect, it } from "vitest";
import { DriftRegistry } from "./drift.js";
import { OutputEventSchema } from "./messages.js";
import { parseOutputEvent } from "./parse.js";
import { plainTrajectoryStateEvent } from "./trajectory-state-fast-path.js";

const idle = { seqNum: "7", timestampMicros: "1733000000000000", trajectoryStateUpdate: { trajectoryId: "t", state: "STATE_FULLY_IDLE" } };

describe("the trajectory state fast path", () => {
  it("takes a plain trajectory state update as is, equal to what the schema parse returns", () => {
    const failed = { trajectoryStateUpdate: { trajectoryId: "t", state: "STATE_IDLE", error: "boom" } };
    for (const frame of [idle, failed, { ...idle, seqNum: 8 }]) {
      expect(plainTrajectoryStateEvent(frame)).toBe(frame);
      expect(parseOutputEvent(JSON.stringify(frame))).toEqual(OutputEventSchema.parse(frame));
    }
  });

  it("leaves anything else to the full parse, which still records drift and renames snake_case keys", () => {
    const unusual = [
      { trajectoryStateUpdate: { ...idle.trajectoryStateUpdate, state: "STATE_DREAMING" } },
      { trajectoryStateUpdate: { ...idle.trajectoryStateUpdate, state: 3 } },
      { trajectoryStateUpdate: { ...idle.trajectoryStateUpdate, error: 1 } },
      { trajectoryStateUpdate: { ...idle.trajectoryStateUpdate, extra: "x" } },
      { trajectoryStateUpdate: { trajectory_id: "t", state: "STATE_RUNNING" } },
      { trajectoryStateUpdate: idle.trajectoryStateUpdate, usageUpdate: {} },
      { trajectoryStateUpdate: [] },
      { ...idle, seqNum: "x" },
      { stepUpdate: { trajectoryId: "t" } },
    ];
    for (const frame of unusual) expect(plainTrajectoryStateEvent(frame)).toBeUndefined();
    const drift = new DriftRegistry();
    const renamed = parseOutputEvent(JSON.stringify({ trajectoryStateUpdate: { trajectory_id: "t", state: "STATE_DREAMING" } }), { drift });
    expect(renamed.trajectoryStateUpdate?.trajectoryId).toBe("t");
    expect(drift.snapshot().enumValues).toHaveLength(1);
  });
});
