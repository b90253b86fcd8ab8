#!/usr/bin/env node
// Packs every publishable package, installs the tarballs into a throwaway project with npm, and
// imports and requires each entry point under plain Node. Vitest's resolver hides ESM/CJS interop
// bugs; this does not.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const packagesDir = join(root, "packages");
const workDir = mkdtempSync(join(tmpdir(), "agui-antigravity-smoke-"));
let failures = 0;
let checks = 0;

try {
  const tarballs = [];
  const entries = [];
  for (const dir of readdirSync(packagesDir)) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8"));
    if (manifest.private) continue;
    const output = execFileSync("pnpm", ["pack", "--pack-destination", workDir], { cwd: join(packagesDir, dir), encoding: "utf8" });
    tarballs.push(output.trim().split("\n").pop());
    for (const subpath of Object.keys(manifest.exports ?? {})) {
      if (subpath === "./package.json") continue;
      entries.push(subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);
    }
  }
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ name: "smoke", private: true, version: "0.0.0" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], { cwd: workDir, stdio: "inherit" });

  for (const entry of entries) {
    for (const [mode, source] of [
      ["import", `const m = await import(${JSON.stringify(entry)}); if (Object.keys(m).length === 0) throw new Error("no exports");`],
      ["require", `const m = require(${JSON.stringify(entry)}); if (Object.keys(m).length === 0) throw new Error("no exports");`],
    ]) {
      checks += 1;
      const file = join(workDir, mode === "import" ? "check.mjs" : "check.cjs");
      writeFileSync(file, source);
      try {
        execFileSync(process.execPath, [file], { cwd: workDir, stdio: "pipe" });
        console.log(`ok   ${mode.padEnd(7)} ${entry}`);
      } catch (error) {
        failures += 1;
        console.log(`FAIL ${mode.padEnd(7)} ${entry}\n${error.stderr?.toString() ?? error}`);
      }
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(`smoke: ${checks - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
