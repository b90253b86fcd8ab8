import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenOnEphemeralPort } from "@ag-ui-antigravity/testing";
import type { HarnessPoolSettings } from "@ag-ui-antigravity/pool";
import { pino } from "pino";
import { createDemoServer, type DemoServer } from "../../src/app.js";
import type { StateStoreConfig } from "../../src/state/state-stores.js";
import { emulatorBinaryPath } from "../../src/harness/harness-choice.js";

export interface RunningDemoServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  demo: DemoServer;
  /** A stand-in dojo build (one index.html) served under /dojo/. */
  dojoDistDirectory: string;
  close(): Promise<void>;
}

export const testDojoPage = "<!doctype html><title>dojo under test</title>";

/**
 * The real server (src/app.ts) on port 0, with the emulator and each feature's scenario. Logs stay
 * quiet unless TEST_LOG_LEVEL asks for them; task steps are short so runs stay quick.
 */
export async function startDemoServer(options: { state?: StateStoreConfig; pool?: Partial<HarnessPoolSettings>; authTokens?: ReadonlyMap<string, string> } = {}): Promise<RunningDemoServer> {
  const dojoDistDirectory = await mkdtemp(join(tmpdir(), "agd-dojo-"));
  await writeFile(join(dojoDistDirectory, "index.html"), testDojoPage);
  const demo = await createDemoServer({
    harness: { kind: "emulator", binaryPath: emulatorBinaryPath(), reason: "the tests use the emulator" },
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    dojoDistDirectory,
    taskStepDelayMs: 60,
    ...(options.state === undefined ? {} : { state: options.state }),
    ...(options.pool === undefined ? {} : { pool: options.pool }),
    ...(options.authTokens === undefined ? {} : { authTokens: options.authTokens }),
  });
  const server = await listenOnEphemeralPort(demo.app);
  return {
    url: server.url,
    demo,
    dojoDistDirectory,
    close: async () => {
      await server.close();
      await demo.close();
      await rm(dojoDistDirectory, { recursive: true, force: true });
    },
  };
}
