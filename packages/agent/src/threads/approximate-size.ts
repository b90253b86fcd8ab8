/**
 * Roughly how much memory a JSON-like value holds, in characters: every string and key counted by
 * its length, every other leaf as 8. Cheap (a string's length is not a scan), iterative (a deeply
 * nested value cannot overflow the stack), and shared structure is counted once. It bounds caches
 * of events and transcripts; it is not an exact byte count.
 */
export function approximateSize(value: unknown): number {
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
