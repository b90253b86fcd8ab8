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
