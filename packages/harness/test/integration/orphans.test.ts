import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { liveChildProcesses } from "../support/leak-check.js";

const parentScript = fileURLToPath(new URL("../fixtures/parent-with-harness.mjs", import.meta.url));
const distIndex = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const stubbornHarness = fileURLToPath(new URL("../fixtures/scripted-harness.mjs", import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return condition();
}

/** Runs the host program and returns the harness pid it printed, plus the host's own process. */
async function hostWithHarness(how: "exit" | "crash"): Promise<{ harnessPid: number; host: ReturnType<typeof spawn> }> {
  const host = spawn(process.execPath, [parentScript, distIndex, stubbornHarness, how], { stdio: ["ignore", "pipe", "ignore"] });
  const harnessPid = await new Promise<number>((resolve, reject) => {
    let output = "";
    host.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n")[0];
      if (output.includes("\n") && line !== undefined) resolve(Number(line));
    });
    host.once("exit", () => (output.includes("\n") ? undefined : reject(new Error("host exited before starting the harness"))));
  });
  return { harnessPid, host };
}

describe.runIf(existsSync(distIndex))("no orphans when the host goes away (needs the built dist)", () => {
  for (const how of ["exit", "crash"] as const) {
    it(`the exit hook kills the harness group when the host ${how === "exit" ? "calls process.exit" : "throws"}`, async () => {
      const { harnessPid, host } = await hostWithHarness(how);
      await new Promise((resolve) => host.once("exit", resolve));
      expect(await waitUntil(() => !isAlive(harnessPid), 3_000)).toBe(true);
      // The helper it started shares its process group and dies with it.
      expect(await waitUntil(() => liveChildProcesses([harnessPid]).length === 0, 3_000)).toBe(true);
    });
  }
});
