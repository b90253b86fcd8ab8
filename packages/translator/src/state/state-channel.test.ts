import { EventType } from "@ag-ui/core";
import jsonPatch from "fast-json-patch";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StateChannel } from "./state-channel.js";

// Keys the client's patch guard treats specially are drawn often on purpose.
const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "prototype"));
const state = fc.dictionary(key, fc.oneof(fc.jsonValue(), fc.dictionary(key, fc.jsonValue(), { maxKeys: 3 })), { maxKeys: 5 });

describe("StateChannel", () => {
  it("sends a snapshot first, then patches that rebuild every later state on the client", () => {
    fc.assert(
      fc.property(fc.array(state, { minLength: 1, maxLength: 6 }), (states) => {
        const channel = new StateChannel();
        let clientState: unknown;
        states.forEach((next, index) => {
          for (const event of channel.change(next)) {
            if (index === 0) expect(event.type).toBe(EventType.STATE_SNAPSHOT);
            // As @ag-ui/client applies it: validated, not mutating, prototype guard on (the default).
            clientState = event.type === EventType.STATE_SNAPSHOT ? event.snapshot : jsonPatch.applyPatch(clientState, event.delta, true, false).newDocument;
          }
          expect(clientState).toEqual(JSON.parse(JSON.stringify(next)));
        });
      }),
      { numRuns: 300 },
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

  it("snapshots a change the client's patch guard would refuse (a __proto__ or constructor/prototype key)", () => {
    const channel = new StateChannel();
    channel.change({ a: 1 });
    const guarded = JSON.parse('{"a": 1, "__proto__": {"x": 1}}') as unknown;
    expect(channel.change(guarded)).toEqual([{ type: EventType.STATE_SNAPSHOT, snapshot: guarded }]);
    expect(channel.change({ a: 1, constructor: { prototype: 2 } })[0]?.type).toBe(EventType.STATE_SNAPSHOT);
    expect(channel.change({ a: 2, constructor: { prototype: 2 } })[0]?.type).toBe(EventType.STATE_DELTA);
  });

  it("keeps its own copy, so a caller mutating its state afterwards changes nothing sent", () => {
    const channel = new StateChannel();
    const state = { items: ["a"] };
    channel.change(state);
    state.items.push("b");
    expect(channel.change({ items: ["a"] })).toEqual([]);
  });

  it("sets one member by an add, and later deltas of the run count it in their base", () => {
    const channel = new StateChannel();
    let clientState: unknown = { mine: "kept" };
    const apply = (events: ReturnType<StateChannel["change"]>): void => {
      for (const event of events) clientState = event.type === EventType.STATE_SNAPSHOT ? event.snapshot : jsonPatch.applyPatch(clientState, event.delta, true, false).newDocument;
    };
    // No state sent yet in this run: the member is added to whatever the client holds.
    apply(channel.setMember("out/put", { n: 1 }));
    expect(clientState).toEqual({ mine: "kept", "out/put": { n: 1 } });
    apply(channel.change({ a: 1 }));
    apply(channel.setMember("result", [1, 2]));
    const next = { a: 2, result: [1, 2, 3] };
    const events = channel.change(next);
    expect(events.map((event) => event.type)).toEqual([EventType.STATE_DELTA]);
    apply(events);
    expect(clientState).toEqual(next);
  });

  it("refuses a member the client's patch guard would refuse, rather than send a patch that fails there", () => {
    expect(() => new StateChannel().setMember("__proto__", 1)).toThrow(TypeError);
  });
});
