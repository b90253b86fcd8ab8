// The README's start command as a new user meets it (scripts/start.mjs, what `pnpm start` runs):
// --help and --version answer at once, and a Ctrl+C in the terminal (SIGINT to the whole process
// group, as a terminal sends it) stops the server and exits 0 without a word on stderr.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { mainPath, waitForOutput } from "./support/server-process.js";

const startScript = fileURLToPath(new URL("../../../scripts/start.mjs", import.meta.url));
let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  // Only if a test failed half-way: the group (start.mjs, the server, its harnesses) must not outlive it.
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGKILL");
  child = undefined;
});

describe("scripts/start.mjs", () => {
  it.each([
    ["--help", /Usage: node scripts\/start\.mjs[\s\S]*PORT[\s\S]*HOST/],
    ["--version", /^ag-ui-antigravity demo server \d+\.\d+\.\d+/],
  ])("answers %s at once with exit 0, building nothing", (flag, expected) => {
    const startedAt = Date.now();
    const result = spawnSync(process.execPath, [startScript, flag], { encoding: "utf8", timeout: 10_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(expected);
    expect(result.stdout).not.toContain("building");
    // Generous for a loaded CI machine; a command that builds first takes a minute.
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it("refuses an unknown flag with exit 2 and the usage", () => {
    const result = spawnSync(process.execPath, [startScript, "--bogus"], { encoding: "utf8", timeout: 10_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/bogus[\s\S]*Usage:/);
  });

  it("prints the dojo's URL once listening, and exits 0 quietly on a terminal's Ctrl+C", async () => {
    expect(existsSync(mainPath), "run pnpm build first").toBe(true);
    // Its own process group, as a terminal's foreground job: the SIGINT below reaches every process in it.
    child = spawn(process.execPath, [startScript, "--no-build"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ANTIGRAVITY_DEMO_HARNESS: "emulator" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const started = child;
    let stderr = "";
    started.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    await waitForOutput(started, /open the dojo at http:\/\/127\.0\.0\.1:\d+\/dojo\//, 30_000);
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => started.once("exit", (code, signal) => resolve([code, signal])));
    process.kill(-started.pid!, "SIGINT");
    expect(await exited).toEqual([0, null]);
    expect(stderr).toBe("");
  });
});
