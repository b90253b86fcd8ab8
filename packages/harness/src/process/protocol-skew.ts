import { HarnessError } from "../errors/harness-error.js";

/*
 * The harness parses every frame with Go's protojson and, when one does not parse, says so only on
 * its stderr: an init it cannot read makes it refuse the conversation (and exit), a later frame is
 * dropped and whatever waited on it waits forever (docs/protocol.md, "Versions"). This watches the
 * stderr lines for those parse errors and hands the error to the conversation whose frame it most
 * likely was, so an init or turn fails in moments with PROTOCOL_SKEW instead of timing out.
 */

/** How long after a frame was sent its parse error is still blamed on it. */
export const SKEW_ATTRIBUTION_WINDOW_MS = 2_000;
/** Recent sends kept for attribution; enough for every conversation of a busy process to have one. */
const RECENT_SENDS = 64;
/**
 * How much of a sent frame is kept to find the field a parse error names. Frames can be megabytes
 * (a long history, a tool result); a field the harness refuses sits near the start of what we send.
 */
const KEPT_FRAME_CHARACTERS = 4_096;

/** Phrases of Go protojson's errors (`proto: (line 1:12): unknown field "x"`, `invalid value for enum field y: "Z"`). */
const parseErrorLine = /\bproto:.*?(unknown field|invalid value|syntax error|unexpected token|is already set|duplicate field|mismatched|cannot parse)/i;
const unknownField = /unknown field "?([\w.]+)"?/i;
const enumValue = /invalid value for enum (?:field |type)?\s*([\w.]*):?\s*"?([\w.]*)"?/i;
const fieldOfType = /invalid value for \w+ (?:field|type) ([\w.]+)/i;
const oneofSet = /error parsing "([\w.]+)", oneof/i;

/** What a parse-error line says: the field (or enum name) at fault, when it names one. */
export interface HarnessParseError {
  readonly line: string;
  readonly field?: string;
  readonly value?: string;
}

/** Reads one stderr line; undefined when it is not a protojson parse error. */
export function readParseErrorLine(line: string): HarnessParseError | undefined {
  if (!parseErrorLine.test(line)) return undefined;
  const unknown = unknownField.exec(line);
  if (unknown?.[1] !== undefined) return { line, field: unknown[1] };
  const enumMatch = enumValue.exec(line);
  if (enumMatch !== null && (enumMatch[1] || enumMatch[2])) {
    return { line, ...(enumMatch[1] ? { field: enumMatch[1] } : {}), ...(enumMatch[2] ? { value: enumMatch[2] } : {}) };
  }
  const typed = fieldOfType.exec(line) ?? oneofSet.exec(line);
  if (typed?.[1] !== undefined) return { line, field: typed[1] };
  return { line };
}

interface SentFrame {
  readonly at: number;
  readonly text: string;
  readonly onSkew: (error: HarnessError) => void;
}

/** A flat copy: a slice of a large string may keep the whole string alive. */
function copyOf(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** One per harness process: remembers recent sends and blames each parse error on one of them. */
export class ProtocolSkewWatcher {
  readonly #describe: () => string;
  readonly #now: () => number;
  readonly #sent: SentFrame[] = [];
  #lastError: HarnessError | undefined;

  /** `describe` says which harness version and dialect the client speaks, for the error message. */
  constructor(options: { describe: () => string; now?: () => number }) {
    this.#describe = options.describe;
    this.#now = options.now ?? Date.now;
  }

  /** The last skew seen, if any: a process that then dies died of it. */
  get lastError(): HarnessError | undefined {
    return this.#lastError;
  }

  /** A conversation sent `text`; `onSkew` is told if the harness cannot parse it. */
  noteSent(text: string, onSkew: (error: HarnessError) => void): void {
    const at = this.#now();
    // Only frames of the last moments can be blamed; older ones go at once rather than holding memory.
    while (this.#sent.length > 0 && (this.#sent.length >= RECENT_SENDS || (this.#sent[0]?.at ?? at) < at - SKEW_ATTRIBUTION_WINDOW_MS)) this.#sent.shift();
    this.#sent.push({ at, text: text.length <= KEPT_FRAME_CHARACTERS ? text : copyOf(text.slice(0, KEPT_FRAME_CHARACTERS)), onSkew });
  }

  /**
   * A stderr line from the harness. A parse error is blamed on the latest recent send that names its
   * field (or, naming none, on the latest recent send) and reported there; returns the error, or
   * undefined for any other line.
   */
  onStderrLine(line: string): HarnessError | undefined {
    const parsed = readParseErrorLine(line);
    if (parsed === undefined) return undefined;
    const field = parsed.field?.split(".").pop();
    const error = new HarnessError(
      "PROTOCOL_SKEW",
      `the harness could not parse a frame of ours${field === undefined ? "" : ` (field ${field}${parsed.value ? `: ${parsed.value}` : ""})`}; ${this.#describe()}. ` +
        `Set harnessVersion (or ANTIGRAVITY_HARNESS_VERSION) to the installed harness's version. Harness: ${parsed.line.trim()}`,
      { ...(field === undefined ? {} : { subject: field }), stderrTail: [parsed.line] },
    );
    this.#lastError = error;
    const since = this.#now() - SKEW_ATTRIBUTION_WINDOW_MS;
    const recent = this.#sent.filter((frame) => frame.at >= since);
    const culprit =
      (field === undefined ? undefined : recent.findLast((frame) => frame.text.includes(`"${field}"`) || (parsed.value !== undefined && frame.text.includes(`"${parsed.value}"`)))) ??
      recent.at(-1);
    if (culprit !== undefined) {
      this.#sent.splice(this.#sent.indexOf(culprit), 1);
      culprit.onSkew(error);
    }
    return error;
  }
}
