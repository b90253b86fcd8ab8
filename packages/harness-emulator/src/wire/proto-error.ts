import type { WireIssue } from "@ag-ui-antigravity/harness/protocol";

/*
 * The text of a parse error the way the harness (Go protojson) prints it on stderr, so a client
 * that reads harness stderr for protocol skew (docs/protocol.md, "Errors") recognises the
 * emulator's refusals too: `proto: (line L:C): unknown field "x"`, `proto: (line L:C): invalid
 * value for enum field enabledHooks: "LIFECYCLE_HOOK_STOP"`. The exact words per kind are in the
 * emulator README ("Strict like the harness").
 */

/** Line and column (1-based) of a character offset in `text`. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text[index] === "\n") {
      line += 1;
      lineStart = index + 1;
    }
  }
  return `${line}:${Math.max(0, offset - lineStart) + 1}`;
}

/** Where a token first appears in the frame's text (protojson reports the offending token's position). */
function positionOf(text: string, token: string): string {
  const offset = text.indexOf(token);
  return lineAndColumn(text, offset < 0 ? 0 : offset);
}

/** The value at a WireIssue path (`Kind.field.list[2].inner`) in the parsed frame. */
function valueAt(frame: unknown, path: string): unknown {
  let current = frame;
  for (const segment of path.split(".").slice(1)) {
    const [, name, indexes] = /^([^[]*)((?:\[\d+\])*)$/.exec(segment) ?? [];
    if (current === null || typeof current !== "object" || name === undefined) return undefined;
    current = (current as Record<string, unknown>)[name];
    for (const index of (indexes ?? "").match(/\d+/g) ?? []) current = Array.isArray(current) ? current[Number(index)] : undefined;
  }
  return current;
}

/** The token protojson quotes: the value's JSON, or just its opening bracket. */
function tokenOf(value: unknown): string {
  if (Array.isArray(value)) return "[";
  if (value !== null && typeof value === "object") return "{";
  const json = JSON.stringify(value) ?? "null";
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

/** The kind of field protojson names in a type error (`invalid value for string field x`), as far as the issue tells. */
function expectedKind(issue: WireIssue, given: unknown): string {
  if (issue.message.includes("expected a message")) return "message";
  if (issue.message.includes("expected a list")) return "list";
  if (issue.message.includes("expected a map")) return "map";
  if (issue.message.includes("enum value name")) return "enum";
  // A field whose type changed between releases: what it took is the other shape.
  if (issue.message.includes(" takes for ")) return given !== null && typeof given === "object" ? "string" : "message";
  return "scalar";
}

/** The first thing a harness parser would refuse in a frame (`frame` is the text parsed), as that parser words it. */
export function protoErrorOf(issue: WireIssue, text: string, frame: unknown): string {
  switch (issue.kind) {
    case "unknown-field":
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): unknown field ${JSON.stringify(issue.field)}`;
    case "enum-value": {
      const value = JSON.stringify(issue.value ?? "");
      return `proto: (line ${positionOf(text, value)}): invalid value for enum field ${issue.field}: ${value}`;
    }
    case "oneof":
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): error parsing ${JSON.stringify(issue.field)}, oneof ${issue.path} is already set`;
    case "wrong-type": {
      const given = valueAt(frame, issue.path);
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): invalid value for ${expectedKind(issue, given)} field ${issue.field}: ${tokenOf(given)}`;
    }
  }
}

/** A frame that is not JSON at all, worded like protojson's syntax errors. */
export function protoSyntaxError(text: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(detail)?.[1];
  return `proto: syntax error (line ${lineAndColumn(text, position === undefined ? 0 : Number(position))}): ${detail}`;
}
