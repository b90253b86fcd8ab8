import { EventType } from "@ag-ui/core";
import jsonPatch from "fast-json-patch";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StateChannel } from "./state-channel.js";

describe("StateChannel", () => {
  it("sends a snapshot first, then patches that rebuild every later state", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }), { minLength: 1, maxLength: 6 }), (states) => {
        const channel = new StateChannel();
        let clientState: unknown;
        states.forEach((state, index) => {
          for (const event of channel.change(state)) {
            if (index === 0) expect(event.type).toBe(EventType.STATE_SNAPSHOT);
            clientState = event.type === EventType.STATE_SNAPSHOT ? event.snapshot : jsonPatch.applyPatch(clientState, event.delta, true, false).newDocument;
          }
          expect(clientState).toEqual(JSON.parse(JSON.stringify(state)));
        });
      }),
    );
  });

  it("snapshots again after a run boundary, and when the state changes between object and array", () => {
    const channel = new StateChannel();
    channel.change({ a: 1 });
    expect(channel.change([1])[0]?.type).toBe(EventType.STATE_SNAPSHOT);
    channel.startRun();
    expect(channel.change([1, 2])[0]?.type).toBe(EventType.STATE_SNAPSHOT);
    expect(channel.change([1, 2])).toEqual([]);
  });

  it("keeps its own copy, so a caller mutating its state afterwards changes nothing sent", () => {
    const channel = new StateChannel();
    const state = { items: ["a"] };
    channel.change(state);
    state.items.push("b");
    expect(channel.change({ items: ["a"] })).toEqual([]);
  });
});
