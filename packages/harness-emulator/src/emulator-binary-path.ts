import { fileURLToPath } from "node:url";

/**
 * The absolute path of the emulator's executable (`dist/bin.js`), to hand to a client as the
 * harness binary, e.g. `HarnessProcess.start({ binaryPath: emulatorBinaryPath() })`. It is not an
 * export subpath because importing it would start an emulator.
 */
export function emulatorBinaryPath(): string {
  return fileURLToPath(new URL("./bin.js", import.meta.url));
}
