import { readdir } from "node:fs/promises";
import { loadScenario } from "@ag-ui-antigravity/harness-emulator";
import { describe, expect, it } from "vitest";
import { demoFeatures, scenarioPath } from "../src/agents/demo-agent-environment.js";
import { scenariosDirectory } from "../src/package-paths.js";

describe("emulator scenarios", () => {
  it("exist for exactly the demo features", async () => {
    const files = (await readdir(scenariosDirectory())).filter((file) => file.endsWith(".json")).sort();
    expect(files).toEqual(demoFeatures.map((feature) => `${feature}.json`).sort());
  });

  it.each(demoFeatures)("%s validates against the emulator's scenario schema and ends with a catch-all rule", async (feature) => {
    const scenario = await loadScenario(scenarioPath(feature));
    expect(scenario.name).toBe(feature);
    expect(scenario.rules.at(-1)?.when).toEqual(expect.not.objectContaining({ text: expect.anything() }));
  });
});
