import { describe, expect, it } from "vitest";
import { promptPartsOf } from "./prompt-parts.js";

describe("promptPartsOf", () => {
  it("keeps text and turns inline supported media into media parts", () => {
    const parts = promptPartsOf([
      { type: "text", text: "look" },
      { type: "image", source: { type: "data", value: "iVBORw0K\nGgo=", mimeType: "image/png" } },
      { type: "document", source: { type: "url", value: "data:application/pdf;base64,JVBERi0=" } },
    ]);
    expect(parts).toEqual([
      { kind: "text", text: "look" },
      { kind: "media", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { kind: "media", mimeType: "application/pdf", data: "JVBERi0=" },
    ]);
  });

  it("forwards audio and video as media parts, as every harness release takes them", () => {
    const parts = promptPartsOf([
      { type: "audio", source: { type: "data", value: "UklGRg==", mimeType: "audio/wav" } },
      { type: "video", source: { type: "url", value: "data:video/mp4;base64,AAAAGGZ0eXA=" } },
    ]);
    expect(parts).toEqual([
      { kind: "media", mimeType: "audio/wav", data: "UklGRg==" },
      { kind: "media", mimeType: "video/mp4", data: "AAAAGGZ0eXA=" },
    ]);
  });

  it("notes what the model cannot see instead of dropping it", () => {
    const parts = promptPartsOf([
      { type: "image", source: { type: "url", value: "https://example.com/cat.png", mimeType: "image/png" } },
      { type: "image", source: { type: "data", value: "R0lGOD", mimeType: "image/gif" } },
      { type: "document", source: { type: "file", value: "file-123" } },
    ]);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatchObject({ kind: "text", text: expect.stringContaining("could not see it") });
    expect(parts[0]).toMatchObject({ text: expect.stringContaining("https://example.com/cat.png") });
    expect(parts[1]).toMatchObject({ text: expect.stringContaining("image/gif") });
  });

  it("drops blank text only", () => {
    expect(promptPartsOf("   ")).toEqual([]);
    expect(promptPartsOf("hi")).toEqual([{ kind: "text", text: "hi" }]);
  });

  it("refuses inline data that is not base64, naming the problem", () => {
    for (const value of ["not base64 at all!", "%%%%", "abcde", "ab=c", ""]) {
      expect(() => promptPartsOf([{ type: "image", source: { type: "data", value, mimeType: "image/png" } }]), JSON.stringify(value)).toThrow(/not valid base64/);
    }
    expect(() => promptPartsOf([{ type: "document", source: { type: "url", value: "data:application/pdf;base64,@@@" } }])).toThrow(/not valid base64/);
    expect(promptPartsOf([{ type: "image", source: { type: "data", value: "iVBORw0KGgo", mimeType: "image/png" } }])).toHaveLength(1);
  });

  it("puts a note in place of a broken attachment when asked (a message refused before, back in the history)", () => {
    const parts = promptPartsOf([{ type: "text", text: "look" }, { type: "image", source: { type: "data", value: "%%%%", mimeType: "image/png" } }], "note");
    expect(parts).toEqual([{ kind: "text", text: "look" }, { kind: "text", text: expect.stringContaining("not valid base64") }]);
  });
});
