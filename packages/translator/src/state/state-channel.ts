import type { JsonPatch, StateDeltaEvent, StateSnapshotEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
// fast-json-patch is CommonJS without an exports map: Node's ESM loader exposes only its default
// export (module.exports), while bundlers pick its `module` build; the default import works in both.
import jsonPatch from "fast-json-patch";

/**
 * The state the client holds, as far as the server changed it: the one base every STATE_DELTA of a
 * run is computed against, whoever changed the state (a server tool through hitl, structured
 * output). The first change of a run is a STATE_SNAPSHOT (the client's state may have moved between
 * runs, and a delta needs a known base); later changes in the run are STATE_DELTA patches against the
 * last state sent. No delta ever addresses a path the client's patch guard refuses.
 */
export class StateChannel {
  #sentThisRun = false;
  #last: unknown;

  change(next: unknown): Array<StateSnapshotEvent | StateDeltaEvent> {
    const copy = jsonPatch.deepClone(next) as unknown;
    if (!this.#sentThisRun || !samePatchableShape(this.#last, copy)) {
      this.#sentThisRun = true;
      this.#last = copy;
      return [{ type: EventType.STATE_SNAPSHOT, snapshot: copy }];
    }
    const delta = jsonPatch.compare(this.#last, copy as object) as JsonPatch;
    this.#last = copy;
    if (delta.length === 0) return [];
    // The client applies patches with fast-json-patch's prototype guard on, which rejects these
    // paths even as plain keys of JSON data; a snapshot carries such a state intact.
    if (delta.some(touchesGuardedPath)) return [{ type: EventType.STATE_SNAPSHOT, snapshot: copy }];
    return [{ type: EventType.STATE_DELTA, delta }];
  }

  /**
   * Sets one member of the state without knowing the rest (structured output under its key): an
   * `add` of that member keeps whatever else the client holds. When a state went out in this run,
   * the base takes the member too, so later deltas are computed against what the client has. A key
   * the client's patch guard refuses (`__proto__`) is a TypeError: no patch could carry it.
   */
  setMember(key: string, value: unknown): StateDeltaEvent[] {
    const copy = jsonPatch.deepClone(value) as unknown;
    const operation: JsonPatch[number] = { op: "add", path: `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, value: copy };
    if (touchesGuardedPath(operation)) throw new TypeError(`The state member "${key}" cannot be sent as a patch: the client's patch guard refuses that path.`);
    if (this.#sentThisRun && isPlainObject(this.#last)) {
      Object.defineProperty(this.#last, key, { value: copy, enumerable: true, writable: true, configurable: true });
    } else {
      // Not an object we know: the next change of the run says the whole state again.
      this.#sentThisRun = false;
    }
    return [{ type: EventType.STATE_DELTA, delta: [operation] }];
  }

  /** A new run: the next change is a snapshot again. */
  startRun(): void {
    this.#sentThisRun = false;
  }
}

/**
 * JSON Patch addresses into objects and arrays, and a diff between an object and an array has no
 * root to address; any other change can only be a replacement of the whole state.
 */
function samePatchableShape(previous: unknown, next: unknown): previous is object {
  const previousIsObject = typeof previous === "object" && previous !== null;
  const nextIsObject = typeof next === "object" && next !== null;
  return previousIsObject && nextIsObject && Array.isArray(previous) === Array.isArray(next);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A path fast-json-patch refuses when `banPrototypeModifications` is on (the client's setting). */
function touchesGuardedPath(operation: JsonPatch[number]): boolean {
  const paths = "from" in operation ? [operation.path, operation.from] : [operation.path];
  return paths.some((path) => {
    const segments = path.split("/");
    return segments.some((segment, index) => segment === "__proto__" || (segment === "prototype" && segments[index - 1] === "constructor"));
  });
}
