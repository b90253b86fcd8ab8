import type { OutputEvent, StepUpdate } from "../protocol/messages.js";
import { plainTextStepEvent } from "../protocol/text-step-fast-path.js";
import { noteTextExtensions, type StepTextExtensions, type TextExtension } from "../steps/text-extension.js";

type CumulativeField = "text" | "thinking";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const fields: readonly { name: CumulativeField; key: Buffer; repeated: Buffer }[] = [
  { name: "text", key: Buffer.from('"text":"'), repeated: Buffer.from('"text":') },
  { name: "thinking", key: Buffer.from('"thinking":"'), repeated: Buffer.from('"thinking":') },
];

/**
 * Frames shorter than this are parsed in full rather than cut: cutting costs more CPU than the full
 * parse of a short frame (about 7 µs against 2 µs per frame up to 1 KiB on this machine's Node 20),
 * and what it saves, the copy of a long cumulative text per frame, a short frame does not have.
 */
export const MIN_CUT_FRAME_BYTES = 1024;

/** Steps remembered at once: a main trajectory and a few subagents streaming side by side. */
const REMEMBERED_FIELDS = 8;

/** The raw (still JSON-escaped) bytes of one field of one step, as its latest frame carried them. */
interface FieldMemory {
  field: CumulativeField;
  trajectoryId: string;
  stepIndex: number | string;
  bytes: Buffer;
  length: number;
  /** The decoded value of `bytes[0, length)`: the string the previous frame delivered. */
  value: string;
}

interface FieldRange {
  field: CumulativeField;
  start: number;
  end: number;
}

/**
 * Decodes the frames that make up most of a turn, `{stepUpdate}` frames of text or thinking, each
 * repeating the step's whole text so far (docs/protocol.md). Decoding each such frame in full would
 * build the whole text twice per frame (the frame as a string, then the parsed field): on a long
 * reply that was most of what a turn allocated. Instead the cumulative fields are cut out of the
 * frame's bytes, the small rest is parsed and checked like any plain text frame
 * (protocol/text-step-fast-path.ts), and when a field's bytes begin with exactly what the same step's
 * previous frame carried, its value is that previous string plus the decoded new bytes: the same
 * string JSON.parse would give, built by appending. Any frame that does not fit (another shape,
 * whitespace around the keys, a key repeated) returns undefined and takes the full parse.
 */
export class CumulativeTextFrames {
  readonly #memory: FieldMemory[] = [];
  #nextSlot = 0;

  decode(frame: Buffer): OutputEvent | undefined {
    const ranges = rangesOf(frame);
    if (ranges === undefined || ranges.length === 0) return undefined;
    let rest = "";
    let from = 0;
    for (const range of ranges) {
      rest += frame.toString("utf8", from, range.start);
      from = range.end;
    }
    rest += frame.toString("utf8", from);
    let value: unknown;
    try {
      value = JSON.parse(rest);
    } catch {
      return undefined;
    }
    const event = plainTextStepEvent(value);
    const update = event?.stepUpdate;
    if (event === undefined || update === undefined) return undefined;
    for (const range of ranges) if (update[range.field] !== "") return undefined;
    let extensions: StepTextExtensions | undefined;
    for (const range of ranges) {
      const extension = this.#decodeField(frame, range, update);
      // Content JSON.parse would refuse: the full parse reports the frame.
      if (extension === false) return undefined;
      if (extension !== undefined) (extensions ??= {})[range.field] = extension;
    }
    if (extensions !== undefined) noteTextExtensions(update, extensions);
    // A finished step's text will not grow: keeping it would hold a long reply (or a long prompt's
    // echo) and twice its bytes for as long as the conversation lives.
    if (update.state === "STATE_DONE" || update.state === "STATE_ERROR") this.#forget(update.trajectoryId ?? "", update.stepIndex ?? 0);
    return event;
  }

  #forget(trajectoryId: string, stepIndex: number | string): void {
    for (let index = this.#memory.length - 1; index >= 0; index -= 1) {
      const memory = this.#memory[index]!;
      if (memory.stepIndex === stepIndex && memory.trajectoryId === trajectoryId) this.#memory.splice(index, 1);
    }
    this.#nextSlot = this.#memory.length < REMEMBERED_FIELDS ? 0 : this.#nextSlot % REMEMBERED_FIELDS;
  }

  #remembered(field: CumulativeField, trajectoryId: string, stepIndex: number | string): FieldMemory | undefined {
    for (const memory of this.#memory) {
      if (memory.field === field && memory.stepIndex === stepIndex && memory.trajectoryId === trajectoryId) return memory;
    }
    return undefined;
  }

  /**
   * Sets the field's value on `update`; returns how it extends the previous frame's when it does,
   * false when the bytes are not a valid JSON string's content.
   */
  #decodeField(frame: Buffer, range: FieldRange, update: StepUpdate): TextExtension | undefined | false {
    const trajectoryId = update.trajectoryId ?? "";
    const stepIndex = update.stepIndex ?? 0;
    const size = range.end - range.start;
    const memory = this.#remembered(range.field, trajectoryId, stepIndex);
    if (
      memory !== undefined &&
      memory.length <= size &&
      frame.compare(memory.bytes, 0, memory.length, range.start, range.start + memory.length) === 0
    ) {
      const base = memory.value;
      if (memory.length === size) {
        update[range.field] = base;
        return undefined;
      }
      const delta = jsonStringContent(frame, range.start + memory.length, range.end);
      if (delta === undefined) return false;
      const value = base + delta;
      appendBytes(memory, frame, range.start + memory.length, range.end);
      memory.value = value;
      update[range.field] = value;
      return { base, delta };
    }
    const value = jsonStringContent(frame, range.start, range.end);
    if (value === undefined) return false;
    const bytes = Buffer.allocUnsafe(Math.max(64, size * 2));
    frame.copy(bytes, 0, range.start, range.end);
    const remembered: FieldMemory = { field: range.field, trajectoryId, stepIndex, bytes, length: size, value };
    if (memory !== undefined) this.#memory[this.#memory.indexOf(memory)] = remembered;
    else if (this.#memory.length < REMEMBERED_FIELDS) this.#memory.push(remembered);
    else {
      this.#memory[this.#nextSlot] = remembered;
      this.#nextSlot = (this.#nextSlot + 1) % REMEMBERED_FIELDS;
    }
    update[range.field] = value;
    return undefined;
  }
}

/**
 * Where the value of each cumulative field lies in the frame (between its quotes), in frame order;
 * undefined when the frame cannot be cut safely. A key found right after a backslash is inside a
 * string, and a key found twice would make the cut value not the one JSON.parse keeps.
 */
function rangesOf(frame: Buffer): FieldRange[] | undefined {
  let ranges: FieldRange[] | undefined;
  for (const { name, key, repeated } of fields) {
    const at = indexOutside(frame, key, 0, ranges);
    if (at < 0) continue;
    if (at > 0 && frame[at - 1] === BACKSLASH) return undefined;
    const start = at + key.length;
    const end = closingQuote(frame, start);
    if (end < 0) return undefined;
    if (indexOutside(frame, repeated, end, ranges) >= 0) return undefined;
    const range = { field: name, start, end };
    if (ranges === undefined) ranges = [range];
    else if (start < ranges[0]!.start) ranges.unshift(range);
    else ranges.push(range);
  }
  return ranges;
}

/**
 * Where `needle` first occurs at or after `from`, skipping the values already found (a reply's
 * whole text need not be searched again for the other key); -1 when it does not.
 */
function indexOutside(frame: Buffer, needle: Buffer, from: number, skipped: readonly FieldRange[] | undefined): number {
  let start = from;
  for (const range of skipped ?? []) {
    if (range.end <= start) continue;
    if (range.start > start) {
      const found = frame.subarray(0, range.start).indexOf(needle, start);
      if (found >= 0) return found;
    }
    start = range.end;
  }
  return frame.indexOf(needle, start);
}

/** The index of the quote that ends the JSON string whose content starts at `from`, or -1. */
function closingQuote(frame: Buffer, from: number): number {
  for (let quote = frame.indexOf(QUOTE, from); quote >= 0; quote = frame.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && frame[quote - backslashes - 1] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/** The string a JSON string with these content bytes stands for; undefined when JSON.parse would refuse them. */
function jsonStringContent(frame: Buffer, start: number, end: number): string | undefined {
  let escaped = false;
  for (let index = start; index < end; index += 1) {
    const byte = frame[index]!;
    // A raw control character is not allowed inside a JSON string.
    if (byte < 0x20) return undefined;
    if (byte === BACKSLASH) escaped = true;
  }
  const raw = frame.toString("utf8", start, end);
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

function appendBytes(memory: FieldMemory, frame: Buffer, start: number, end: number): void {
  const needed = memory.length + (end - start);
  if (needed > memory.bytes.length) {
    const grown = Buffer.allocUnsafe(Math.max(needed, memory.bytes.length * 2));
    memory.bytes.copy(grown, 0, 0, memory.length);
    memory.bytes = grown;
  }
  frame.copy(memory.bytes, memory.length, start, end);
  memory.length = needed;
}
