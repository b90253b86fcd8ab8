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

  it.each(demoFeatures)("%s validates against the emulator's scenario schema and ends with the demo scenario's rules", async (feature) => {
    const scenario = await loadScenario(scenarioPath(feature));
    const demo = loadScenario("demo");
    expect(scenario.name).toBe(feature);
    expect(scenario.fallback).toBe("demo");
    // Its own rules first, then every demo rule (call a tool named in the message, …, echo), the same objects.
    expect(scenario.rules.slice(-demo.rules.length)).toEqual(demo.rules);
    expect(scenario.rules.length).toBeGreaterThan(demo.rules.length);
    expect(demo.rules.at(-1)?.when).toEqual({});
  });
});
