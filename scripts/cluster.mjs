#!/usr/bin/env node
// `pnpm cluster [--replicas N]`: builds the server and the deploy package, then runs a local cluster
// on 127.0.0.1 (Redis, N replicas of apps/server, HAProxy on CLUSTER_PORT, default 8040) until
// SIGINT / SIGTERM. redis-server and haproxy are installed with apt-get when missing.
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@ag-ui-antigravity/deploy...", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.error("pnpm cluster: the build failed (see above); nothing was started.");
  process.exit(build.status ?? 1);
}
// In this process, not a child: signals reach the cluster's own handlers unchanged.
await import(join(root, "deploy", "dist", "cluster-main.js"));
