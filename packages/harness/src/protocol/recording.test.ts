import { describe, expect, it } from "vitest";
import { firstDifference, parseRecording, RecordingFormatError } from "./recording.js";

const header = JSON.stringify({ type: "header", format: "antigravity-wire-recording/1", recordedAt: "2026-01-01T00:00:00Z", client: { language: "typescript", version: "0" }, harness: { binary: "localharness", version: "unknown" } });
const frame = (seq: number, direction: "send" | "receive", message: unknown): string =>
  JSON.stringify({ type: "frame", seq, atMs: seq, channel: "ws", direction, connection: 1, messageKey: Object.keys(message as object)[0], message });

describe("wire recordings", () => {
  it("parses a header, conversations and frames; other line types are skipped", () => {
    const recording = parseRecording([header, JSON.stringify({ type: "conversation", connection: 1, config: { model: "m" } }), frame(1, "send", { userInput: "hi" }), '{"type":"note"}', ""].join("\n"));
    expect(recording.frames).toHaveLength(1);
    expect(recording.conversations[0]?.config).toEqual({ model: "m" });
  });

  it("names the line of a broken recording", () => {
    expect(() => parseRecording(frame(1, "send", { userInput: "hi" }))).toThrow(RecordingFormatError);
    expect(() => parseRecording(`${header}\n{"type":"frame","seq":0}`)).toThrow(/line 2: seq/);
    expect(() => parseRecording(`${header}\nnot json`)).toThrow(/line 2: not JSON/);
  });

  it("finds the first differing field; blanked values and ignored paths match anything", () => {
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toEqual({ path: "a.b.1", expected: "2", actual: "3" });
    expect(firstDifference({ a: 1 }, { a: 1, extra: true })).toEqual({ path: "extra", expected: "(absent)", actual: "true" });
    expect(firstDifference({ key: "[REDACTED]" }, { key: "anything" })).toBeUndefined();
    expect(firstDifference({ key: "[REDACTED]" }, {})).toEqual({ path: "key", expected: '"[REDACTED]"', actual: "(absent)" });
    expect(firstDifference({ w: [{ d: "/a" }] }, { w: [{ d: "/b" }] }, ["w.*.d"])).toBeUndefined();
  });
});
