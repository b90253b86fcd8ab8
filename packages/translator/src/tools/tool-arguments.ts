/**
 * A tool call's arguments as TOOL_CALL_ARGS deltas. The deltas always concatenate into exactly one
 * JSON document (the client appends them to `function.arguments`), and they are cut at the
 * object's members so a client that parses partial JSON renders the card progressively; a member
 * longer than `maxDeltaLength` is cut further.
 */
export function argumentDeltas(argumentsOf: Record<string, unknown>, maxDeltaLength: number): string[] {
  const document = argumentsDocument(argumentsOf);
  const pieces = memberPieces(argumentsOf);
  // The member-wise rendering equals JSON.stringify for plain JSON data; anything exotic (toJSON,
  // getters, unserialisable values) falls back to the whole document, which is always right.
  const source = pieces !== undefined && pieces.join("") === document ? pieces : [document];
  const deltas: string[] = [];
  for (const piece of source) splitInto(piece, maxDeltaLength, deltas);
  return deltas;
}

/** The arguments as one JSON document; a value JSON cannot carry is described rather than thrown. */
export function argumentsDocument(argumentsOf: Record<string, unknown>): string {
  try {
    return JSON.stringify(argumentsOf);
  } catch {
    // BigInt and cyclic values: the reference's `{"_unserializable": "<repr>"}` keeps the buffer valid JSON.
    return JSON.stringify({ _unserializable: describe(argumentsOf) });
  }
}

function memberPieces(argumentsOf: Record<string, unknown>): string[] | undefined {
  const keys = Object.keys(argumentsOf);
  if (keys.length === 0) return undefined;
  const pieces = ["{"];
  let first = true;
  for (const key of keys) {
    let value: string | undefined;
    try {
      value = JSON.stringify(argumentsOf[key]) as string | undefined;
    } catch {
      return undefined;
    }
    // JSON.stringify drops members whose value it cannot represent (undefined, functions, symbols).
    if (value === undefined) continue;
    pieces.push(`${first ? "" : ","}${JSON.stringify(key)}:${value}`);
    first = false;
  }
  pieces.push("}");
  return pieces;
}

function splitInto(piece: string, maxDeltaLength: number, into: string[]): void {
  let start = 0;
  while (piece.length - start > maxDeltaLength) {
    let end = start + maxDeltaLength;
    // Never cut a surrogate pair: a lone half would not survive UTF-8 encoding on the wire.
    if (isHighSurrogate(piece.charCodeAt(end - 1))) end -= 1;
    into.push(piece.slice(start, end));
    start = end;
  }
  into.push(start === 0 ? piece : piece.slice(start));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
