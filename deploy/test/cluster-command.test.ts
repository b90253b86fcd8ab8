// `pnpm cluster` as a new user meets it (scripts/cluster.mjs): --help and --version answer at once
// with exit 0, and an option it does not know is refused before the build starts.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const clusterScript = fileURLToPath(new URL("../../scripts/cluster.mjs", import.meta.url));

function runCluster(...argv: string[]) {
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, [clusterScript, ...argv], { encoding: "utf8", timeout: 10_000 });
  return { ...result, ms: Date.now() - startedAt };
}

describe("scripts/cluster.mjs", () => {
  it.each([
    ["--help", /^Usage: pnpm cluster \[--replicas N\] \[--logs DIR\][\s\S]*CLUSTER_PORT/],
    ["--version", /^ag-ui-antigravity demo server \d+\.\d+\.\d+/],
  ])("answers %s at once with exit 0, building nothing", (flag, expected) => {
    const result = runCluster(flag);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(expected);
    expect(result.stdout).not.toContain("building");
    // Generous for a loaded CI machine; the build it skips takes a minute.
    expect(result.ms).toBeLessThan(2_000);
  });

  it("refuses an unknown option with exit 2 and the usage, before building", () => {
    const result = runCluster("--workers", "2");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--workers[\s\S]*Usage: pnpm cluster/);
    expect(result.stdout).toBe("");
  });
});
