import { fileURLToPath } from "node:url";

/**
 * The absolute path of the emulator's executable (`dist/bin.js`), to hand to a client as the
 * harness binary, e.g. `HarnessProcess.start({ binaryPath: emulatorBinaryPath() })`. Also the
 * `./binary-path` subpath on its own: a server that only spawns the emulator need not load the
 * emulator's code (scenarios, MCP client, schema sampling) into its own process.
 */
export function emulatorBinaryPath(): string {
  return fileURLToPath(new URL("./bin.js", import.meta.url));
}
