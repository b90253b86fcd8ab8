import { describe, expect, it } from "vitest";
import { raceAbort } from "./race-abort.js";

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
