// Every executable a published package declares is a committed file, never a dist/ file: pnpm links
// bins when it installs the workspace, before anything is built, and a bin whose target does not
// exist yet makes it warn "Failed to create bin … ENOENT" once per dependent package.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./paths.js";


const declared = readdirSync(join(repoRoot, "packages")).flatMap((directory) => {
  const manifestPath = join(repoRoot, "packages", directory, "package.json");
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: Record<string, string> | string; files?: string[] };
  const bins = typeof manifest.bin === "string" ? { [directory]: manifest.bin } : (manifest.bin ?? {});
  return Object.entries(bins).map(([name, target]) => ({ directory, name, target, files: manifest.files ?? [] }));
});

describe("package bins", () => {
  it("are declared by the packages that have a command line", () => {
    expect(declared.map((bin) => bin.name).sort()).toEqual(["antigravity-acp-server", "antigravity-harness", "antigravity-mcp-server", "localharness-emulator"]);
  });

  it.each(declared.map((bin) => [bin.name, bin] as const))("%s is a committed launcher, published with the package", (_name, bin) => {
    const target = bin.target.replace(/^\.\//, "");
    expect(target.startsWith("dist/"), `${bin.directory}: ${bin.target} exists only after a build`).toBe(false);
    expect(existsSync(join(repoRoot, "packages", bin.directory, target))).toBe(true);
    expect(bin.files.some((entry) => target === entry || target.startsWith(`${entry.replace(/\/$/, "")}/`)), `${target} is not in "files"`).toBe(true);
  });
});
