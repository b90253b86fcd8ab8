import { describe, expect, it } from "vitest";
import { loadFixture, wsMessages } from "../../test/support/protocol-fixtures.js";
import { DriftRegistry } from "./drift.js";
import { parseInitializeConversationEvent, parseInputEvent, parseOutputEvent } from "./parse.js";

describe("DriftRegistry", () => {
  it("counts unknown enum values by path and value, numbers included", () => {
    const drift = new DriftRegistry();
    parseOutputEvent({ stepUpdate: { state: "STATE_TELEPORTING", source: 3 } }, { drift });
    parseOutputEvent({ stepUpdate: { state: "STATE_TELEPORTING" } }, { drift });
    parseOutputEvent({ trajectoryStateUpdate: { state: "STATE_TELEPORTING" } }, { drift });
    expect(drift.snapshot().enumValues).toEqual(
      expect.arrayContaining([
        { kind: "enum-value", path: "OutputEvent.stepUpdate.state", value: "STATE_TELEPORTING", count: 2 },
        { kind: "enum-value", path: "OutputEvent.stepUpdate.source", value: 3, count: 1 },
        { kind: "enum-value", path: "OutputEvent.trajectoryStateUpdate.state", value: "STATE_TELEPORTING", count: 1 },
      ]),
    );
    expect(drift.snapshot().enumValues).toHaveLength(3);
    expect(drift.snapshot().total).toBe(4);
  });

  it("keeps the number 3 and the name '3' apart", () => {
    const drift = new DriftRegistry();
    parseOutputEvent({ stepUpdate: { state: 3 } }, { drift });
    parseOutputEvent({ stepUpdate: { state: "3" } }, { drift });
    expect(drift.snapshot().enumValues.map((entry) => entry.value)).toEqual([3, "3"]);
  });

  it("counts unknown fields by message path and key, inside arrays and nested messages", () => {
    const drift = new DriftRegistry();
    const event = parseOutputEvent(
      {
        brandNewEvent: { k: "v" },
        initializeConversationResponse: { history: [{ futureField: 1 }, { futureField: 2, editFile: { diffBlock: [{ lines: [{ action: "LINE_ACTION_MOVE" }] }] } }] },
      },
      { drift },
    );
    // Unknown fields are kept, not dropped.
    expect((event as Record<string, unknown>)["brandNewEvent"]).toEqual({ k: "v" });
    expect(event.initializeConversationResponse?.history?.[1]).toMatchObject({ futureField: 2 });
    const report = drift.snapshot();
    expect(report.unknownFields).toEqual([
      { kind: "unknown-field", path: "OutputEvent", value: "brandNewEvent", count: 1 },
      { kind: "unknown-field", path: "OutputEvent.initializeConversationResponse.history[]", value: "futureField", count: 2 },
    ]);
    expect(report.enumValues).toEqual([
      {
        kind: "enum-value",
        path: "OutputEvent.initializeConversationResponse.history[].editFile.diffBlock[].lines[].action",
        value: "LINE_ACTION_MOVE",
        count: 1,
      },
    ]);
  });

  it("sees drift in client messages too", () => {
    const drift = new DriftRegistry();
    parseInitializeConversationEvent({ config: { enabledHooks: ["LIFECYCLE_HOOK_ON_DREAM"], futureConfig: true } }, { drift });
    parseInputEvent({ policyDecisionResponse: { outcome: "POLICY_EVALUATION_OUTCOME_MAYBE" } }, { drift });
    expect(drift.snapshot().total).toBe(3);
  });

  it("treats STATE_IDLE (≤0.1.8) and the version fixtures' known spellings as known", () => {
    const drift = new DriftRegistry();
    for (const [, message] of wsMessages(loadFixture("version_aliases"), "harness->client")) parseOutputEvent(message.json, { drift });
    expect(drift.snapshot().enumValues).toEqual([]);
    expect(drift.snapshot().unknownFields.map((entry) => entry.value)).toEqual(["brandNewEvent", "futureField"]);
  });

  it("reset() empties it and isEmpty says so", () => {
    const drift = new DriftRegistry();
    expect(drift.isEmpty).toBe(true);
    parseOutputEvent({ x: 1 }, { drift });
    expect(drift.isEmpty).toBe(false);
    drift.reset();
    expect(drift.isEmpty).toBe(true);
    expect(drift.snapshot()).toEqual({ enumValues: [], unknownFields: [], invalidMessages: [], harnessVersions: [], total: 0 });
  });

  it("hands out snapshots that later records do not change", () => {
    const drift = new DriftRegistry();
    drift.record({ kind: "unknown-field", path: "OutputEvent", key: "a" });
    const before = drift.snapshot();
    drift.record({ kind: "unknown-field", path: "OutputEvent", key: "a" });
    expect(before.unknownFields[0]?.count).toBe(1);
    expect(drift.snapshot().unknownFields[0]?.count).toBe(2);
  });

  it("is per owner: parsing without a registry records nowhere", () => {
    const drift = new DriftRegistry();
    parseOutputEvent({ somethingNew: 1 });
    expect(drift.isEmpty).toBe(true);
  });
});
