#!/usr/bin/env node
// `pnpm start`: builds every package and app (the dojo included), then runs the demo server, which
// serves the dojo at http://127.0.0.1:8027/dojo/ (PORT and HOST change that). With no GEMINI_API_KEY
// or no localharness binary, the server runs on the harness emulator and says so.
//
// It says what it is doing while it builds (the first build takes a minute or two), and a Ctrl+C
// stops the server and exits 0: stopping the demo is not a failure.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const serverDirectory = join(root, "apps", "server");
const serverMain = join(serverDirectory, "dist", "main.js");

const usage = `Usage: node scripts/start.mjs [--no-build | --help | --version]   (or: pnpm start)

Builds the packages, the demo server and the dojo (turbo caches what did not change), then runs the
demo server until Ctrl+C, which stops it and exits 0. Open the dojo at http://HOST:PORT/dojo/
(http://127.0.0.1:8027/dojo/). --no-build runs what is already built.

Environment (read by the server; apps/server/README.md lists them all):
  PORT                    port to listen on (default 8027; 0 picks a free one, printed at startup)
  HOST                    address to listen on (default 127.0.0.1; another one needs AUTH_TOKENS)
  GEMINI_API_KEY          with the real harness installed (pip install google-antigravity or
                          ANTIGRAVITY_HARNESS_PATH), the agents use Gemini; without, the emulator
  ANTIGRAVITY_DEMO_HARNESS  auto (default), real (never fall back) or emulator
`;

let options;
try {
  options = parseArgs({ args: process.argv.slice(2), strict: true, allowPositionals: false, options: { help: { type: "boolean" }, version: { type: "boolean" }, "no-build": { type: "boolean" } } }).values;
} catch (error) {
  process.stderr.write(`pnpm start: ${error.message}\n\n${usage}`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (options.version) {
  const { version } = JSON.parse(readFileSync(join(serverDirectory, "package.json"), "utf8"));
  process.stdout.write(`ag-ui-antigravity demo server ${version} (node ${process.version})\n`);
  process.exit(0);
}

const say = (line) => process.stdout.write(`pnpm start: ${line}\n`);
const host = process.env.HOST?.trim() || "127.0.0.1";
const port = process.env.PORT?.trim() || "8027";
if (options["no-build"] !== true) build();
if (!existsSync(serverMain)) {
  console.error(`pnpm start: ${serverMain} is missing; run without --no-build to build it.`);
  process.exit(1);
}
say(`starting the demo server on ${host}:${port} (set PORT and HOST to change it)…`);

function build() {
  say("building the packages, the demo server and the dojo (a minute or two the first time on 2 cores; later starts reuse turbo's cache)…");
  const buildStartedAt = Date.now();
  // hash-only: one line per package as its build starts, so a long first build is not silence; a
  // failing build still prints its errors.
  const result = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--output-logs=hash-only", "--log-prefix=task"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error("pnpm start: the build failed (see above); nothing was started.");
    process.exit(result.status ?? 1);
  }
  say(`built in ${Math.round((Date.now() - buildStartedAt) / 1000)} s`);
}

// Node runs the server directly (not through another pnpm), so signals reach it unchanged. A Ctrl+C
// in a terminal reaches both processes; the server ignores the forwarded duplicate.
const server = spawn(process.execPath, [serverMain], { cwd: serverDirectory, stdio: "inherit" });
let stopSignal;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopSignal = signal;
    server.kill(signal);
  });
}
server.on("exit", (code, signal) => {
  // A server stopped by our signal (or one it passed on) stopped as asked: exit 0, quietly.
  if (stopSignal !== undefined && (code === 0 || signal === stopSignal)) process.exit(0);
  process.exit(code ?? 1);
});
