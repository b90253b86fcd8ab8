import { describe, expect, it } from "vitest";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import { toAgentRegistry } from "./agent-registry.js";

const agentLike = { run: () => undefined, clone: () => undefined } as never;

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return ExpressBindingError.isInstance(error) ? error.code : "not a binding error";
  }
  return undefined;
}

describe("toAgentRegistry", () => {
  it("tells one agent from a map of agents", () => {
    expect(toAgentRegistry(agentLike).kind).toBe("single");
    const registry = toAgentRegistry({ chat: agentLike, "deep-research_2": agentLike });
    expect(registry.kind === "named" && [...registry.agents.keys()]).toEqual(["chat", "deep-research_2"]);
  });

  it.each([
    ["an empty map", {}],
    ["a name with a slash", { "a/b": agentLike }],
    ["a name with a route pattern", { ":id": agentLike }],
    ["a dot-dot name", { "..": agentLike }],
    ["an entry that is not an agent", { chat: { run: () => undefined } }],
  ])("rejects %s with CONFIG_INVALID", (_label, value) => {
    expect(codeOf(() => toAgentRegistry(value as never))).toBe("CONFIG_INVALID");
  });
});
