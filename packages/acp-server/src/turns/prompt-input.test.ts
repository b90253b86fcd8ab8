import { describe, expect, it } from "vitest";
import { promptInput } from "./prompt-input.js";

describe("promptInput", () => {
  it("joins text, names linked files, inlines embedded text and passes images as media", () => {
    const input = promptInput([
      { type: "text", text: "Look at" },
      { type: "resource_link", name: "a.ts", uri: "file:///w/a.ts" },
      { type: "resource", resource: { uri: "file:///w/b.ts", text: "const b = 1;" } },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
    ]);
    expect(input.parts).toEqual([{ text: 'Look at\n[a.ts](/w/a.ts)\n<context ref="/w/b.ts">\nconst b = 1;\n</context>' }, { media: { mimeType: "image/png", data: "iVBORw0KGgo=" } }]);
    expect(input.userMessage.map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "user_message_chunk", "user_message_chunk", "user_message_chunk"]);
  });

  it("refuses what initialize does not offer, and empty prompts", () => {
    expect(() => promptInput([])).toThrow(/empty/);
    expect(() => promptInput([{ type: "text", text: "  " }])).toThrow(/empty/);
    expect(() => promptInput([{ type: "audio", mimeType: "audio/wav", data: "AAAA" }])).toThrow(/audio is not supported/);
    expect(() => promptInput([{ type: "image", mimeType: "image/svg+xml", data: "AAAA" }])).toThrow(/not supported/);
    expect(() => promptInput([{ type: "resource", resource: { uri: "file:///w/x.bin", blob: "AAAA", mimeType: "application/octet-stream" } }])).toThrow(/not supported/);
  });
});
