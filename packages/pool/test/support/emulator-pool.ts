import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emulatorBinPath, fixturesDir } from "@ag-ui-antigravity/testing";
import type { ConversationConfig, CustomTool } from "@ag-ui-antigravity/harness";
import { HarnessPool, type HarnessPoolSettings } from "../../src/index.js";

/** The faults scenario: "kill" makes the emulator SIGKILL itself, anything else is answered "ok: <text>". */
export const faultsModel = `emulator:${join(fixturesDir, "scenarios", "faults.json")}`;

/** The demo scenario: a message naming a custom tool makes the model call it. */
export const demoModel = "emulator:demo";

/** A pool over emulator processes, with short timings suited to tests. */
export function emulatorPool(settings: HarnessPoolSettings = {}): HarnessPool {
  return new HarnessPool({
    healthCheckIntervalMs: 0,
    closeDeadlineMs: 5_000,
    processGracePeriodMs: 2_000,
    ...settings,
    harness: { binaryPath: emulatorBinPath },
  });
}

/** A config answered quickly by the faults scenario. */
export function plainConfig(): ConversationConfig {
  return { model: faultsModel };
}

/** A config whose custom tool `slow_lookup` runs `handler`; the demo model calls it when a message names it. */
export function toolConfig(handler: CustomTool["handler"]): ConversationConfig {
  return {
    model: demoModel,
    customTools: [
      {
        name: "slow_lookup",
        description: "Looks something up, slowly.",
        parameters: { type: "object", properties: { query: { type: "string" } } },
        handler,
      },
    ],
  };
}

/** Temporary storage directories, removed by `removeAll`. */
export class TemporaryDirectories {
  readonly #paths: string[] = [];

  create(): string {
    const path = mkdtempSync(join(tmpdir(), "pool-test-"));
    this.#paths.push(path);
    return path;
  }

  removeAll(): void {
    for (const path of this.#paths.splice(0)) rmSync(path, { recursive: true, force: true });
  }
}

/** A promise with its resolver, for holding a tool call open. */
export function deferred<TValue>(): { promise: Promise<TValue>; resolve: (value: TValue) => void } {
  let resolve: (value: TValue) => void = () => undefined;
  const promise = new Promise<TValue>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Milliseconds taken by `work`. */
export async function timed<TValue>(work: () => Promise<TValue>): Promise<{ value: TValue; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}
