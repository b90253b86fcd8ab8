import { describe, expect, it } from "vitest";
import { DriftRegistry } from "./drift.js";
import { OutputEventSchema } from "./messages.js";
import { parseOutputEvent } from "./parse.js";
import { plainUsageUpdateEvent } from "./usage-update-fast-path.js";

const usage = { promptTokenCount: "1530", candidatesTokenCount: "2544", totalTokenCount: "4074", thoughtsTokenCount: "0", cachedContentTokenCount: "0" };
const frame = { seqNum: "9", timestampMicros: "1733000000000000", usageUpdate: { agents: [{ trajectoryId: "t", usage }], total: usage } };

describe("the usage update fast path", () => {
  it("takes a plain usage update as is, equal to what the schema parse returns", () => {
    const numeric = { usageUpdate: { agents: [], total: { promptTokenCount: 3, totalTokenCount: 3, serviceTier: "standard" } } };
    for (const plain of [frame, numeric]) {
      expect(plainUsageUpdateEvent(plain)).toBe(plain);
      expect(parseOutputEvent(JSON.stringify(plain))).toEqual(OutputEventSchema.parse(plain));
    }
  });

  it("leaves anything else to the full parse, which still records drift and renames snake_case keys", () => {
    const unusual = [
      { usageUpdate: { ...frame.usageUpdate, total: { ...usage, promptTokenCount: "1.5" } } },
      { usageUpdate: { ...frame.usageUpdate, total: { ...usage, promptTokenCount: 1.5 } } },
      { usageUpdate: { ...frame.usageUpdate, total: { ...usage, promptTokenCount: 2 ** 60 } } },
      { usageUpdate: { ...frame.usageUpdate, total: { ...usage, newCount: "1" } } },
      { usageUpdate: { ...frame.usageUpdate, agents: [{ trajectoryId: 1, usage }] } },
      { usageUpdate: { ...frame.usageUpdate, agents: [{ trajectory_id: "t", usage }] } },
      { usageUpdate: { ...frame.usageUpdate, agents: {} } },
      { usageUpdate: { ...frame.usageUpdate, extra: true } },
      { usageUpdate: frame.usageUpdate, stepUpdate: {} },
      { ...frame, timestampMicros: "soon" },
    ];
    for (const odd of unusual) expect(plainUsageUpdateEvent(odd)).toBeUndefined();
    const drift = new DriftRegistry();
    const renamed = parseOutputEvent(JSON.stringify({ usageUpdate: { agents: [{ trajectory_id: "t", usage, extra: 1 }], total: usage } }), { drift });
    expect(renamed.usageUpdate?.agents?.[0]?.trajectoryId).toBe("t");
    expect(drift.snapshot().unknownFields).toHaveLength(1);
    expect(() => parseOutputEvent(JSON.stringify({ usageUpdate: { total: { promptTokenCount: 1.5 } } }))).toThrow(/promptTokenCount/);
  });
});
