import { describe, expect, it } from "vitest";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import { resolveAgentRouterOptions } from "./binding-options.js";

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return ExpressBindingError.isInstance(error) ? error.code : "not a binding error";
  }
  return undefined;
}

describe("resolveAgentRouterOptions", () => {
  it("fills in the documented defaults", () => {
    const resolved = resolveAgentRouterOptions();
    expect(resolved).toMatchObject({
      basePath: "",
      maxBodyBytes: 1_048_576,
      keepAliveIntervalMs: 15_000,
      firstEventTimeoutMs: 10_000,
      maxBufferedBytes: 8 * 1_048_576,
      maxThreadOwners: 100_000,
      healthPath: "/healthz",
      authorize: undefined,
    });
  });

  it("normalises paths and turns the health route off with false", () => {
    const resolved = resolveAgentRouterOptions({ path: "/agents/", healthPath: false });
    expect(resolved.basePath).toBe("/agents");
    expect(resolved.healthPath).toBeUndefined();
  });

  it.each([
    ["a pattern path", { path: "/agents/:id" }],
    ["a relative path", { path: "agents" }],
    ["a zero body limit", { maxBodyBytes: 0 }],
    ["a negative interval", { keepAliveIntervalMs: -1 }],
    ["a non-function authorize", { authorize: "yes" }],
    ["a status outside 4xx/5xx", { runErrorStatuses: { BUSY: 200 } }],
    ["an unknown option", { keepAlive: 5 }],
    ["a replica id that is not header-safe", { replicaId: "a b\r\n" }],
    ["a bare slash health path", { healthPath: "/" }],
  ])("rejects %s with CONFIG_INVALID", (_label, options) => {
    expect(codeOf(() => resolveAgentRouterOptions(options as never))).toBe("CONFIG_INVALID");
  });
});
