import { describe, expect, it } from "vitest";
import { PendingReplies } from "./pending-replies.js";

describe("PendingReplies", () => {
  it("delivers a reply to its waiter once and reports replies nobody waits for", async () => {
    const pending = new PendingReplies();
    const reply = pending.wait<string>("tool:1", { signal: new AbortController().signal });
    expect(pending.resolve("tool:2", "other")).toBe(false);
    expect(pending.resolve("tool:1", "result")).toBe(true);
    expect(pending.resolve("tool:1", "again")).toBe(false);
    await expect(reply).resolves.toBe("result");
    expect(pending.size).toBe(0);
  });

  it("rejects with the abort reason, also when already aborted", async () => {
    const pending = new PendingReplies();
    const controller = new AbortController();
    const reply = pending.wait("hook:1", { signal: controller.signal });
    controller.abort(new Error("halted"));
    await expect(reply).rejects.toThrow("halted");
    expect(pending.has("hook:1")).toBe(false);
    await expect(pending.wait("hook:2", { signal: controller.signal })).rejects.toThrow("halted");
  });
});
