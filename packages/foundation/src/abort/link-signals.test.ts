import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { linkSignals } from "./link-signals.js";

describe("linkSignals", () => {
  it("aborts with the reason of the first source that aborts", () => {
    const first = new AbortController();
    const second = new AbortController();
    const link = linkSignals([first.signal, undefined, second.signal]);
    expect(link.signal.aborted).toBe(false);
    second.abort("second went");
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe("second went");
    first.abort("first went later");
    expect(link.signal.reason).toBe("second went");
  });

  it("is aborted at once when a source already is", () => {
    const live = new AbortController();
    const link = linkSignals([live.signal, AbortSignal.abort("already")]);
    expect(link.signal.reason).toBe("already");
    expect(getEventListeners(live.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on a long-lived source once unlinked, however many links it served", () => {
    const lifetime = new AbortController();
    for (let index = 0; index < 2_000; index += 1) {
      const link = linkSignals([lifetime.signal, new AbortController().signal]);
      if (index % 500 === 0) expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(1);
      link.unlink();
    }
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(0);
  });

  it("unlinks itself from every source when one aborts", () => {
    const lifetime = new AbortController();
    const turn = new AbortController();
    const link = linkSignals([lifetime.signal, turn.signal]);
    turn.abort();
    expect(link.signal.aborted).toBe(true);
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(0);
    link.unlink();
  });
});
