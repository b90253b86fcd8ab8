import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { findHarnessBinary } from "@ag-ui-antigravity/harness";
import { AgentError } from "./errors/agent-error.js";
import type { HarnessSource } from "./agent-options.js";

/**
 * The executable to run for a harness source. The emulator is found through its package (an
 * optional peer dependency), never chosen silently: only `harness: "emulator"` runs it.
 */
export async function resolveHarnessBinary(source: HarnessSource, options: { signal?: AbortSignal } = {}): Promise<string> {
  if (typeof source === "object") return source.path;
  if (source === "emulator") return emulatorBinaryPath();
  return findHarnessBinary(options.signal === undefined ? {} : { signal: options.signal });
}

export function emulatorBinaryPath(): string {
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve("@ag-ui-antigravity/harness-emulator/package.json");
  } catch (error) {
    throw new AgentError("CONFIG_INVALID", "harness: \"emulator\" needs the @ag-ui-antigravity/harness-emulator package installed.", { cause: error });
  }
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.["localharness-emulator"];
  if (bin === undefined) throw new AgentError("CONFIG_INVALID", "The installed harness emulator declares no executable.");
  return join(dirname(manifestPath), bin);
}
