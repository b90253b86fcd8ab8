import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { WorkspaceGuard } from "./workspace-guard.js";

const root = mkdtempSync(join(tmpdir(), "guard-"));
const workspace = join(root, "workspace");
mkdirSync(join(workspace, "inner"), { recursive: true });
symlinkSync(tmpdir(), join(workspace, "escape"));
// A link to a file that does not exist yet, outside: writing through it would create that file.
symlinkSync(join(root, "outside-not-yet.txt"), join(workspace, "dangling"));
symlinkSync(join(workspace, "loop-b"), join(workspace, "loop-a"));
symlinkSync(join(workspace, "loop-a"), join(workspace, "loop-b"));
symlinkSync(join(workspace, "inner", "later.txt"), join(workspace, "dangling-inside"));

describe("WorkspaceGuard", () => {
  const guard = new WorkspaceGuard({ roots: [workspace], enforce: true });

  it("accepts paths inside a workspace, relative ones, file:// URIs and files not created yet", () => {
    expect(guard.check(join(workspace, "inner"))).toBe(join(workspace, "inner"));
    expect(guard.check("inner/new.txt")).toBe(join(workspace, "inner", "new.txt"));
    expect(guard.check(pathToFileURL(join(workspace, "a.txt")).href)).toBe(join(workspace, "a.txt"));
    expect(guard.check(workspace)).toBe(workspace);
  });

  it("refuses paths outside, traversal, sibling prefixes and symlinks that leave the workspace", () => {
    for (const path of ["/etc/passwd", join(workspace, ".."), `${workspace}-sibling/file`, join(workspace, "escape", "x")]) {
      expect(() => guard.check(path)).toThrow(expect.objectContaining({ code: "WORKSPACE_VIOLATION" }));
    }
  });

  it("follows a dangling symlink to where it points, and refuses a loop of links", () => {
    expect(() => guard.check(join(workspace, "dangling"))).toThrow(expect.objectContaining({ code: "WORKSPACE_VIOLATION" }));
    expect(guard.contains(join(workspace, "dangling"))).toBe(false);
    expect(() => guard.check(join(workspace, "loop-a"))).toThrow(expect.objectContaining({ code: "WORKSPACE_VIOLATION" }));
    expect(guard.check(join(workspace, "dangling-inside"))).toBe(join(workspace, "dangling-inside"));
  });

  it("does not enforce when permissions.enforceWorkspaceValidation is false, and needs a workspace for relative paths", () => {
    expect(new WorkspaceGuard({ roots: [workspace], enforce: false }).check("/etc/passwd")).toBe("/etc/passwd");
    expect(() => new WorkspaceGuard({ roots: [], enforce: true }).check("relative.txt")).toThrow(expect.objectContaining({ code: "WORKSPACE_VIOLATION" }));
  });
});
