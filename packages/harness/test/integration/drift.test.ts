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

  it("reports each observation with the harness version, and warns once per new kind", async () => {
    const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const observed: { entry: unknown; harnessVersion: string }[] = [];
    const harness = await fixture.start({
      logger: { warn: (fields, message = "") => warnings.push({ message, fields }) },
      onDrift: (entry, { harnessVersion }) => observed.push({ entry, harnessVersion }),
    });
    const conversation = await harness.openConversation({ model: FAULTS_MODEL, workspaces: ["/tmp"] });
    await conversation.send("unknown-field").result;
    await conversation.send("unknown-field").result;
    expect(harness.harnessVersion).toContain("harness-emulator");
    expect(observed.length).toBeGreaterThanOrEqual(2);
    expect(observed.every((item) => item.harnessVersion === harness.harnessVersion)).toBe(true);
    const driftWarnings = warnings.filter((warning) => warning.message.startsWith("harness protocol drift: the harness sent something"));
    const futureFieldWarnings = driftWarnings.filter((warning) => warning.fields?.["key"] === "futureField");
    // Observed twice, warned once.
    expect(observed.filter((item) => JSON.stringify(item.entry).includes("futureField")).length).toBeGreaterThanOrEqual(2);
    expect(futureFieldWarnings).toHaveLength(1);
  });
});
