#!/usr/bin/env node
// `pnpm cluster [--replicas N] [--logs DIR]`: builds the server and the deploy package, then runs a
// local cluster on 127.0.0.1 (Redis, N replicas of apps/server, HAProxy on CLUSTER_PORT, default
// 8040) until SIGINT / SIGTERM. redis-server and haproxy are installed with apt-get when missing.
// --help, --version and unknown options are answered here, before the build (a minute the first time).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const usage = `Usage: pnpm cluster [--replicas N] [--logs DIR]

Builds the demo server, then runs a local cluster on 127.0.0.1 until Ctrl+C: Redis, N replicas of
apps/server sharing one save dir and Redis, and HAProxy in front routing each thread to one replica
(deploy/README.md). redis-server and haproxy come from Debian (apt-get installs them when missing).

  --replicas N   replicas to run, 1 to 16 (default 3)
  --logs DIR     where each replica's, Redis's and HAProxy's log is written, kept after the cluster
                 stops (default: a new ag-ui-cluster-logs-* folder in the temporary directory,
                 printed at startup)
  --help         this text
  --version      the demo server's version

Environment:
  CLUSTER_PORT   HAProxy's port (default 8040; 0 picks a free one)
`;

const argv = process.argv.slice(2).filter((argument) => argument !== "--");
let values;
try {
  ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { replicas: { type: "string" }, logs: { type: "string" }, help: { type: "boolean" }, version: { type: "boolean" } } }));
} catch (error) {
  process.stderr.write(`pnpm cluster: ${error.message}\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (values.version) {
  const { version } = JSON.parse(readFileSync(join(root, "apps", "server", "package.json"), "utf8"));
  process.stdout.write(`ag-ui-antigravity demo server ${version} (node ${process.version})\n`);
  process.exit(0);
}

console.log("pnpm cluster: building the server and the cluster runner (a minute the first time)…");
const build = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@ag-ui-antigravity/deploy...", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.error("pnpm cluster: the build failed (see above); nothing was started.");
  process.exit(build.status ?? 1);
}
// In this process, not a child: signals reach the cluster's own handlers unchanged. It reads the
// same arguments (its values are checked there).
await import(pathToFileURL(join(root, "deploy", "dist", "cluster-main.js")).href);
