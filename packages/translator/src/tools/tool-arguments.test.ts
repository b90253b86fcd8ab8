import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argumentDeltas, argumentsDocument } from "./tool-arguments.js";

const jsonObject = fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue(), { maxKeys: 8 });

describe("argumentDeltas", () => {
  it("always concatenates into exactly the JSON document of the arguments", () => {
    fc.assert(
      fc.property(jsonObject, fc.integer({ min: 2, max: 40 }), (argumentsOf, maxDeltaLength) => {
        const deltas = argumentDeltas(argumentsOf, maxDeltaLength);
        expect(deltas.join("")).toBe(JSON.stringify(argumentsOf));
        expect(JSON.parse(deltas.join(""))).toEqual(JSON.parse(JSON.stringify(argumentsOf)));
        for (const delta of deltas) {
          expect(delta.length).toBeGreaterThan(0);
          expect(delta.length).toBeLessThanOrEqual(maxDeltaLength);
          // A delta never ends inside a surrogate pair.
          expect(/[\uD800-\uDBFF]$/.test(delta)).toBe(false);
        }
      }),
    );
  });

  it("cuts at the object's members so a client can render the card progressively", () => {
    expect(argumentDeltas({ directoryPath: "/tmp", recursive: true }, 256)).toEqual(["{", '"directoryPath":"/tmp"', ',"recursive":true', "}"]);
    expect(argumentDeltas({}, 256)).toEqual(["{}"]);
  });

  it("drops members JSON cannot carry, exactly as JSON.stringify does", () => {
    const deltas = argumentDeltas({ kept: 1, dropped: undefined, alsoDropped: () => 1 }, 256);
    expect(deltas.join("")).toBe('{"kept":1}');
  });

  it("describes arguments JSON cannot serialise instead of breaking the buffer", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic["self"] = cyclic;
    expect(JSON.parse(argumentDeltas(cyclic, 8).join(""))).toEqual({ _unserializable: "[object Object]" });
    expect(JSON.parse(argumentsDocument({ big: 10n }))).toEqual({ _unserializable: "[object Object]" });
  });
});
