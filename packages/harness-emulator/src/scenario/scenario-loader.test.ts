import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EmulatorError } from "../errors/emulator-error.js";
import { loadScenario, parseScenario, scenarioFromModelName } from "./scenario-loader.js";

describe("scenario loading", () => {
  it("loads the built-in demo scenario", () => {
    const demo = loadScenario("demo");
    expect(demo.name).toBe("demo");
    expect(demo.rules.map((rule) => rule.name)).toEqual(["trigger", "recap", "call-named-tool", "call-named-mcp-tool", "ask-the-user", "list-files", "echo"]);
  });

  it("loads a scenario from a file path and reports every violation of an invalid one", () => {
    const directory = mkdtempSync(join(tmpdir(), "scenario-"));
    const good = join(directory, "good.json");
    writeFileSync(good, JSON.stringify({ name: "good", rules: [{ actions: [{ type: "text-emit", text: "hi" }] }] }));
    expect(loadScenario(good).rules[0]!.when).toEqual({});
    const bad = join(directory, "bad.json");
    writeFileSync(bad, JSON.stringify({ name: "bad", rules: [{ actions: [{ type: "text-emit" }, { type: "no-such-action" }] }] }));
    try {
      loadScenario(bad);
      expect.unreachable();
    } catch (error) {
      expect(EmulatorError.isInstance(error) && error.code).toBe("SCENARIO_INVALID");
      expect((error as Error).message).toContain("rules.0.actions.0.text");
    }
  });

  it("fails with SCENARIO_NOT_FOUND for unknown names", () => {
    expect(() => loadScenario("does-not-exist")).toThrow(expect.objectContaining({ code: "SCENARIO_NOT_FOUND" }));
  });

  it("validates nested subagent actions", () => {
    expect(() => parseScenario({ name: "x", rules: [{ actions: [{ type: "subagent-run", actions: [{ type: "time-wait" }] }] }] }, "inline")).toThrow(/ms/);
  });

  it("reads `emulator:<scenario>` model names only", () => {
    expect(scenarioFromModelName("emulator:demo")).toBe("demo");
    expect(scenarioFromModelName("emulator:/abs/file.json")).toBe("/abs/file.json");
    expect(scenarioFromModelName("emulator:")).toBeUndefined();
    expect(scenarioFromModelName("gemini-3.6-flash")).toBeUndefined();
    expect(scenarioFromModelName(undefined)).toBeUndefined();
  });
});
