import { describe, expect, it } from "vitest";
import { Lifetime } from "./lifetime.js";

describe("Lifetime", () => {
  it("aborts its signal with the reason as soon as close() starts, runs the work once and resolves closed after it", async () => {
    const lifetime = new Lifetime();
    let runs = 0;
    let finishWork!: () => void;
    const work = (): Promise<void> => {
      runs += 1;
      return new Promise((resolve) => (finishWork = resolve));
    };
    let closedSettled = false;
    void lifetime.closed.then(() => (closedSettled = true));
    expect(lifetime.signal.aborted).toBe(false);
    expect(lifetime.isClosing).toBe(false);

    const first = lifetime.close(() => new Error("closed for the test"), work);
    expect(lifetime.signal.aborted).toBe(true);
    expect((lifetime.signal.reason as Error).message).toBe("closed for the test");
    expect(lifetime.isClosing).toBe(true);
    expect(lifetime.close(() => new Error("second reason"), work)).toBe(first);
    await Promise.resolve();
    expect(runs).toBe(1);
    expect(closedSettled).toBe(false);

    finishWork();
    await first;
    await lifetime.closed;
    expect(closedSettled).toBe(true);
    expect((lifetime.signal.reason as Error).message).toBe("closed for the test");
  });

  it("resolves closed even when the closing work fails, and close() keeps returning that failure", async () => {
    const lifetime = new Lifetime();
    const failed = lifetime.close(
      () => "reason",
      () => Promise.reject(new Error("could not close")),
    );
    await expect(failed).rejects.toThrow("could not close");
    await expect(lifetime.closed).resolves.toBeUndefined();
    expect(lifetime.close(() => "again")).toBe(failed);
  });

  it("closes with no work at all", async () => {
    const lifetime = new Lifetime();
    await lifetime.close(() => "done");
    await lifetime.closed;
    expect(lifetime.signal.reason).toBe("done");
  });
});

describe("Lifetime re-entrancy", () => {
  it("a closing that calls close() again (from its work or an abort listener) gets the same promise, runs once and throws nothing", async () => {
    const lifetime = new Lifetime();
    let runs = 0;
    const reentered: Promise<void>[] = [];
    lifetime.signal.addEventListener("abort", () => void reentered.push(lifetime.close(() => "from the listener")));
    const first = lifetime.close(
      () => "closing",
      () => {
        runs += 1;
        reentered.push(lifetime.close(() => "from the work"));
      },
    );
    expect(reentered).toEqual([first, first]);
    await first;
    await lifetime.closed;
    expect(runs).toBe(1);
    expect(lifetime.signal.reason).toBe("closing");
  });
});
