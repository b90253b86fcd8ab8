import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HarnessProcess, type HarnessProcessOptions } from "../../src/index.js";
import { expectNoLeaks, takeLeakBaseline, type LeakBaseline } from "./leak-check.js";

/** The emulator is spawned by path, never imported: it depends on this package. */
export const EMULATOR_BIN = fileURLToPath(new URL("../../../harness-emulator/dist/bin.js", import.meta.url));
export const FLOWS_SCENARIO = fileURLToPath(new URL("../scenarios/flows.json", import.meta.url));
export const FLOWS_MODEL = `emulator:${FLOWS_SCENARIO}`;
/** The MCP SDK test server of packages/testing (tools add_numbers, shout_text, …), run with node by path. */
export const MCP_TEST_SERVER = fileURLToPath(new URL("../../../testing/src/mcp/test-mcp-server.mjs", import.meta.url));

export function emulatorAvailable(): boolean {
  return existsSync(EMULATOR_BIN);
}

/**
 * Starts emulator processes for one test and cleans them up afterwards: every process is closed,
 * and the leak check then asserts that no child, socket or timer outlived the test.
 */
export class EmulatorFixture {
  readonly #processes: HarnessProcess[] = [];
  readonly #groups: number[] = [];
  #baseline: LeakBaseline | undefined;

  begin(): void {
    this.#baseline = takeLeakBaseline();
  }

  /** `harnessVersion` pins the client's protocol and, through it, the emulator's profile. */
  async start(options: HarnessProcessOptions = {}): Promise<HarnessProcess> {
    const harness = await HarnessProcess.start({
      binaryPath: EMULATOR_BIN,
      handshakeTimeoutMs: 30_000,
      ...options,
      env: {
        ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "1",
        ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "200",
        ...options.env,
      },
    });
    this.#processes.push(harness);
    this.#groups.push(harness.pid);
    return harness;
  }

  async end(): Promise<void> {
    await Promise.all(this.#processes.splice(0).map((harness) => harness.close({ gracePeriodMs: 2_000 })));
    if (this.#baseline !== undefined) await expectNoLeaks(this.#baseline, this.#groups.splice(0));
  }
}
