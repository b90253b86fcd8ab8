import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmulatorFixture } from "../support/emulator.js";

const FAULTS_MODEL = `emulator:${fileURLToPath(new URL("../../../../fixtures/scenarios/faults.json", import.meta.url))}`;

const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

describe("protocol drift", () => {
  it("names, live, the unknown fields, enum values and unreadable frames a harness sent, and keeps the turns working", async () => {
    const harness = await fixture.start();
    const conversation = await harness.openConversation({ model: FAULTS_MODEL, workspaces: ["/tmp"] });
    expect(harness.driftReport().total).toBe(0);
    for (const message of ["unknown-field", "unknown-enum"]) {
      const result = await conversation.send(message).result;
      expect(result.text).toContain("after");
    }
    const malformed = await conversation.send("malformed").result;
    expect(malformed.text).toContain("after");
    const report = harness.driftReport();
    expect(JSON.stringify(report.unknownFields)).toContain("futureField");
    expect(JSON.stringify(report.enumValues)).toContain("STATE_FROM_THE_FUTURE");
    // A frame that is not JSON is dropped, logged, and counted: the report names it too.
    expect(report.invalidMessages).toEqual([{ kind: "invalid-message", path: "OutputEvent", value: "not JSON", count: 1 }]);
  });
});
