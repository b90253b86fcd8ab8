import { describe, expect, it } from "vitest";
import { expectClosesOnce } from "./lifetime-contract.js";

function owner(options: { abortOnClose: boolean; samePromise: boolean }) {
  const controller = new AbortController();
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    if (options.abortOnClose) controller.abort("closed");
    const started = (async () => markClosed())();
    if (!options.samePromise) return started;
    closing ??= started;
    return closing;
  };
  return { signal: controller.signal, closed, close };
}

describe("expectClosesOnce", () => {
  it("passes for an owner that keeps the contract and returns the signal's reason", async () => {
    const kept = owner({ abortOnClose: true, samePromise: true });
    await expect(expectClosesOnce(kept, kept.close)).resolves.toBe("closed");
  });

  it("fails for a signal that does not abort, and for a close() that is not idempotent", async () => {
    const silent = owner({ abortOnClose: false, samePromise: true });
    await expect(expectClosesOnce(silent, silent.close)).rejects.toThrow("signal was not aborted when close() started");
    const repeated = owner({ abortOnClose: true, samePromise: false });
    await expect(expectClosesOnce(repeated, repeated.close)).rejects.toThrow("a second close() is not the first one's promise");
  });
});
