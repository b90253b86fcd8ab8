import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { pause, sleep } from "./sleep.js";

describe("sleep", () => {
  it("resolves after the delay and leaves no listener on the signal", async () => {
    const controller = new AbortController();
    await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects with the signal's own reason when aborted mid-wait, long before the delay", async () => {
    const controller = new AbortController();
    const reason = new Error("stop now");
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects at once on an aborted signal, with an AbortError when no reason was given", async () => {
    await expect(sleep(60_000, AbortSignal.abort("gone"))).rejects.toBe("gone");
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(60_000, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("pause", () => {
  it("ends early without rejecting when aborted", async () => {
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    controller.abort(new Error("shutdown"));
    await expect(waiting).resolves.toBeUndefined();
  });
});
