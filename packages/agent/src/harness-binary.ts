import { findHarnessBinary } from "@ag-ui-antigravity/harness";
import { AgentError } from "./errors/agent-error.js";
import type { HarnessSource } from "./agent-options.js";

/**
 * The executable to run for a harness source. The emulator is found through its package (an
 * optional peer dependency: the adapter does not install it), never chosen silently: only
 * `harness: "emulator"` runs it.
 */
export async function resolveHarnessBinary(source: HarnessSource, options: { signal?: AbortSignal } = {}): Promise<string> {
  if (typeof source === "object") return source.path;
  if (source === "emulator") return await emulatorBinaryPath();
  return findHarnessBinary(options.signal === undefined ? {} : { signal: options.signal });
}

async function emulatorBinaryPath(): Promise<string> {
  let emulator: { emulatorBinaryPath(): string };
  try {
    emulator = await import("@ag-ui-antigravity/harness-emulator/binary-path");
  } catch (error) {
    throw new AgentError(
      "CONFIG_INVALID",
      'harness: "emulator" needs the @ag-ui-antigravity/harness-emulator package, which the agent does not install: ' +
        "add it with `npm install @ag-ui-antigravity/harness-emulator` (a dev dependency is enough).",
      { cause: error },
    );
  }
  return emulator.emulatorBinaryPath();
}
