#!/usr/bin/env node
// `pnpm start`: builds every package and app (the dojo included), then runs the demo server, which
// serves the dojo at http://127.0.0.1:8027/dojo/ (PORT and HOST change that). With no GEMINI_API_KEY
// or no localharness binary, the server runs on the harness emulator and says so.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const serverMain = join(root, "apps", "server", "dist", "main.js");

const build = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.error("pnpm start: the build failed (see above); nothing was started.");
  process.exit(build.status ?? 1);
}
if (!existsSync(serverMain)) {
  console.error(`pnpm start: the build did not produce ${serverMain}.`);
  process.exit(1);
}

// Node runs the server directly (not through another pnpm), so signals reach it unchanged. A Ctrl+C
// in a terminal reaches both processes; the server ignores the forwarded duplicate.
const server = spawn(process.execPath, [serverMain], { cwd: join(root, "apps", "server"), stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
