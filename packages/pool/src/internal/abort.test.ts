import { describe, expect, it } from "vitest";
import { linkedController, raceAbort, sleep } from "./abort.js";

describe("raceAbort", () => {
  it("settles with the promise when no signal aborts, and detaches its listeners", async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), [controller.signal], () => new Error("aborted"))).resolves.toBe(7);
    controller.abort();
  });

  it("rejects with the mapped reason of whichever signal aborts first, or already has", async () => {
    const first = new AbortController();
    const second = new AbortController();
    const pending = raceAbort(new Promise(() => undefined), [first.signal, second.signal], (signal) => signal.reason);
    second.abort("second");
    await expect(pending).rejects.toBe("second");
    await expect(raceAbort(Promise.resolve(1), [second.signal], () => "mapped")).rejects.toBe("mapped");
  });
});

describe("linkedController", () => {
  it("follows its sources until disposed", () => {
    const source = new AbortController();
    const linked = linkedController([source.signal, undefined]);
    source.abort("why");
    expect(linked.controller.signal.reason).toBe("why");
    const detached = new AbortController();
    const other = linkedController([detached.signal]);
    other.dispose();
    detached.abort();
    expect(other.controller.signal.aborted).toBe(false);
  });
});

describe("sleep", () => {
  it("ends early when its signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = sleep(10_000, controller.signal);
    controller.abort();
    await pending;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
