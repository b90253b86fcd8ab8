import { describe, expect, it } from "vitest";
import { collectAnswers, commandAnswer } from "./collect-answers.js";

describe("collectAnswers", () => {
  it("reads resume entries and ToolMessages, and skips tool messages without a call id", () => {
    const collected = collectAnswers({
      messages: [
        { id: "1", role: "user", content: "hi" },
        { id: "2", role: "tool", toolCallId: "call-1", content: [{ type: "text", text: "a" }, { type: "image", source: { type: "url", value: "https://x/y.png" } }] },
        { id: "3", role: "tool", toolCallId: "", content: "orphan" },
      ],
      resume: [{ interruptId: "i-1", status: "cancelled" }],
      forwardedProps: { command: "ignored" },
    });
    expect(collected).toEqual({
      interruptAnswers: [{ interruptId: "i-1", status: "cancelled", payload: undefined, channel: "resume" }],
      toolResults: [{ toolCallId: "call-1", content: "a\n[image attachment not forwarded]" }],
      commandIgnored: true,
    });
  });

  it("falls back to forwardedProps.command when resume is empty", () => {
    expect(collectAnswers({ messages: [], resume: [], forwardedProps: { command: true } }).interruptAnswers).toEqual([{ status: "resolved", payload: true, channel: "command" }]);
    expect(collectAnswers({ messages: [], forwardedProps: { other: 1 } }).interruptAnswers).toEqual([]);
  });
});

describe("commandAnswer", () => {
  it.each([
    ["a bare value", "yes", { status: "resolved", payload: "yes", channel: "command" }],
    ["{ interruptId, payload, status }", { interruptId: "i", payload: 1, status: "cancelled" }, { interruptId: "i", status: "cancelled", payload: 1, channel: "command" }],
    ["{ interruptId } without payload: the rest is the payload", { interruptId: "i", approved: true }, { interruptId: "i", status: "resolved", payload: { approved: true }, channel: "command" }],
    ["{ resume, interruptEvent } with an object event", { resume: 2, interruptEvent: { value: { id: "deep" } } }, { interruptId: "deep", status: "resolved", payload: 2, channel: "command" }],
    ["{ resume, interruptEvent } with a JSON string naming interruptId", { resume: 3, interruptEvent: '{"interruptId":"j"}' }, { interruptId: "j", status: "resolved", payload: 3, channel: "command" }],
    ["{ resume } alone", { resume: { approved: false } }, { status: "resolved", payload: { approved: false }, channel: "command" }],
  ])("reads %s", (_label, command, expected) => {
    expect(commandAnswer(command)).toEqual(expected);
  });

  it("reads nothing from null or undefined", () => {
    expect(commandAnswer(null)).toBeUndefined();
    expect(commandAnswer(undefined)).toBeUndefined();
  });
});
