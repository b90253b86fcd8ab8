import { describe, expect, it } from "vitest";
import { TurnDeduplicator } from "./turn-deduplicator.js";

describe("TurnDeduplicator", () => {
  it("passes a failed first dispatch on to its waiters, and lets a later identical call try again", async () => {
    const deduplicator = new TurnDeduplicator();
    let attempts = 0;
    const failing = () => Promise.reject(new Error(`attempt ${++attempts}`));
    const first = deduplicator.run("t", { a: 1 }, failing);
    const identical = deduplicator.run("t", { a: 1 }, failing);
    const other = deduplicator.run("t", { a: 2 }, failing);
    await expect(first).rejects.toThrow("attempt 1");
    await expect(identical).rejects.toThrow("attempt 1");
    await expect(other).rejects.toThrow("attempt 1");
    await expect(deduplicator.run("t", { a: 1 }, failing)).rejects.toThrow("attempt 2");
  });

  it("keys on canonical arguments and keeps tools apart", async () => {
    const deduplicator = new TurnDeduplicator();
    let calls = 0;
    const dispatch = () => Promise.resolve(++calls);
    expect(await deduplicator.run("t", { a: 1, b: 2 }, dispatch)).toBe(1);
    expect(await deduplicator.run("t", { b: 2, a: 1 }, dispatch)).toBe(1);
    expect(await deduplicator.run("u", { a: 1, b: 2 }, dispatch)).toBe(2);
    deduplicator.clear();
    expect(await deduplicator.run("t", { a: 1, b: 2 }, dispatch)).toBe(3);
  });
});
