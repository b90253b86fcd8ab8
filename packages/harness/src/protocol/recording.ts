import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";
import { z } from "zod/v4";

/**
 * The wire recording format (docs/protocol.md, "Recordings"): one JSON object per line. The first
 * line is the header; `conversation` lines describe a WebSocket connection's client configuration;
 * `frame` lines are the messages in the order this client saw them, both directions.
 */
export const RECORDING_FORMAT = "antigravity-wire-recording/1";

/** A value the recorder blanked; replay accepts any value in its place. */
export const REDACTED_VALUE = "[REDACTED]";

export const RecordingHeaderSchema = z
  .object({
    type: z.literal("header"),
    format: z.literal(RECORDING_FORMAT),
    recordedAt: z.string(),
    client: z.object({ language: z.string(), version: z.string() }).loose(),
    /** `protocol` (absent before the client spoke several releases, which means 0.1.10): the harness release the client spoke. */
    harness: z.object({ binary: z.string(), version: z.string(), protocol: z.string().optional() }).loose(),
  })
  .loose();

export const RecordingConversationSchema = z
  .object({
    type: z.literal("conversation"),
    /** 1 for the process's first WebSocket, 2 for the second, ... */
    connection: z.number().int().positive(),
    /** The client configuration, JSON-safe: handlers and hooks reduced to their names, secrets blanked. */
    config: z.record(z.string(), z.unknown()),
  })
  .loose();

export const RecordingFrameSchema = z
  .object({
    type: z.literal("frame"),
    /** 1-based position in the file's frames: how a divergence names the frame. */
    seq: z.number().int().positive(),
    /** Milliseconds since the recording started. */
    atMs: z.number().nonnegative(),
    channel: z.enum(["harness", "ws"]),
    direction: z.enum(["send", "receive"]),
    /** Absent on the stdio handshake frames. */
    connection: z.number().int().positive().optional(),
    conversationId: z.string().optional(),
    messageKey: z.string(),
    /** The message as JSON (secrets blanked); a frame that did not parse is kept as its text. */
    message: z.unknown(),
  })
  .loose();

export type RecordingHeader = z.infer<typeof RecordingHeaderSchema>;
export type RecordingConversation = z.infer<typeof RecordingConversationSchema>;
export type RecordingFrame = z.infer<typeof RecordingFrameSchema>;

export interface Recording {
  header: RecordingHeader;
  conversations: RecordingConversation[];
  frames: RecordingFrame[];
}

const lineSchema = z.discriminatedUnion("type", [RecordingHeaderSchema, RecordingConversationSchema, RecordingFrameSchema]);

/** A recording that cannot be read (code `RECORDING_INVALID`); `line` is 1-based. */
export class RecordingFormatError extends CodedError<"RECORDING_INVALID"> {
  readonly line: number;

  static {
    nameErrorClass(this, "RecordingFormatError");
  }

  constructor(line: number, message: string) {
    super("RECORDING_INVALID", `recording line ${line}: ${message}`);
    this.line = line;
  }
}

/** Parses a JSONL recording; the first non-empty line must be the header. Unknown line types are kept out, not fatal. */
export function parseRecording(text: string): Recording {
  let header: RecordingHeader | undefined;
  const conversations: RecordingConversation[] = [];
  const frames: RecordingFrame[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new RecordingFormatError(lineNumber, "not JSON");
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type !== "header" && type !== "conversation" && type !== "frame") {
      if (header === undefined) throw new RecordingFormatError(lineNumber, "the first line must be the recording header");
      return;
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RecordingFormatError(lineNumber, `${issue?.path.join(".") || "(line)"}: ${issue?.message ?? "invalid"}`);
    }
    const line = parsed.data;
    if (header === undefined && line.type !== "header") throw new RecordingFormatError(lineNumber, "the first line must be the recording header");
    if (line.type === "header") {
      if (header !== undefined) throw new RecordingFormatError(lineNumber, "a second header");
      header = line;
    } else if (line.type === "conversation") conversations.push(line);
    else frames.push(line);
  });
  if (header === undefined) throw new RecordingFormatError(1, "empty recording");
  return { header, conversations, frames };
}

/** Where two messages first differ: a dotted path, and both values as JSON. */
export interface MessageDifference {
  path: string;
  expected: string;
  actual: string;
}

function describe(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * The first difference between a recorded message and a live one, or undefined when they agree.
 * A redacted value in the recording matches anything; `ignore` names paths (dotted, `*` for any
 * array index or key) whose values legitimately change from run to run.
 */
export function firstDifference(expected: unknown, actual: unknown, ignore: readonly string[] = [], path = ""): MessageDifference | undefined {
  if (ignore.some((pattern) => pathMatches(pattern, path))) return undefined;
  if (typeof expected === "string" && expected.includes(REDACTED_VALUE)) {
    return typeof actual === "string" ? undefined : { path: path || "(message)", expected: describe(expected), actual: describe(actual) };
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return { path: path || "(message)", expected: describe(expected), actual: describe(actual) };
    const length = Math.max(expected.length, actual.length);
    for (let index = 0; index < length; index += 1) {
      const difference = firstDifference(expected[index], actual[index], ignore, path === "" ? String(index) : `${path}.${index}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      const difference = firstDifference(expected[key], actual[key], ignore, path === "" ? key : `${path}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : { path: path || "(message)", expected: describe(expected), actual: describe(actual) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function pathMatches(pattern: string, path: string): boolean {
  const wanted = pattern.split(".");
  const actual = path.split(".");
  if (wanted.length !== actual.length) return false;
  return wanted.every((segment, index) => segment === "*" || segment === actual[index]);
}
