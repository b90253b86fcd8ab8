import { describe, expect, it } from "vitest";
import type { StepUpdate } from "../wire/output-messages.js";
import { earlierUserMessages, formatRecap, newestUserMessage } from "./recap.js";

function userStep(stepIndex: number, text: string, trajectoryId = "main"): StepUpdate {
  return { cascadeId: "main", trajectoryId, stepIndex, state: "STATE_DONE", source: "SOURCE_USER", target: "TARGET_MODEL", text };
}

describe("earlierUserMessages", () => {
  it("lists the main trajectory's user inputs before the latest one, in step order", () => {
    const history: StepUpdate[] = [
      userStep(4, "recap"),
      userStep(0, "first"),
      { cascadeId: "main", trajectoryId: "main", stepIndex: 1, state: "STATE_DONE", source: "SOURCE_MODEL", target: "TARGET_USER", text: "an answer" },
      userStep(2, "second"),
      userStep(0, "a subagent's task", "sub"),
      { cascadeId: "main", trajectoryId: "main", stepIndex: 3, state: "STATE_DONE", source: "SOURCE_SYSTEM", target: "TARGET_MODEL", text: "a trigger" },
    ];
    expect(earlierUserMessages(history, "main")).toEqual(["first", "second"]);
  });

  it("reads a rebuilt conversation's transcript prompt as the user messages it quotes", () => {
    const transcript = [
      "This conversation was interrupted and its history lost. Here it is as the user sees it:",
      "user: hello there",
      "assistant: You said hello.",
      "user: what about\nParis?",
      "user: recap",
      "Reply to the last user message.",
    ].join("\n\n");
    expect(earlierUserMessages([userStep(0, transcript)], "main")).toEqual(["hello there", "what about\nParis?"]);
    expect(earlierUserMessages([userStep(0, transcript), userStep(3, "recap again")], "main")).toEqual(["hello there", "what about\nParis?", "recap"]);
  });

  it("is empty for the first message of a conversation", () => {
    expect(earlierUserMessages([userStep(0, "recap")], "main")).toEqual([]);
  });
});

describe("formatRecap", () => {
  it("numbers and quotes each message, and says (none) for no message", () => {
    expect(formatRecap(['say "hi"', "bye"])).toBe('1. "say \\"hi\\""\n2. "bye"');
    expect(formatRecap([])).toBe("(none)");
  });
});

describe("newestUserMessage", () => {
  it("is the last user paragraph of a rebuilt transcript, or the input itself", () => {
    expect(newestUserMessage("user: make the background blue\n\nassistant: done\n\nuser: hello there")).toBe("hello there");
    expect(newestUserMessage("just a message")).toBe("just a message");
  });
});
