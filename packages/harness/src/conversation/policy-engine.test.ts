import { describe, expect, it } from "vitest";
import { PolicyEngine } from "./policy-engine.js";

describe("PolicyEngine", () => {
  it("lets an exact name beat a wildcard regardless of order", () => {
    const engine = new PolicyEngine([
      { tool: "*", decision: "allow" },
      { tool: "run_command", decision: "deny" },
    ]);
    expect(engine.evaluate("run_command")?.decision).toBe("deny");
    expect(engine.evaluate("view_file")?.decision).toBe("allow");
  });

  it("prefers the longer literal among wildcards and honours server scoping", () => {
    const engine = new PolicyEngine([
      { tool: "*", decision: "deny" },
      { tool: "read_*", decision: "allow" },
      { tool: "read_*", decision: "confirm", server: "remote" },
    ]);
    expect(engine.evaluate("read_file")?.decision).toBe("allow");
    expect(engine.evaluate("read_file", "remote")?.decision).toBe("confirm");
    expect(engine.evaluate("write_file")?.decision).toBe("deny");
  });

  it("returns undefined when nothing matches, and escapes regex characters", () => {
    const engine = new PolicyEngine([{ tool: "a.b", decision: "deny" }]);
    expect(engine.evaluate("axb")).toBeUndefined();
    expect(engine.evaluate("a.b")?.decision).toBe("deny");
  });
});
