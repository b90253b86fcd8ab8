import { describe, expect, it } from "vitest";
import type { HitlNotification } from "./notifications.js";
import { SharedState } from "./shared-state.js";

function setup() {
  const pushed: HitlNotification[] = [];
  const run = { push: (notification: HitlNotification) => void pushed.push(notification) };
  const attachment: { run: typeof run | undefined } = { run: undefined };
  const shared = new SharedState(() => attachment.run);
  return { shared, run, attachment, pushed };
}

describe("SharedState", () => {
  it("keeps a write made with no run attached over the next run's state, and delivers it to that run once", () => {
    const { shared, run, pushed } = setup();
    shared.adopt([], { items: ["eggs"] });
    shared.write({ items: ["eggs", "milk"] });
    shared.adopt([], { items: ["eggs"] });
    expect(shared.readState()).toEqual({ items: ["eggs", "milk"] });
    shared.deliverPending(run);
    shared.deliverPending(run);
    expect(pushed).toEqual([{ type: "state", state: { items: ["eggs", "milk"] } }]);
    // Delivered: the client's copy is current again.
    shared.adopt([], { items: ["bread"] });
    expect(shared.readState()).toEqual({ items: ["bread"] });
  });

  it("delivers a write to the attached run at once, as a copy, and leaves nothing pending", () => {
    const { shared, run, attachment, pushed } = setup();
    attachment.run = run;
    const written = { count: 1 };
    shared.write(written);
    written.count = 2;
    shared.deliverPending(run);
    expect(pushed).toEqual([{ type: "state", state: { count: 1 } }]);
  });

  it("adopts a copy of the client's state, keeps the last one when a run sends none, and takes each run's context", () => {
    const { shared } = setup();
    const clientState = { theme: "dark" };
    shared.adopt([{ description: "page", value: "home" }], clientState);
    clientState.theme = "light";
    shared.adopt([], null);
    expect(shared.readState()).toEqual({ theme: "dark" });
    expect(shared.readContext()).toEqual([]);
  });

  it("snapshots an object state as a copy, and nothing else", () => {
    const { shared } = setup();
    shared.adopt([], ["not", "an", "object"]);
    expect(shared.snapshot()).toBeUndefined();
    shared.adopt([], { step: 1 });
    const snapshot = shared.snapshot();
    expect(snapshot).toEqual({ step: 1 });
    expect(snapshot).not.toBe(shared.readState());
  });
});
