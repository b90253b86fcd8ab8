import { describe, expect, it } from "vitest";
import { testStep } from "./test-steps.js";
import { ToolCallBook } from "./tool-call-book.js";

const signal = new AbortController().signal;
const tool = (name: string) => ({ kind: "builtin" as const, name, actionField: name, arguments: {} });

describe("ToolCallBook", () => {
  it("gives a hook the oldest unclaimed step of its tool", async () => {
    const book = new ToolCallBook();
    book.observe(testStep({ stepIndex: 1, kind: "builtin_tool", tool: tool("view_file") }));
    book.observe(testStep({ stepIndex: 2, kind: "builtin_tool", tool: tool("edit_file") }));
    book.observe(testStep({ stepIndex: 3, kind: "builtin_tool", tool: tool("edit_file") }));
    expect(await book.claim({ name: "edit_file" }, { signal })).toEqual({ toolCallId: "t1:2", announced: true });
    expect(await book.claim({ name: "edit_file" }, { signal })).toEqual({ toolCallId: "t1:3", announced: true });
  });

  it("waits for a step that is still on its way, and names the call when none comes", async () => {
    const book = new ToolCallBook();
    const waiting = book.claim({ name: "run_command" }, { signal, waitMs: 5_000 });
    book.observe(testStep({ stepIndex: 4, kind: "builtin_tool", tool: tool("view_file") }));
    book.observe(testStep({ stepIndex: 5, kind: "builtin_tool", tool: tool("run_command") }));
    expect(await waiting).toEqual({ toolCallId: "t1:5", announced: true });
    const named = await book.claim({ name: "run_command" }, { signal, waitMs: 10 });
    expect(named).toEqual({ toolCallId: "hook-1", announced: false });
    // The step that shows the named call later takes its id.
    expect(book.observe(testStep({ stepIndex: 6, kind: "builtin_tool", status: "waiting", tool: tool("run_command") }))).toBe("hook-1");
    expect(book.claimStep(testStep({ stepIndex: 6, kind: "builtin_tool", tool: tool("run_command") }))).toEqual({ toolCallId: "hook-1", announced: true });
  });
});
