import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmulatorFixture } from "../support/emulator.js";

const FAULTS_MODEL = `emulator:${fileURLToPath(new URL("../../../../fixtures/scenarios/faults.json", import.meta.url))}`;

const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

describe("protocol drift", () => {
  it("names, live, the unknown fields and enum values a harness sent, and keeps the turns working", async () => {
    const harness = await fixture.start();
    const conversation = await harness.openConversation({ model: FAULTS_MODEL, workspaces: ["/tmp"] });
    expect(harness.driftReport().total).toBe(0);
    for (const message of ["unknown-field", "unknown-enum"]) {
      const result = await conversation.send(message).result;
      expect(result.text).toContain("after");
    }
    const report = JSON.stringify(harness.driftReport());
    expect(report).toContain("futureField");
    expect(report).toContain("STATE_FROM_THE_FUTURE");
  });
});
