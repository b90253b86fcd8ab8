import { describe, expect, it } from "vitest";
import { PoolError } from "../errors/pool-error.js";
import { resolvePoolSettings, type HarnessPoolSettings } from "./pool-options.js";

function refusal(settings: HarnessPoolSettings): string | undefined {
  try {
    resolvePoolSettings(settings);
  } catch (error) {
    if (PoolError.isInstance(error) && error.code === "CONFIG_INVALID") return error.message;
    throw error;
  }
  return undefined;
}

describe("resolvePoolSettings", () => {
  it("applies the documented defaults", () => {
    expect(resolvePoolSettings({})).toMatchObject({
      maxConversationsPerProcess: 8,
      maxProcesses: Number.POSITIVE_INFINITY,
      idleGraceMs: 30_000,
      minIdleProcesses: 0,
      placement: "fill-first",
      healthCheckIntervalMs: 15_000,
      spawnBackoff: { initialDelayMs: 1_000, maxDelayMs: 60_000, resetAfterMs: 60_000 },
    });
  });

  it("refuses values that cannot work, naming the field", () => {
    expect(refusal({ maxConversationsPerProcess: 0 })).toMatch(/maxConversationsPerProcess/);
    expect(refusal({ maxConversationsPerProcess: 1.5 })).toMatch(/maxConversationsPerProcess/);
    expect(refusal({ maxProcesses: 0 })).toMatch(/maxProcesses/);
    expect(refusal({ idleGraceMs: -1 })).toMatch(/idleGraceMs/);
    expect(refusal({ minIdleProcesses: 3, maxProcesses: 2 })).toMatch(/minIdleProcesses/);
    expect(refusal({ placement: "random" as never })).toMatch(/placement/);
    expect(refusal({ spawnBackoff: { initialDelayMs: Number.NaN } })).toMatch(/initialDelayMs/);
    expect(refusal({ maxConversationsPerProcess: 1, minIdleProcesses: 2 })).toBeUndefined();
  });
});
