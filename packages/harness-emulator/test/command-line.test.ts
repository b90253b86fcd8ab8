import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const launcher = fileURLToPath(new URL("../bin/localharness-emulator.mjs", import.meta.url));
const run = promisify(execFile);

describe("the localharness-emulator command line", () => {
  it("--help answers at once, exit 0, naming the releases it plays", async () => {
    const started = Date.now();
    const { stdout } = await run(process.execPath, [launcher, "--help"], { timeout: 10_000 });
    expect(stdout).toMatch(/^Usage: localharness-emulator/);
    expect(stdout).toContain("--harness-version V");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("--version answers at once, exit 0", async () => {
    const { stdout } = await run(process.execPath, [launcher, "--version"], { timeout: 10_000 });
    expect(stdout).toMatch(/^\d+\.\d+\.\d+ \(harness releases 0\.1\.8-0\.1\.\d+\)\n$/);
  });
});
