import { describe, expect, it } from "vitest";
import { describeToolCall, toolClassOf } from "../turns/tool-call-view.js";
import { proposedText } from "../turns/file-edits.js";
import { permissionKey } from "./permission-gate.js";
import { questionChannel } from "./question-asker.js";
import { modeDecision } from "./session-modes.js";

describe("what asks the user", () => {
  it("decides by mode: edits, commands and MCP tools ask; reads run; read-only refuses changes", () => {
    expect(modeDecision("ask", "edit", "pre-tool")).toBe("ask");
    expect(modeDecision("ask", "execute", "pre-tool")).toBe("ask");
    expect(modeDecision("ask", "mcp", "pre-tool")).toBe("ask");
    expect(modeDecision("ask", "read", "pre-tool")).toBe("allow");
    // A confirmation the harness asks for itself is put to the user even for a read.
    expect(modeDecision("ask", "read", "confirmation")).toBe("ask");
    expect(modeDecision("accept-edits", "edit", "pre-tool")).toBe("allow");
    expect(modeDecision("accept-edits", "execute", "confirmation")).toBe("ask");
    expect(modeDecision("read-only", "edit", "pre-tool")).toBe("deny");
    expect(modeDecision("read-only", "execute", "pre-tool")).toBe("deny");
    expect(modeDecision("read-only", "mcp", "pre-tool")).toBe("ask");
  });

  it("remembers 'always' for edits as a whole, commands by program, MCP tools by server and name", () => {
    expect(permissionKey({ name: "create_file" }, toolClassOf({ name: "create_file" }), {}).key).toBe("edit");
    expect(permissionKey({ name: "run_command" }, "execute", { CommandLine: "  git status" })).toEqual({ key: "execute:git", label: "Always allow `git` commands in this session" });
    expect(permissionKey({ name: "query", serverName: "db" }, toolClassOf({ name: "query", serverName: "db" }), {}).key).toBe("mcp:db/query");
  });

  it("describes calls from either spelling of their arguments", () => {
    expect(describeToolCall({ name: "view_file" }, { file_path: "/w/a.ts", start_line: 9 })).toEqual({ title: "Read /w/a.ts", kind: "read", locations: [{ path: "/w/a.ts", line: 10 }] });
    expect(describeToolCall({ name: "edit_file" }, { filePath: "relative.ts" })).toEqual({ title: "Edit relative.ts", kind: "edit", locations: [] });
    expect(describeToolCall({ name: "search_directory" }, { query: "TODO", directory_path: "/w" }).kind).toBe("search");
  });

  it("computes what an edit will make of a file, or says it cannot", () => {
    expect(proposedText("edit_file", { replacements: [{ target: "a", replacement: "b" }, { target: "b b", replacement: "c" }] }, "a b")).toBe("c");
    expect(proposedText("edit_file", { replacements: [{ target: "zzz", replacement: "b" }] }, "a b")).toBeUndefined();
    expect(proposedText("create_file", { contents: "new" }, null)).toBe("new");
  });

  it("asks questions by the richest channel the client offers", () => {
    const single = [{ question: "Which?", choices: ["a", "b"], isMultiSelect: false }];
    const multi = [{ question: "Which ones?", choices: ["a", "b"], isMultiSelect: true }];
    expect(questionChannel({ capabilities: { elicitation: { form: {} } } }, multi)).toBe("elicitation");
    expect(questionChannel({ capabilities: {} }, single)).toBe("permission");
    expect(questionChannel({ capabilities: {} }, multi)).toBe("text");
    expect(questionChannel({ capabilities: {} }, [{ question: "Name?", choices: [], isMultiSelect: false }])).toBe("text");
  });
});
