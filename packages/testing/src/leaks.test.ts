import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { childPidsOf, expectNoChildProcesses, isProcessAlive } from "./leaks.js";
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
