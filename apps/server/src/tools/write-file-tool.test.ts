import { describe, expect, it } from "vitest";
import { sandboxDirectory, sandboxedPath, WriteFileError } from "./write-file-tool.js";

describe("write_file sandbox", () => {
  const directory = sandboxDirectory("/tmp/agd-test/files", "conversation-1");

  it("names a directory under the root from a digest, never from the id", () => {
    expect(directory).toMatch(/^\/tmp\/agd-test\/files\/[0-9a-f]{16}$/);
    expect(sandboxDirectory("/tmp/agd-test/files", "../../etc")).toMatch(/^\/tmp\/agd-test\/files\/[0-9a-f]{16}$/);
  });

  it("keeps relative paths inside and refuses escapes", () => {
    expect(sandboxedPath(directory, "notes.txt")).toBe(`${directory}/notes.txt`);
    expect(sandboxedPath(directory, "drafts/../plan.md")).toBe(`${directory}/plan.md`);
    for (const path of ["../outside.txt", "/etc/passwd", "", ".", "a/../../b"]) expect(() => sandboxedPath(directory, path)).toThrow(WriteFileError);
  });
});
