// Frames a harness should not send (the emulator's fault actions json-malform and field-unknown):
// the turn goes on, nothing crashes, and what was not understood is named for the operator.
import { describe, expect, it } from "vitest";
import { faultsModel, ThreadClient, useStacks } from "../support/stack.js";

const { startStack } = useStacks();

interface DriftCount {
  kind: string;
  path: string;
  value: string | number;
  count: number;
}

describe("malformed and unknown harness frames", () => {
  it("a frame that is not JSON and frames with unknown fields, enum values and events: no crash, every turn answers, the drift report names them", async () => {
    const stack = await startStack({ chat: { model: faultsModel } });
    const client = new ThreadClient(`${stack.url}/chat`);
    for (const fault of ["malformed", "unknown-field", "unknown-enum", "unknown-event"]) {
      await client.say(fault);
      expect(client.runError, fault).toBeUndefined();
      expect(client.lastAssistantText(), fault).toBe("after");
    }
    await client.say("and then");
    expect(client.lastAssistantText()).toBe("ok: and then");
    expect((await stack.agents.chat!.poolMetrics()).totals.crashes).toBe(0);

    // The frame that does not parse is logged when it arrives, with the parser's reason.
    const malformed = stack.logger.matching(/does not parse/, "warn");
    expect(malformed).toHaveLength(1);
    expect(String(malformed[0]!.details["error"])).toMatch(/JSON/i);

    // Each new kind of drift is warned as it first appears; the full report is logged once, when the
    // harness process stops.
    await stack.close();
    const warnings = stack.logger.matching(/protocol drift/, "warn");
    const reports = warnings.filter((warning) => warning.details["drift"] !== undefined);
    expect(reports).toHaveLength(1);
    expect(warnings.length).toBeGreaterThan(1);
    const drift = reports[0]!.details["drift"] as { enumValues: DriftCount[]; unknownFields: DriftCount[]; invalidMessages: DriftCount[]; total: number };
    expect(drift.unknownFields.map((entry) => entry.value)).toEqual(expect.arrayContaining(["futureField", "brandNewEvent"]));
    expect(drift.enumValues.map((entry) => entry.value)).toContain("STATE_FROM_THE_FUTURE");
    // The frame that was not JSON is named in the report too, not only in the log line.
    expect(drift.invalidMessages.map((entry) => [entry.value, entry.count])).toEqual([["not JSON", 1]]);
    expect(drift.total).toBeGreaterThanOrEqual(4);
  });
});
