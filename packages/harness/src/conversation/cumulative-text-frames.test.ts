import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseOutputEvent } from "../protocol/parse.js";
import { StepNormalizer } from "../steps/step-normalizer.js";
import { textExtensionsOf } from "../steps/text-extension.js";
import { CumulativeTextFrames } from "./cumulative-text-frames.js";

const frame = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const textFrame = (text: string, extra: Record<string, unknown> = {}): Buffer =>
  frame({ stepUpdate: { trajectoryId: "t", stepIndex: 1, state: "STATE_ACTIVE", source: "SOURCE_MODEL", text, textDelta: text.slice(-1), ...extra }, seqNum: "7" });

describe("CumulativeTextFrames", () => {
  it("decodes a turn's text frames to what the full parse gives, and notes each extension", () => {
    const frames = new CumulativeTextFrames();
    const replies = ["H", "He", "He said \"hi\"", "He said \"hi\"\n", "He said \"hi\"\n\\ ünïcødé 🎉", "He said \"hi\"\n\\ ünïcødé 🎉!"];
    let previous: string | undefined;
    for (const reply of replies) {
      const bytes = textFrame(reply);
      const event = frames.decode(bytes);
      expect(event).toEqual(parseOutputEvent(bytes.toString("utf8")));
      const extension = textExtensionsOf(event!.stepUpdate!)?.text;
      if (previous === undefined) expect(extension).toBeUndefined();
      else expect(extension).toEqual({ base: previous, delta: reply.slice(previous.length) });
      previous = reply;
    }
  });

  it("decodes thinking and text in one frame, and a repeated frame as no extension", () => {
    const frames = new CumulativeTextFrames();
    frames.decode(frame({ stepUpdate: { trajectoryId: "t", stepIndex: 2, thinking: "hmm", text: "A" } }));
    const bytes = frame({ stepUpdate: { trajectoryId: "t", stepIndex: 2, thinking: "hmm, ok", thinkingDelta: ", ok", text: "A" } });
    const event = frames.decode(bytes);
    expect(event).toEqual(JSON.parse(bytes.toString("utf8")));
    expect(textExtensionsOf(event!.stepUpdate!)).toEqual({ thinking: { base: "hmm", delta: ", ok" } });
  });

  it("starts again on another step or when the text is rewritten", () => {
    const frames = new CumulativeTextFrames();
    frames.decode(textFrame("abc"));
    const other = frames.decode(textFrame("abcd", { stepIndex: 2 }));
    expect(other?.stepUpdate?.text).toBe("abcd");
    expect(textExtensionsOf(other!.stepUpdate!)).toBeUndefined();
    const rewritten = frames.decode(textFrame("xbcde", { stepIndex: 2 }));
    expect(rewritten?.stepUpdate?.text).toBe("xbcde");
    expect(textExtensionsOf(rewritten!.stepUpdate!)).toBeUndefined();
  });

  it("leaves every frame it cannot cut safely to the full parse", () => {
    const frames = new CumulativeTextFrames();
    const refused = [
      // Another shape: a nested field, a top-level text, an unknown field.
      frame({ stepUpdate: { text: "a", customTool: { name: "x" } } }),
      frame({ text: "a", stepUpdate: {} }),
      frame({ stepUpdate: { text: "a", mystery: 1 } }),
      // The key repeated (JSON.parse keeps the last one).
      Buffer.from('{"stepUpdate":{"text":"a","text":"b"}}'),
      Buffer.from('{"stepUpdate":{"thinking":"a","text":"b","thinking":"c"}}'),
      // A raw control character, an invalid escape, an unterminated string, no text at all.
      Buffer.from('{"stepUpdate":{"text":"a\u0001b"}}'),
      Buffer.from('{"stepUpdate":{"text":"a\\qb"}}'),
      Buffer.from('{"stepUpdate":{"text":"ab'),
      frame({ trajectoryStateUpdate: { state: "STATE_FULLY_IDLE" } }),
      // Whitespace around the key.
      Buffer.from('{"stepUpdate": {"text" : "a"}}'),
    ];
    for (const bytes of refused) expect(frames.decode(bytes)).toBeUndefined();
  });

  it("does not mistake a key quoted inside another string for the field", () => {
    const frames = new CumulativeTextFrames();
    const bytes = frame({ stepUpdate: { trajectoryId: 't","text":"', stepIndex: 1, textDelta: '"text":"x', text: "real" } });
    const event = frames.decode(bytes);
    expect(event).toEqual(parseOutputEvent(bytes.toString("utf8")));
    expect(event?.stepUpdate?.text).toBe("real");
  });

  it("gives what JSON.parse gives for any growing text, and the normalizer the same deltas", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 6 }), { minLength: 1, maxLength: 12 }), (pieces) => {
        const frames = new CumulativeTextFrames();
        const fast = new StepNormalizer();
        const full = new StepNormalizer();
        let text = "";
        for (const piece of pieces) {
          text += piece;
          const bytes = textFrame(text);
          const parsed = parseOutputEvent(bytes.toString("utf8"));
          const decoded = frames.decode(bytes);
          expect(decoded).toEqual(parsed);
          const fromFast = fast.normalize(decoded!.stepUpdate!);
          const fromFull = full.normalize(parsed.stepUpdate!);
          expect({ ...fromFast, raw: undefined }).toEqual({ ...fromFull, raw: undefined });
        }
      }),
    );
  });
});
