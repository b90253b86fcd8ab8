import { describe, expect, it } from "vitest";
import { PoolError } from "./pool-error.js";

describe("PoolError", () => {
  it("carries its code, cause and details, and is recognised by brand", () => {
    const cause = new Error("spawn ENOENT");
    const error = new PoolError("SPAWN_BACKOFF", "paused", { cause, retryAfterMs: 250, partitionKey: "partition-1" });
    expect(error).toMatchObject({ name: "PoolError", code: "SPAWN_BACKOFF", retryAfterMs: 250, partitionKey: "partition-1" });
    expect(error.cause).toBe(cause);
    expect(PoolError.isInstance(error)).toBe(true);
    expect(PoolError.isInstance(new Error("plain"))).toBe(false);
    expect(PoolError.isInstance({ [Symbol.for("ag-ui-antigravity.PoolError")]: true })).toBe(true);
    expect(PoolError.isInstance(null)).toBe(false);
  });
});
