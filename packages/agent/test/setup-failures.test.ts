import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EventType, type RunErrorEvent } from "@ag-ui/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir } = useAgents();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A machine without the harness: nothing on PATH (so no python3 either), no ANTIGRAVITY_HARNESS_PATH. */
function withoutHarness(): string {
  const emptyBin = tempDir();
  vi.stubEnv("PATH", emptyBin);
  vi.stubEnv("ANTIGRAVITY_HARNESS_PATH", undefined);
  return emptyBin;
}

describe("a harness that cannot be found", () => {
  it("refuses every run with a lone HARNESS_NOT_FOUND that says what to do, and warns once on the console without a logger", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const emptyBin = withoutHarness();
    const agent = makeAgent({ harness: "discover" });
    for (const text of ["first", "second"]) {
      agent.addMessage(user(text));
      const { events } = await runWith(agent);
      expect(events.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
      const error = events[0] as RunErrorEvent;
      expect(error.code).toBe("HARNESS_NOT_FOUND");
      expect(error.message).toContain("pip install google-antigravity");
      expect(error.message).toContain('harness: "emulator"');
      // Said to the client: never the server's paths.
      expect(error.message).not.toContain(emptyBin);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line).not.toContain("\n");
    expect(line).toContain("Searched");
    expect(line).toContain(emptyBin);
    expect(line).toContain('harness: "emulator"');
  });

  it("is not ready, with the code and words a run would get, and ready again on the emulator", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const emptyBin = withoutHarness();
    const missing = makeAgent({ harness: "discover" });
    const readiness = await missing.readiness();
    expect(readiness).toMatchObject({ ready: false, code: "HARNESS_NOT_FOUND" });
    expect(readiness.ready === false && readiness.reason).toContain("pip install google-antigravity");
    expect(JSON.stringify(readiness)).not.toContain(emptyBin);
    expect(await makeAgent({ harness: "emulator" }).readiness()).toEqual({ ready: true });
    const closing = makeAgent({ harness: "emulator" });
    void closing.close();
    expect(await closing.readiness()).toMatchObject({ ready: false, code: "AGENT_CLOSED" });
  });

  it("logs one error line per refused run through the logger, and nothing on the console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const record = (level: string) => (details: Record<string, unknown>, message: string) => void logged.push({ level, details, message });
    withoutHarness();
    const agent = makeAgent({ harness: "discover", logger: { warn: record("warn"), error: record("error") } });
    agent.addMessage(user("hello"));
    await runWith(agent);
    expect(warn).not.toHaveBeenCalled();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: "error", details: { code: "HARNESS_NOT_FOUND" } });
    expect(logged[0]?.message).toContain("cannot start the Antigravity harness");
  });
});

describe("a harness that starts and dies at once", () => {
  it("a new thread's run says RUN_STARTED before its conversation opens, then ends with a streamed RUN_ERROR naming the failure", async () => {
    const binaryPath = join(tempDir(), "dies-at-once");
    writeFileSync(binaryPath, "#!/bin/sh\nexit 3\n");
    chmodSync(binaryPath, 0o755);
    const agent = makeAgent({ harness: { path: binaryPath } });
    agent.addMessage(user("hello"));
    const { events } = await runWith(agent);
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    const error = events[1] as RunErrorEvent;
    expect(["SPAWN_FAILED", "HANDSHAKE_FAILED", "PROCESS_DIED", "OPEN_FAILED"]).toContain(error.code);
    expect(error.message).not.toContain(binaryPath);
  });
});

describe("the README's error table", () => {
  it("names every code a run can end with", () => {
    const packagesDir = join(import.meta.dirname, "..", "..");
    const unions = [
      "agent/src/errors/agent-error.ts",
      "hitl/src/errors/hitl-error.ts",
      "pool/src/errors/pool-error.ts",
      "harness/src/errors/harness-error.ts",
    ];
    const codes = unions.flatMap((file) => [...readFileSync(join(packagesDir, file), "utf8").matchAll(/^\s*\|\s*"([A-Z_]+)"/gm)].map((match) => match[1]));
    expect(codes.length).toBeGreaterThan(30);
    const readme = readFileSync(join(packagesDir, "agent", "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Errors"));
    const missing = [...new Set([...codes, "MODEL_ERROR", "AGENT_ERROR"])].filter((code) => !table.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
