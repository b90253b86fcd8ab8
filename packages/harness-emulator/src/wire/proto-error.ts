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

/** The first thing a harness parser would refuse in a frame, as that parser words it. */
export function protoErrorOf(issue: WireIssue, text: string): string {
  switch (issue.kind) {
    case "unknown-field":
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): unknown field ${JSON.stringify(issue.field)}`;
    case "enum-value": {
      const value = JSON.stringify(issue.value ?? "");
      return `proto: (line ${positionOf(text, value)}): invalid value for enum field ${issue.field}: ${value}`;
    }
    case "oneof":
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): error parsing ${JSON.stringify(issue.field)}, oneof ${issue.path} is already set`;
    case "wrong-type":
      return `proto: (line ${positionOf(text, JSON.stringify(issue.field))}): invalid value for field ${issue.field}: ${issue.message}`;
  }
}

/** A frame that is not JSON at all, worded like protojson's syntax errors. */
export function protoSyntaxError(text: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(detail)?.[1];
  return `proto: syntax error (line ${lineAndColumn(text, position === undefined ? 0 : Number(position))}): ${detail}`;
}
