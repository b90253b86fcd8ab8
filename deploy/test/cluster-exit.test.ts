// A process that ends without calling stop() (an uncaught error, process.exit) must not leave the
// cluster's processes behind: Redis in particular cannot tell that its parent is gone.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isProcessAlive, servicesRequired } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { findExecutable } from "../src/system-packages.js";

const missing = ["redis-server", "haproxy"].filter((name) => findExecutable(name) === undefined);
const skipReason = missing.length > 0 && process.getuid?.() !== 0 && !servicesRequired() ? `${missing.join(" and ")} missing and not root (apt-get install -y redis-server haproxy)` : undefined;
const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));

describe.skipIf(skipReason !== undefined)(`cluster owner ending abruptly${skipReason === undefined ? "" : ` (skipped: ${skipReason})`}`, () => {
  it("a process that exits with a started cluster and no stop() takes Redis, HAProxy and the replica with it", async () => {
    const script = `
      import { startCluster } from ${JSON.stringify(distEntry)};
      const cluster = await startCluster({ replicas: 1, port: 0 });
      console.log(JSON.stringify(cluster.workDirectory));
      console.log(JSON.stringify([cluster.redis.pid, cluster.haproxy.pid, ...cluster.replicas.map((replica) => replica.pid)]));
      process.exit(3);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(3);
    const pids = JSON.parse(output.trim().split("\n").at(-1) ?? "[]") as number[];
    expect(pids).toHaveLength(3);
    // SIGKILL is delivered at once; give the kernel a moment to reap them.
    const deadline = Date.now() + 5_000;
    while (pids.some((pid) => isProcessAlive(pid)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const pid of pids) expect(isProcessAlive(pid), `pid ${pid} outlived the cluster's owner`).toBe(false);
    // Nor is its work directory (save dir, haproxy.cfg, logs) left in the temporary folder.
    const workDirectory = JSON.parse(output.trim().split("\n").at(-2) ?? '""') as string;
    expect(workDirectory).toMatch(/ag-ui-cluster-/);
    expect(existsSync(workDirectory), `${workDirectory} outlived the cluster's owner`).toBe(false);
  }, 120_000);
});
