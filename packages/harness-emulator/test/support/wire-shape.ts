// Compares wire messages by shape: field names, enum spellings and nesting, not ids or timestamps.

const enumPattern = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
/** Fields whose values are ids or clocks; their presence counts, their value does not. */
const ignoredValues = new Set(["seqNum", "timestampMicros", "cascadeId", "trajectoryId", "stepIndex", "requestId", "id", "callId"]);

/**
 * Checks that every field of `expected` exists in `actual` with the same kind of value; enum names
 * must be spelled identically. Extra fields in `actual` are allowed (fixtures are often partial).
 * Returns the list of differences (empty = match).
 */
export function shapeDifferences(expected: unknown, actual: unknown, path = "$"): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    // Every expected element must be matched, in order, by some actual element (a subsequence).
    let from = 0;
    for (const [index, item] of expected.entries()) {
      let found = -1;
      for (let candidate = from; candidate < actual.length; candidate++) {
        if (shapeDifferences(item, actual[candidate]).length === 0) {
          found = candidate;
          break;
        }
      }
      if (found < 0) return [`${path}[${index}]: no matching element in ${JSON.stringify(actual).slice(0, 400)}`];
      from = found + 1;
    }
    return [];
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) => {
      if (!(key in actual)) return [`${path}.${key}: missing`];
      const inner = (actual as Record<string, unknown>)[key];
      if (ignoredValues.has(key)) return typeof inner === typeof value ? [] : [`${path}.${key}: expected ${typeof value}, got ${typeof inner}`];
      return shapeDifferences(value, inner, `${path}.${key}`);
    });
  }
  if (typeof expected === "string" && enumPattern.test(expected)) {
    return actual === expected ? [] : [`${path}: expected enum ${expected}, got ${JSON.stringify(actual)}`];
  }
  if (typeof expected !== typeof actual) return [`${path}: expected ${typeof expected}, got ${typeof actual} (${JSON.stringify(actual)})`];
  return [];
}

/**
 * Finds the expected messages, in order, as a subsequence of the actual ones. Returns the indices
 * matched or throws with the first expectation that could not be found.
 */
export function expectOrderedShapes(expected: { label: string; json: unknown }[], actual: unknown[]): number[] {
  const matched: number[] = [];
  let from = 0;
  for (const { label, json } of expected) {
    let found = -1;
    let closest: string[] | undefined;
    for (let index = from; index < actual.length; index++) {
      const differences = shapeDifferences(json, actual[index]);
      if (differences.length === 0) {
        found = index;
        break;
      }
      const sameKind = Object.keys(json as object).some((key) => key !== "seqNum" && key in (actual[index] as object));
      if (sameKind && (closest === undefined || differences.length < closest.length)) closest = differences;
    }
    if (found < 0) {
      throw new Error(
        `fixture message ${label} not found in order after index ${from}.\nclosest differences: ${JSON.stringify(closest)}\nactual tail: ${JSON.stringify(actual.slice(from)).slice(0, 3000)}`,
      );
    }
    matched.push(found);
    from = found + 1;
  }
  return matched;
}
