import { describe, expect, it } from "vitest";
import { Transcript } from "./transcript.js";

describe("Transcript", () => {
  it("merges consecutive chunks of a kind and folds tool call updates into their call", () => {
    const transcript = new Transcript();
    transcript.add({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "do it" } });
    transcript.add({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "let me " } });
    transcript.add({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "think" } });
    transcript.add({ sessionUpdate: "tool_call", toolCallId: "a", title: "Run `ls`", kind: "execute", status: "pending" });
    transcript.add({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done" } });
    transcript.add({ sessionUpdate: "tool_call_update", toolCallId: "a", status: "completed", content: [{ type: "content", content: { type: "text", text: "out" } }] });
    transcript.add({ sessionUpdate: "tool_call_update", toolCallId: "unknown", status: "failed" });
    transcript.add({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "." } });
    expect(transcript.take()).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "do it" } },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "let me think" } },
      { sessionUpdate: "tool_call", toolCallId: "a", title: "Run `ls`", kind: "execute", status: "completed", content: [{ type: "content", content: { type: "text", text: "out" } }] },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } },
    ]);
    expect(transcript.take()).toEqual([]);
  });
});
