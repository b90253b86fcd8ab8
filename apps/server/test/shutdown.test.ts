// `node dist/main.js` as users run it: it says which harness it uses, prints its URL, and on
// SIGTERM stops itself and every harness process it started within the 10 s budget.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { childPidsOf, expectNoChildProcesses, isProcessAlive } from "@ag-ui-antigravity/testing";
import { afterEach, describe, expect, it } from "vitest";
import { clientFor, say } from "./support/agent-runs.js";
import { mainPath, waitForOutput } from "./support/server-process.js";

let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  // Only if a test failed half-way: the server and its process group must not outlive the suite.
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Waits until /metrics shows a run in progress on agentic_generative_ui. */
async function waitForStreamingRun(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const metrics = (await (await fetch(`${url}/metrics`)).json()) as { agents: Record<string, { sessions: { busySessions: number } }> };
    if ((metrics.agents["agentic_generative_ui"]?.sessions.busySessions ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error("the agentic_generative_ui run never started");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the built server as a process", () => {
  it("starts on the emulator saying why, serves runs, drains on SIGTERM and stops with its harnesses within 10 s", async () => {
    expect(existsSync(mainPath), "run pnpm build first").toBe(true);
    child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ANTIGRAVITY_DEMO_HARNESS: "emulator", LOG_LEVEL: "info", DEMO_TASK_STEP_MS: "150" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const server = child;
    let stdout = "";
    server.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const [, url] = await waitForOutput(server, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 20_000);
    // Not a terminal, so the logs are JSON lines; the harness decision is one of them.
    expect(stdout).toMatch(/"harness":"emulator".*Using the harness EMULATOR/);

    // A parked run keeps its conversation (and so a harness process) alive: the hard case for shutdown.
    const agent = clientFor(url!, "questions");
    const asked = await say(agent, "Help me pick a programming language");
    expect(asked.finished.outcome?.type).toBe("interrupt");
    const harnessPids = childPidsOf(server.pid);
    expect(harnessPids.length).toBeGreaterThanOrEqual(1);

    // A run that is streaming when the signal arrives is drained: it finishes instead of being cut.
    const streaming = clientFor(url!, "agentic_generative_ui");
    const inFlight = say(streaming, "Plan a product launch");
    await waitForStreamingRun(url!);

    const startedAt = Date.now();
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    server.kill("SIGTERM");
    const drained = await inFlight;
    expect(drained.finished.type).toBe("RUN_FINISHED");
    expect((streaming.state as { steps: { status: string }[] }).steps.every((step) => step.status === "completed")).toBe(true);
    const exitCode = await exited;
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(exitCode).toBe(0);
    expect(stdout).toContain("shutting down");
    for (const pid of harnessPids) expect(isProcessAlive(pid), `harness process ${pid} outlived the server`).toBe(false);
    await expectNoChildProcesses();
  });
});
