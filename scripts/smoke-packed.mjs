#!/usr/bin/env node
// Packs every publishable package, installs the tarballs into a throwaway project with npm, and
// imports and requires each entry point under plain Node. Vitest's resolver hides ESM/CJS interop
// bugs; this does not.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packPublishedPackages } from "./lib/pack-packages.mjs";

const workDir = mkdtempSync(join(tmpdir(), "agui-antigravity-smoke-"));
let failures = 0;
let checks = 0;

try {
  const tarballs = [];
  const entries = [];
  const tarballOf = new Map();
  for (const { manifest, tarball } of packPublishedPackages(workDir)) {
    tarballs.push(tarball);
    tarballOf.set(manifest.name, tarball);
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
  // The adapter alone: its production dependencies only. The emulator (a test double, and the MCP SDK
  // through it) is an optional peer, so it must not come along; npm would fail here if agent still
  // depended on it, since no tarball offers it.
  const adapterDir = join(workDir, "adapter-only");
  mkdirSync(adapterDir);
  writeFileSync(join(adapterDir, "package.json"), JSON.stringify({ name: "adapter-only", private: true, version: "0.0.0" }));
  const adapter = ["agent", "core", "harness", "hitl", "pool", "translator"].map((name) => tarballOf.get(`@ag-ui-antigravity/${name}`));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...adapter], { cwd: adapterDir, stdio: "inherit" });
  for (const absent of ["@ag-ui-antigravity/harness-emulator", "@modelcontextprotocol/sdk"]) {
    checks += 1;
    if (existsSync(join(adapterDir, "node_modules", absent))) {
      failures += 1;
      console.log(`FAIL npm install @ag-ui-antigravity/agent brought ${absent}`);
    } else {
      console.log(`ok   npm install @ag-ui-antigravity/agent installs no ${absent}`);
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(`smoke: ${checks - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
