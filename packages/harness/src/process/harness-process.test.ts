import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectNoLeaks, takeLeakBaseline, type LeakBaseline } from "../../test/support/leak-check.js";
import { HarnessError } from "../errors/harness-error.js";
import { decodeInputConfig } from "../protocol/handshake.js";
import { HarnessProcess } from "./harness-process.js";
import { HARNESS_PACKAGE_VERSION } from "./package-version.js";

const scriptedHarness = fileURLToPath(new URL("../../test/fixtures/scripted-harness.mjs", import.meta.url));
let baseline: LeakBaseline;
const groups: number[] = [];
const started: HarnessProcess[] = [];

beforeEach(() => {
  baseline = takeLeakBaseline();
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((harness) => harness.close({ gracePeriodMs: 500 })));
  await expectNoLeaks(baseline, groups.splice(0));
});

async function start(mode: string, options: Partial<Parameters<typeof HarnessProcess.start>[0]> = {}): Promise<HarnessProcess> {
  const harness = await HarnessProcess.start({ binaryPath: scriptedHarness, ...options, env: { SCRIPTED_HARNESS_MODE: mode, ...options.env } });
  started.push(harness);
  groups.push(harness.pid);
  return harness;
}

function stderrLine(harness: HarnessProcess, prefix: string): string {
  const line = harness.stderrTail().find((entry) => entry.startsWith(prefix));
  if (line === undefined) throw new Error(`no ${prefix} line in ${harness.stderrTail().join(" | ")}`);
  return line.slice(prefix.length);
}

describe("HarnessProcess", () => {
  it("handshakes with a typescript InputConfig, a minimal environment and an owned storage directory", async () => {
    process.env.SECRET_FOR_SOMEONE_ELSE = "do-not-forward";
    const harness = await start("normal", { env: { ONLY_MINE: "1" } });
    delete process.env.SECRET_FOR_SOMEONE_ELSE;
    expect(harness.port).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const input = decodeInputConfig(Buffer.from(stderrLine(harness, "INPUT "), "hex"));
    expect(input.clientInfo).toMatchObject({ language: "typescript", version: HARNESS_PACKAGE_VERSION, languageVersion: process.versions.node, os: process.platform });
    expect(input.env).toEqual({ SCRIPTED_HARNESS_MODE: "normal", ONLY_MINE: "1" });
    expect(input.storageDirectory).toBe(harness.storageDirectory);
    const environment = JSON.parse(stderrLine(harness, "ENV ")) as string[];
    expect(environment).toContain("ONLY_MINE");
    expect(environment).toContain("PATH");
    expect(environment).not.toContain("SECRET_FOR_SOMEONE_ELSE");
    expect(existsSync(harness.storageDirectory)).toBe(true);

    const closing = harness.close();
    expect(harness.close()).toBe(closing);
    await closing;
    await expect(harness.exited).resolves.toEqual({ code: 0, signal: null });
    expect(harness.signal.aborted).toBe(true);
    expect(existsSync(harness.storageDirectory)).toBe(false);
  });

  it("traces the stdio handshake for ANTIGRAVITY_WIRE=harness, with the harness token redacted", async () => {
    const lines: string[] = [];
    await start("normal", { wire: "harness", logger: { debug: (_fields, message = "") => void lines.push(message) } });
    const traces = lines.filter((line) => line.startsWith("antigravity harness"));
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatch(/^antigravity harness → \{"storageDirectory":.*"language":"typescript"/);
    expect(traces[1]).toMatch(/^antigravity harness ← \{"port":\d+,"apiKey":"\[REDACTED\]"\}$/);
    expect(traces.join("\n")).not.toContain("scripted-token-abcdef");
    expect(traces[1]).toContain("[REDACTED]");
  });

  it("reports a harness that dies before the handshake as HANDSHAKE_FAILED with its stderr", async () => {
    const error = await HarnessProcess.start({ binaryPath: scriptedHarness, env: { SCRIPTED_HARNESS_MODE: "exit-before-handshake" } }).catch(
      (caught: unknown) => caught,
    );
    expect(HarnessError.isInstance(error) && error.code).toBe("HANDSHAKE_FAILED");
    expect((error as HarnessError).stderrTail).toContain("fatal: no text model configuration provided");
  });

  it("times out a silent harness and leaves nothing behind", async () => {
    const error = await HarnessProcess.start({ binaryPath: scriptedHarness, env: { SCRIPTED_HARNESS_MODE: "silent" }, handshakeTimeoutMs: 300 }).catch(
      (caught: unknown) => caught,
    );
    expect(HarnessError.isInstance(error) && error.code).toBe("HANDSHAKE_FAILED");
    expect((error as Error).message).toContain("300 ms");
  });

  it("fails with SPAWN_FAILED when the binary cannot be executed", async () => {
    await expect(HarnessProcess.start({ binaryPath: "/nonexistent/localharness" })).rejects.toMatchObject({ code: "SPAWN_FAILED" });
  });

  it("honours an aborted signal", async () => {
    await expect(HarnessProcess.start({ binaryPath: scriptedHarness, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("escalates to SIGKILL for a harness that ignores stdin EOF and SIGTERM, and kills its whole group", async () => {
    const harness = await start("stubborn");
    const began = Date.now();
    await harness.close({ gracePeriodMs: 200 });
    expect(Date.now() - began).toBeLessThan(4_000);
    await expect(harness.exited).resolves.toEqual({ code: null, signal: "SIGKILL" });
  });

  it("aborts its signal with CONNECTION_CLOSED and the stderr tail when the process dies", async () => {
    const harness = await start("normal");
    process.kill(harness.pid, "SIGKILL");
    await new Promise<void>((resolve) => harness.signal.addEventListener("abort", () => resolve(), { once: true }));
    const reason = harness.signal.reason as HarnessError;
    expect(reason.code).toBe("CONNECTION_CLOSED");
    expect(reason.stderrTail.some((line) => line.startsWith("INPUT "))).toBe(true);
    await harness.closed;
    await expect(harness.openConversation({})).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });
});
