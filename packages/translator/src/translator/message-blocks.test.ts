import type { AGUIEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { sequentialIds } from "../ids/id-generator.js";
import { MessageBlocks } from "./message-blocks.js";
import type { Scope } from "./turn-memory.js";

/** Each event as `TYPE messageId`, the shape these rules are about. */
function shapes(events: AGUIEvent[]): string[] {
  return events.map((event) => `${event.type} ${"messageId" in event ? String(event.messageId) : ""}`.trim());
}

describe("MessageBlocks", () => {
  it("continues a step's text, and ends it when another step of the scope speaks", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const scope: Scope = { trajectoryId: "main" };
    const events: AGUIEvent[] = [];
    blocks.appendText(scope, "step-1", "Hel", undefined, events);
    blocks.appendText(scope, "step-1", "lo", undefined, events);
    expect(scope.assistantMessageId).toBe("id-1");
    blocks.appendText(scope, "step-2", "Next", undefined, events);
    expect(shapes(events)).toEqual([
      "TEXT_MESSAGE_START id-1",
      "TEXT_MESSAGE_CONTENT id-1",
      "TEXT_MESSAGE_CONTENT id-1",
      "TEXT_MESSAGE_END id-1",
      "TEXT_MESSAGE_START id-2",
      "TEXT_MESSAGE_CONTENT id-2",
    ]);
    expect(scope.assistantMessageId).toBe("id-2");
  });

  it("never has reasoning and text open at once in a scope, and keeps scopes apart", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const main: Scope = { trajectoryId: "main" };
    const subagent: Scope = { trajectoryId: "sub" };
    const events: AGUIEvent[] = [];
    blocks.appendReasoning(main, "step-1", "hm", undefined, events);
    blocks.appendText(subagent, "step-1", "other scope", "run-1", events);
    blocks.appendText(main, "step-1", "answer", undefined, events);
    blocks.appendReasoning(main, "step-1", "more", undefined, events);
    expect(shapes(events)).toEqual([
      "REASONING_START id-1",
      "REASONING_MESSAGE_START id-1",
      "REASONING_MESSAGE_CONTENT id-1",
      "TEXT_MESSAGE_START id-2",
      "TEXT_MESSAGE_CONTENT id-2",
      "REASONING_MESSAGE_END id-1",
      "REASONING_END id-1",
      "TEXT_MESSAGE_START id-3",
      "TEXT_MESSAGE_CONTENT id-3",
      "TEXT_MESSAGE_END id-3",
      "REASONING_START id-4",
      "REASONING_MESSAGE_START id-4",
      "REASONING_MESSAGE_CONTENT id-4",
    ]);
    expect(events[3]).toMatchObject({ subagentRunId: "run-1" });
  });

  it("closes only the finishing step's blocks; another step's text stays open", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const scope: Scope = { trajectoryId: "main" };
    const events: AGUIEvent[] = [];
    blocks.appendText(scope, "step-1", "still talking", undefined, events);
    blocks.closeStep("step-2", scope, events);
    expect(shapes(events)).toEqual(["TEXT_MESSAGE_START id-1", "TEXT_MESSAGE_CONTENT id-1"]);
    blocks.closeStep("step-1", scope, events);
    blocks.closeStep("step-1", scope, events);
    expect(shapes(events).slice(2)).toEqual(["TEXT_MESSAGE_END id-1"]);
  });

  it("at the run boundary ends reasoning before text, with their attribution, once", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const events: AGUIEvent[] = [];
    blocks.appendText({ trajectoryId: "main" }, "step-1", "text", undefined, events);
    blocks.appendReasoning({ trajectoryId: "sub" }, "step-1", "thought", "run-1", events);
    const closing: AGUIEvent[] = [];
    blocks.closeAll(closing);
    expect(shapes(closing)).toEqual(["REASONING_MESSAGE_END id-2", "REASONING_END id-2", "TEXT_MESSAGE_END id-1"]);
    expect(closing[0]).toMatchObject({ subagentRunId: "run-1" });
    expect(closing[2]).not.toHaveProperty("subagentRunId");
    const again: AGUIEvent[] = [];
    blocks.closeAll(again);
    expect(again).toEqual([]);
  });

  it("a retired turn's open text is not continued by a new step reusing its key", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const scope: Scope = { trajectoryId: "main" };
    const events: AGUIEvent[] = [];
    blocks.appendText(scope, "step-1", "old turn", undefined, events);
    blocks.retireTurn();
    blocks.appendText(scope, "step-1", "new turn", undefined, events);
    expect(shapes(events)).toEqual([
      "TEXT_MESSAGE_START id-1",
      "TEXT_MESSAGE_CONTENT id-1",
      "TEXT_MESSAGE_END id-1",
      "TEXT_MESSAGE_START id-2",
      "TEXT_MESSAGE_CONTENT id-2",
    ]);
  });

  it("forgets open blocks without events when a new run starts", () => {
    const blocks = new MessageBlocks(sequentialIds());
    const scope: Scope = { trajectoryId: "main" };
    const events: AGUIEvent[] = [];
    blocks.appendText(scope, "step-1", "cut off", undefined, events);
    blocks.forget();
    const closing: AGUIEvent[] = [];
    blocks.closeAll(closing);
    expect(closing).toEqual([]);
    blocks.appendText(scope, "step-1", "again", undefined, events);
    expect(shapes(events).slice(2)).toEqual(["TEXT_MESSAGE_START id-2", "TEXT_MESSAGE_CONTENT id-2"]);
  });
});
