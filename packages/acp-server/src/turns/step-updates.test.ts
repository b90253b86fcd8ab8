import { describe, expect, it } from "vitest";
import type { PendingEdit } from "./file-edits.js";
import { StepUpdates } from "./step-updates.js";
import { testStep } from "./test-steps.js";
import { ToolCallBook } from "./tool-call-book.js";

function translator() {
  const book = new ToolCallBook();
  const edits = new Map<string, PendingEdit>();
  const updates = new StepUpdates(book, edits);
  const of = async (step: ReturnType<typeof testStep>) => {
    book.observe(step);
    return updates.updatesFor(step);
  };
  return { book, edits, updates, of };
}

describe("StepUpdates", () => {
  it("turns thinking and text deltas of the main trajectory into chunks, and nothing else", async () => {
    const { of } = translator();
    expect(await of(testStep({ stepIndex: 1, thinkingDelta: "hmm", textDelta: "Hi" }))).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } },
    ]);
    expect(await of(testStep({ stepIndex: 2, source: "user", textDelta: "my prompt" }))).toEqual([]);
    expect(await of(testStep({ stepIndex: 3, trajectoryId: "sub", isMainTrajectory: false, textDelta: "subagent text" }))).toEqual([]);
    const error = testStep({ stepIndex: 4, kind: "error", status: "error", error: { message: "quota exceeded", httpCode: 429 } });
    expect(await of(error)).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\nError: quota exceeded\n" } }]);
    expect(await of(error)).toEqual([]);
  });

  it("follows a tool call from its first sight to its output, once", async () => {
    const { of } = translator();
    const tool = { kind: "builtin" as const, name: "run_command", actionField: "runCommand", arguments: { commandLine: "ls" } };
    expect(await of(testStep({ stepIndex: 5, kind: "builtin_tool", status: "waiting", tool }))).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "t1:5", title: "Run `ls`", kind: "execute", status: "pending", locations: [], rawInput: { commandLine: "ls" } },
    ]);
    expect(await of(testStep({ stepIndex: 5, kind: "builtin_tool", status: "active", tool }))).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "t1:5", status: "in_progress" }]);
    const done = testStep({ stepIndex: 5, kind: "builtin_tool", status: "done", tool: { ...tool, result: { combinedOutput: "a\nb\n", exitCode: 2 } } });
    expect(await of(done)).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t1:5",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "```console\n$ ls\na\nb\n```\nexit code 2" } }],
        rawOutput: { combinedOutput: "a\nb\n", exitCode: 2 },
      },
    ]);
    // A re-delivered terminal step changes nothing.
    expect(await of(done)).toEqual([]);
  });

  it("reports a failed call with its error, and continues a call a hook announced", async () => {
    const { of, book, updates } = translator();
    const tool = { kind: "builtin" as const, name: "edit_file", actionField: "editFile", arguments: { filePath: "/w/a.txt" } };
    const claimed = await book.claim({ name: "edit_file" }, { signal: new AbortController().signal, waitMs: 0 });
    expect(claimed).toEqual({ toolCallId: "hook-1", announced: false });
    updates.markAnnounced(claimed.toolCallId);
    const failed = await of(testStep({ stepIndex: 6, kind: "builtin_tool", status: "error", tool, error: { message: "The user rejected this tool call." } }));
    expect(failed).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "hook-1", status: "failed", content: [{ type: "content", content: { type: "text", text: "The user rejected this tool call." } }] }]);
  });

  it("shows a finished edit as the diff between the file captured before and the file now", async () => {
    const { of, edits } = translator();
    edits.set("t1:7", { path: "/nonexistent/dir/a.txt", before: "old\n", proposed: "new\n" });
    const tool = { kind: "builtin" as const, name: "edit_file", actionField: "editFile", arguments: { filePath: "/nonexistent/dir/a.txt" }, result: { diffBlock: [] } };
    const updates = await of(testStep({ stepIndex: 7, kind: "builtin_tool", status: "done", tool }));
    // The file is not on disk here, so the expected text stands in for it.
    expect(updates.at(-1)).toMatchObject({ status: "completed", content: [{ type: "diff", path: "/nonexistent/dir/a.txt", oldText: "old\n", newText: "new\n" }] });
    expect(edits.size).toBe(0);
  });
});
