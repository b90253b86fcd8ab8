import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { cumulativeTextOf } from "../../bench/lib/common.mjs";

const frame = (stepUpdate: Record<string, unknown>): Buffer => Buffer.from(JSON.stringify({ seqNum: "7", stepUpdate }));
const textLength = cumulativeTextOf as (data: unknown) => number | undefined;

// The tap reads a text frame's cumulative length off its bytes; wherever that shortcut cannot be
// sure, it must agree with a full parse.
describe("cumulativeTextOf", () => {
  it("reads the cumulative text length of a text frame off its bytes", () => {
    expect(textLength(frame({ textDelta: "c", text: "abc" }))).toBe(3);
    expect(textLength(frame({ textDelta: "", text: "" }))).toBe(0);
  });

  it("counts characters, not bytes, through escapes and non-ASCII text", () => {
    const text = 'a"b\\c\né😀';
    expect(textLength(frame({ textDelta: "😀", text }))).toBe(text.length);
  });

  it("takes the step's own text when another object carries a text key too", () => {
    expect(textLength(frame({ textDelta: "x", text: "xy", plan: { text: "a longer text" } }))).toBe(2);
    expect(textLength(frame({ plan: { text: "a longer text" }, textDelta: "x", text: "xy" }))).toBe(2);
  });

  it("is undefined for frames without a text delta", () => {
    expect(textLength(frame({ thinkingDelta: "x", thinking: "x" }))).toBeUndefined();
    expect(textLength(Buffer.from('{"trajectoryStateUpdate":{"state":"STATE_FULLY_IDLE"}}'))).toBeUndefined();
  });

  it("reads a frame given as a string or an ArrayBuffer", () => {
    const bytes = frame({ textDelta: "b", text: "ab" });
    expect(textLength(bytes.toString("utf8"))).toBe(2);
    expect(textLength(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).toBe(2);
  });
});
