#!/usr/bin/env node
// `pnpm start`: builds what is needed and starts the demo server with the dojo. Until apps/server
// exists, it starts what does exist — the harness emulator — and says so.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const serverDir = join(root, "apps", "server");

const build = spawnSync("pnpm", ["exec", "turbo", "run", "build"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

if (existsSync(join(serverDir, "package.json"))) {
  const server = spawn("pnpm", ["--dir", serverDir, "start"], { cwd: root, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
} else {
  const { encodeInputConfig, encodeFrame, FrameReader, decodeOutputConfig } = await import(
    join(root, "packages", "harness", "dist", "protocol.js")
  );
  console.log("apps/server and the dojo are not built yet; starting the harness emulator on its own.");
  const emulator = spawn(process.execPath, [join(root, "packages", "harness-emulator", "dist", "bin.js")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const storageDirectory = mkdtempSync(join(tmpdir(), "antigravity-emulator-"));
  emulator.stdin.write(encodeFrame(encodeInputConfig({ storageDirectory, bindAddress: "127.0.0.1" })));
  const reader = new FrameReader();
  emulator.stdout.on("data", (chunk) => {
    for (const payload of reader.push(chunk)) {
      const { port, apiKey } = decodeOutputConfig(payload);
      console.log(`harness emulator listening on ws://127.0.0.1:${port}/ (x-goog-api-key: ${apiKey})`);
      console.log("Press Ctrl+C to stop.");
    }
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => emulator.stdin.end());
  emulator.on("exit", (code) => process.exit(code ?? 0));
}
