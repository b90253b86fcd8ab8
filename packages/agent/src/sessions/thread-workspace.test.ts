import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureThreadWorkspace, threadWorkspacePath } from "./thread-workspace.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("threadWorkspacePath", () => {
  it("keeps every thread id, hostile ones included, inside the root", () => {
    const root = "/srv/workspaces";
    for (const threadId of ["../../etc", "/", "..", "a/../../b", "\0", "x".repeat(10_000), "thread-1", "日本語"]) {
      const path = threadWorkspacePath(root, threadId);
      const fromRoot = relative(root, path);
      expect(fromRoot.startsWith("..")).toBe(false);
      expect(fromRoot).not.toContain("/");
      expect(fromRoot.length).toBeLessThanOrEqual(41);
    }
  });

  it("gives distinct threads distinct directories and one thread the same one", () => {
    expect(threadWorkspacePath("/r", "a")).toBe(threadWorkspacePath("/r", "a"));
    expect(threadWorkspacePath("/r", "a/b")).not.toBe(threadWorkspacePath("/r", "ab"));
  });

  it("creates the directory", async () => {
    const root = mkdtempSync(join(tmpdir(), "ws-"));
    roots.push(root);
    const directory = await ensureThreadWorkspace(root, "../escape");
    expect(statSync(directory).isDirectory()).toBe(true);
    expect(directory.startsWith(root)).toBe(true);
  });
});
