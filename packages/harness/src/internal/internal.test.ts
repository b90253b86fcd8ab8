import { afterEach, describe, expect, it, vi } from "vitest";
import { TriggerScheduler } from "../conversation/trigger-scheduler.js";
import { AsyncQueue } from "./async-queue.js";
import { PausableTimer } from "./pausable-timer.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("AsyncQueue", () => {
  it("delivers pushed items, then ends; a bound drops the oldest unread items", async () => {
    const drops: number[] = [];
    const queue = new AsyncQueue<number>({ maxItems: 2, onDrop: (dropped) => drops.push(dropped) });
    queue.push(1);
    queue.push(2);
    queue.push(3);
    queue.end();
    const items: number[] = [];
    for await (const item of queue) items.push(item);
    expect(items).toEqual([2, 3]);
    expect(drops).toEqual([1]);
  });

  it("fails the consumer after the buffered items, and refuses a second consumer", async () => {
    const queue = new AsyncQueue<string>({ maxItems: 10 });
    queue.push("a");
    queue.fail(new Error("gone"));
    const iterator = queue[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: "a", done: false });
    await expect(iterator.next()).rejects.toThrow("gone");
    expect(() => queue[Symbol.asyncIterator]()).toThrow(TypeError);
  });
});

describe("PausableTimer", () => {
  it("does not count paused time", () => {
    vi.useFakeTimers();
    let fired = false;
    const timer = new PausableTimer(100, () => (fired = true));
    timer.start();
    vi.advanceTimersByTime(60);
    timer.pause();
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(false);
    timer.start();
    vi.advanceTimersByTime(39);
    expect(fired).toBe(false);
    vi.advanceTimersByTime(2);
    expect(fired).toBe(true);
  });
});

describe("TriggerScheduler", () => {
  it("collapses missed intervals into one delivery and stops on stop()", () => {
    vi.useFakeTimers();
    let idle = false;
    const delivered: string[] = [];
    const scheduler = new TriggerScheduler([{ message: "tick", intervalMs: 10 }], (trigger) => {
      if (!idle) return false;
      delivered.push(trigger.message);
      return true;
    });
    vi.advanceTimersByTime(100);
    expect(delivered).toEqual([]);
    expect(scheduler.pendingCount).toBe(1);
    idle = true;
    scheduler.flush();
    expect(delivered).toEqual(["tick"]);
    scheduler.stop();
    vi.advanceTimersByTime(100);
    expect(delivered).toEqual(["tick"]);
  });
});
