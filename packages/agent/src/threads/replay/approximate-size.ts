/**
 * Roughly how much memory a JSON-like value holds, in characters: every string and key counted by
 * its length, every other leaf as 8. Cheap (a string's length is not a scan), iterative (a deeply
 * nested value cannot overflow the stack), and shared structure is counted once. It bounds caches
 * of events and transcripts; it is not an exact byte count.
 */
export function approximateSize(value: unknown): number {
  // Most values sized per event (a text delta, a tool call's arguments) are one flat object: they are
  // sized without the walk's stack and seen-set, the same count the walk would give.
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const flat = flatObjectSize(value);
    if (flat !== undefined) return flat;
  }
  // A small nested value (RUN_FINISHED with its usage, a message with a tool call) is sized without
  // the walk's stack, seen-set and entry arrays, which were most of what sizing a run allocated.
  if (typeof value === "object" && value !== null) {
    const small = smallValueSize(value);
    if (small !== undefined) return small;
  }
  let total = 0;
  const pending: unknown[] = [value];
  const seen = new WeakSet<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      total += item.length;
    } else if (typeof item === "object" && item !== null) {
      if (seen.has(item)) continue;
      seen.add(item);
      if (Array.isArray(item)) {
        for (const element of item) pending.push(element);
      } else {
        for (const [key, field] of Object.entries(item)) {
          total += key.length;
          pending.push(field);
        }
      }
    } else if (item !== undefined) {
      total += 8;
    }
  }
  return total;
}

/** The size of an object with no object among its own fields, or undefined when one is there. */
function flatObjectSize(object: object): number | undefined {
  let total = 0;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const field: unknown = (object as Record<string, unknown>)[key];
    total += key.length;
    if (typeof field === "string") total += field.length;
    else if (typeof field === "object" && field !== null) return undefined;
    else if (field !== undefined) total += 8;
  }
  return total;
}

/** Objects of a value `smallValueSize` met so far, in this module rather than per call. */
const smallSeen: (object | undefined)[] = [];
let smallSeenCount = 0;
const SMALL_MAX_OBJECTS = 16;
const SMALL_MAX_DEPTH = 4;

/** The walk's count for a value of a few objects, shared ones counted once; undefined when it is larger. */
function smallValueSize(value: object): number | undefined {
  smallSeenCount = 0;
  const size = boundedSize(value, SMALL_MAX_DEPTH);
  // Nothing sized stays reachable from here.
  smallSeen.fill(undefined, 0, smallSeenCount);
  return size;
}

function boundedSize(item: unknown, depth: number): number | undefined {
  if (typeof item === "string") return item.length;
  if (typeof item !== "object" || item === null) return item === undefined ? 0 : 8;
  for (let index = 0; index < smallSeenCount; index += 1) if (smallSeen[index] === item) return 0;
  if (depth === 0 || smallSeenCount === SMALL_MAX_OBJECTS) return undefined;
  smallSeen[smallSeenCount] = item;
  smallSeenCount += 1;
  let total = 0;
  if (Array.isArray(item)) {
    for (let index = 0; index < item.length; index += 1) {
      const size = boundedSize(item[index], depth - 1);
      if (size === undefined) return undefined;
      total += size;
    }
    return total;
  }
  for (const key in item) {
    if (!Object.hasOwn(item, key)) continue;
    const size = boundedSize((item as Record<string, unknown>)[key], depth - 1);
    if (size === undefined) return undefined;
    total += key.length + size;
  }
  return total;
}
