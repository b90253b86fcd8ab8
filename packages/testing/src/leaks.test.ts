import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { activeHandleCounts, childPidsOf, descendantPids, expectNoActiveHandles, expectNoChildProcesses, isProcessAlive } from "./leaks.js";
import { loadProtocolFixture, protocolFixtureNames } from "./protocol-fixtures.js";

describe("leak checks", () => {
  it("sees a live child and then its absence", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    expect(childPidsOf()).toContain(child.pid);
    await expect(expectNoChildProcesses({ graceMs: 100 })).rejects.toThrow(/leaked child processes/);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    await expectNoChildProcesses();
    expect(isProcessAlive(child.pid!)).toBe(false);
  });
});

describe("protocol fixtures", () => {
  it("lists and loads every captured flow", () => {
    const names = protocolFixtureNames();
    expect(names).toContain("plain_text_turn");
    for (const name of names) expect(loadProtocolFixture(name).messages.length).toBeGreaterThan(0);
  });
});

describe("active handle checks", () => {
  it("reports only handles beyond the baseline", async () => {
    const baseline = activeHandleCounts();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    await expect(expectNoActiveHandles({ baseline, graceMs: 100 })).rejects.toThrow(/TCPServerWrap/);
    await new Promise((resolve) => server.close(resolve));
    await expectNoActiveHandles({ baseline, graceMs: 1_000 });
  });
});

describe("descendantPids", () => {
  it("sees grandchildren, not only children", async () => {
    const child = spawn(process.execPath, ["-e", "require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }); setTimeout(() => {}, 60000)"], { stdio: "ignore", detached: true });
    await new Promise((resolve) => child.once("spawn", resolve));
    let descendants: number[] = [];
    for (let attempt = 0; attempt < 100 && descendants.length < 2; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      descendants = descendantPids();
    }
    expect(descendants).toContain(child.pid);
    expect(descendants.length).toBeGreaterThanOrEqual(2);
    process.kill(-child.pid!, "SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    await expectNoChildProcesses();
  });
});
